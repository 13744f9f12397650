#pragma once
/// Every parameter key and result key of the metadistill-bbo panel (MetadistillEngine), declared once;
/// the engine writes under these names and the figures read through the same constants.

namespace pl::search::metadistill::keys {

namespace param {
inline constexpr char kStage[] = "stage"; ///< "full" | "teacher"
inline constexpr char kFunction[] = "function";
inline constexpr char kDim[] = "dim";
inline constexpr char kPopsize[] = "popsize";
inline constexpr char kGenerations[] = "generations";
inline constexpr char kTarget[] = "target";
inline constexpr char kTeacherRuns[] = "teacher_runs";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kSsftSteps[] = "ssft_steps";
inline constexpr char kRepeats[] = "repeats";
} // namespace param

/// Methods compared on the held-out functions (suffixes of the per-method keys).
inline constexpr const char* kMethods[] = {"distilled", "scratch", "random", "cmaes", "ssft"};
inline constexpr int kMethodCount = 5;

/// Functions distilled from (training) and held out (test), as indices into bbobNames().
inline constexpr int kTrainFunctions[] = {0, 1, 2, 3, 4, 6, 7, 10}; ///< sphere .. weierstrass
inline constexpr int kHeldOutFunctions[] = {5, 8, 9, 11, 12, 13};   ///< ellipsoid_rotated .. gallagher21
inline constexpr int kCloudCount = 3; ///< generations shown in the population clouds

namespace metric {
inline constexpr char kCmaesBestF[] = "cmaes_best_f";
inline constexpr char kCmaesEvalsToTarget[] = "cmaes_evals_to_target"; ///< -1 if not reached
inline constexpr char kMedianFinalPrefix[] = "median_final_log10_";    ///< + method
inline constexpr char kSsftGain[] = "ssft_gain_log10";                 ///< median distilled - median ssft
inline constexpr char kMetaBudget[] = "meta_budget_evals";             ///< teacher + distillation evaluations
inline constexpr char kScratchIterations[] = "scratch_es_iterations";
inline constexpr char kScratchEvals[] = "scratch_evals";
inline constexpr char kSanitySphereEvals[] = "sanity_evals_sphere";
inline constexpr char kSanityEllipsoidEvals[] = "sanity_evals_ellipsoid";
inline constexpr char kSanityRotatedEvals[] = "sanity_evals_ellipsoid_rotated";
inline constexpr char kStudentParams[] = "student_parameters";
} // namespace metric

namespace vector {
inline constexpr char kCmaesBestX[] = "cmaes_best_x";
inline constexpr char kXOpt[] = "x_opt";
inline constexpr char kFinalPrefix[] =
    "final_log10_"; ///< + method: per held-out function, median over repeats
inline constexpr char kCloudGenerations[] = "cloud_generations";
} // namespace vector

namespace matrix {
inline constexpr char kRotationR[] = "rotation_r";
inline constexpr char kRotationQ[] = "rotation_q";
} // namespace matrix

namespace label {
inline constexpr char kHeldOut[] = "heldout_functions"; ///< indices into the function list
} // namespace label

namespace series {
inline constexpr char kConvergencePrefix[] = "convergence_"; ///< + method: median best f vs evaluations
inline constexpr char kEcdfPrefix[] = "ecdf_";               ///< + method: share of (function, target) hit
inline constexpr char kLossKl[] = "loss_kl";
inline constexpr char kLossFit[] = "loss_fit";
inline constexpr char kLossDiv[] = "loss_div";
inline constexpr char kWeights[] = "weight_vs_rank";
inline constexpr char kWeightsCmaes[] = "weight_vs_rank_cmaes"; ///< CMA-ES positive weights, for comparison
inline constexpr char kContour[] = "contour";
inline constexpr char kCloudTeacherPrefix[] = "cloud_teacher_"; ///< + 0..2
inline constexpr char kCloudStudentPrefix[] = "cloud_student_"; ///< + 0..2
} // namespace series

namespace claim {
inline constexpr char kCmaesSanity[] = "cmaes-sanity";
inline constexpr char kBeatsRandom[] = "distilled-beats-random";
inline constexpr char kBeatsScratch[] = "distilled-beats-scratch";
} // namespace claim

} // namespace pl::search::metadistill::keys
