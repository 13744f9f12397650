#pragma once
/// Every parameter key and result key of the protovar-distillation panel (ProtovarEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.
/// Method suffixes <m>: protovar, random_real, selector_real, var_unguided, guided_random,
/// unguided_selector.

namespace pl::distill::protovar::keys {

/// Parameter keys.
namespace param {
inline constexpr char kImagesPerClass[] = "images_per_class"; ///< synthetic training renders per class
inline constexpr char kTestPerClass[] = "test_per_class";
inline constexpr char kCodebook[] = "codebook";     ///< V
inline constexpr char kPrototypes[] = "prototypes"; ///< M_c
inline constexpr char kBeta[] = "beta";             ///< beta_1; beta_k = beta 0.5^(k-1)
inline constexpr char kCfg[] = "cfg";               ///< w
inline constexpr char kTemperature[] = "temperature";
inline constexpr char kIpc[] = "ipc";
inline constexpr char kPoolFactor[] = "pool_factor";     ///< pool = pool_factor * ipc per class
inline constexpr char kTau[] = "tau";                    ///< probability filter threshold
inline constexpr char kSelector[] = "selector";          ///< herding | kcenter
inline constexpr char kFeatureSpace[] = "feature_space"; ///< classifier | pixels
inline constexpr char kStudentInits[] = "student_inits";
inline constexpr char kGenSteps[] = "generator_steps";
inline constexpr char kStudentSteps[] = "student_steps";
inline constexpr char kIpcSweep[] = "ipc_sweep"; ///< also IPC 1 and 10 (and 50)
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kAccPrefix[] = "acc_"; ///< + m, at ipc, mean over student_inits
inline constexpr char kMsPerGeneratedImage[] = "ms_per_generated_image";
inline constexpr char kClassifierAcc[] = "classifier_test_acc";
inline constexpr char kFilterPassRate[] = "filter_pass_rate";      ///< guided pool at ipc
inline constexpr char kReconstructionMse[] = "reconstruction_mse"; ///< tokeniser, test images
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kPoolVarianceVsBeta[] = "pool_variance_vs_beta";
inline constexpr char kTokenEntropyVsScale[] = "token_entropy_vs_scale";           ///< guided pool
inline constexpr char kTokenEntropyUnguided[] = "token_entropy_vs_scale_unguided"; ///< beta = 0
inline constexpr char kAccVsIpcPrefix[] = "acc_vs_ipc_";                           ///< + m
inline constexpr char kPcaReal[] = "phi_pca_real";
inline constexpr char kPcaPool[] = "phi_pca_pool";
inline constexpr char kPcaSelected[] = "phi_pca_selected";
} // namespace series

/// ResultDocument::matrices keys (image grids: values in [0, 1], 1-px black separators).
namespace matrix {
inline constexpr char kRealGrid[] = "real_grid";               ///< classes x 8 real images
inline constexpr char kPrototypeLadder[] = "prototype_ladder"; ///< classes x (scales * prototypes)
inline constexpr char kPoolGrid[] = "pool_grid";               ///< classes x pool, selected framed
inline constexpr char kPartialReconstructions[] = "partial_reconstructions"; ///< classes x scales
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kMethodAcc[] = "method_acc"; ///< methods in kMethods order, at ipc
inline constexpr char kIpcValues[] = "ipc_values";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kSelectedReal[] = "selected_real"; ///< 0-based train indices, class by class
} // namespace label

/// Claim::id values.
namespace claim {
inline constexpr char kVarianceFalls[] = "pool-variance-falls-with-beta";
inline constexpr char kBeatsUnguided[] = "protovar-beats-unguided-var";
inline constexpr char kBeatsRandomReal[] = "protovar-beats-random-real-ipc1";
} // namespace claim

/// The methods, in display order.
inline constexpr const char* kMethods[] = {"protovar",     "random_real",   "selector_real",
                                           "var_unguided", "guided_random", "unguided_selector"};
inline constexpr int kMethodCount = 6;

/// The beta grid of series.pool_variance_vs_beta.
inline constexpr double kBetaGrid[] = {0, 0.5, 1, 2, 5, 10};

} // namespace pl::distill::protovar::keys
