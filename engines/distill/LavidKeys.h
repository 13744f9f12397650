#pragma once
/// Every parameter key and result key of the lavid-distillation panel (LavidEngine), declared once;
/// the engine writes under these names and the figures read through the same constants. Method
/// suffixes <m>: ce, kd, lavid, kd_lavid, random_signature.

namespace pl::distill::lavid::keys {

/// Parameter keys.
namespace param {
inline constexpr char kClasses[] = "classes";
inline constexpr char kImagesPerClass[] = "images_per_class";
inline constexpr char kTestPerClass[] = "test_per_class";
inline constexpr char kQuestions[] = "questions";
inline constexpr char kOptions[] = "options";
inline constexpr char kTeacherNoise[] = "teacher_noise";   ///< sigma_T
inline constexpr char kHallucination[] = "hallucination";  ///< h
inline constexpr char kTeacherMargin[] = "teacher_margin"; ///< beta_T of the stand-in teacher
inline constexpr char kGamma[] = "gamma";
inline constexpr char kBeta[] = "beta";
inline constexpr char kSignatureLoss[] = "signature_loss"; ///< mse | kl
inline constexpr char kRhoSp[] = "rho_sp";
inline constexpr char kStudentInits[] = "student_inits";
inline constexpr char kHidden[] = "hidden";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kLr[] = "lr";
inline constexpr char kSweeps[] = "sweeps"; ///< accuracy vs images per class and vs sigma_T
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kTestAccPrefix[] = "test_acc_";                   ///< + m, mean over student_inits
inline constexpr char kWorstGroupAccPrefix[] = "worst_group_acc_";      ///< + m, mean over student_inits
inline constexpr char kTeacherAcc[] = "kd_teacher_test_acc";            ///< the wider vision teacher of kd
inline constexpr char kSignatureAgreement[] = "signature_kb_agreement"; ///< argmax = KB answer
inline constexpr char kMsPerStudent[] = "ms_per_student";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAccVsImagesPrefix[] = "acc_vs_images_per_class_"; ///< + ce | lavid | random_signature
inline constexpr char kGainVsNoise[] = "lavid_gain_vs_teacher_noise";
inline constexpr char kTrainLossPrefix[] = "train_loss_"; ///< + m (first init)
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kSignatures[] = "signatures";                    ///< C x (Q*O)
inline constexpr char kSignatureSimilarity[] = "signature_similarity"; ///< cosine, C x C
inline constexpr char kFeatureSimilarity[] = "feature_similarity";     ///< cosine of class-mean g(x)
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kProbeAcc[] = "probe_acc";        ///< per question
inline constexpr char kMethodAcc[] = "method_test_acc"; ///< methods in kMethods order
inline constexpr char kMethodWorstGroup[] = "method_worst_group_acc";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kPredPrefix[] = "pred_"; ///< + m: test rows in file order (first init)
} // namespace label

/// Claim::id values.
namespace claim {
inline constexpr char kLavidBeatsCe[] = "lavid-beats-ce";
inline constexpr char kRandomSignature[] = "random-signature-no-gain";
inline constexpr char kWorstGroup[] = "lavid-worst-group";
inline constexpr char kGainShrinks[] = "gain-shrinks-with-teacher-noise";
} // namespace claim

/// The methods, in display order.
inline constexpr const char* kMethods[] = {"ce", "kd", "lavid", "kd_lavid", "random_signature"};
inline constexpr int kMethodCount = 5;

} // namespace pl::distill::lavid::keys
