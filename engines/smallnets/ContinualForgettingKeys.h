#pragma once
/// Every parameter key and result key of the continual-forgetting panel
/// (ContinualForgettingEngine), declared once; the engine writes under these names and the
/// figures read through the same constants. Task indices in keys and labels count from 1, in
/// ascending task id.

namespace pl::smallnets::forget::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kD[] = "d";
inline constexpr char kTasks[] = "tasks";
inline constexpr char kN[] = "n";
inline constexpr char kWidth[] = "width";
inline constexpr char kSigma[] = "sigma";
inline constexpr char kMuNorm[] = "mu_norm";
inline constexpr char kEta[] = "eta";
inline constexpr char kIters[] = "iters";
inline constexpr char kInitScale[] = "init_scale";
inline constexpr char kLoss[] = "loss";
inline constexpr char kSweep[] = "sweep";
inline constexpr char kQTime[] = "q_time";
inline constexpr char kClaims[] = "check_claims";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kForgettingTrain[] = "forgetting_train"; ///< mean F_i^train over i < K
inline constexpr char kForgettingTest[] = "forgetting_test";   ///< mean F_i^test over i < K
inline constexpr char kFinalTrainLoss[] = "final_train_loss";  ///< mean over tasks after the last
inline constexpr char kSweepSlope[] = "forgetting_slope";      ///< log-log slope of the sweep
inline constexpr char kMaxOverlap[] = "max_task_overlap";      ///< largest off-diagonal overlap
} // namespace metric

/// ResultDocument::series keys ("<prefix><i>", i = 1..K; "<prefix><param>").
namespace series {
inline constexpr char kTrainLossTaskPrefix[] = "train_loss_task_";
inline constexpr char kForgettingVsPrefix[] = "forgetting_vs_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kWInit[] = "w_init";         ///< m x d initial first layer
inline constexpr char kQFinal[] = "q_final";       ///< d x d, Q = W^T diag(a) W after the last task
inline constexpr char kQView[] = "q_task_basis";   ///< U^T Q(q_time) U, U = task directions first
inline constexpr char kTrainLoss[] = "train_loss"; ///< K x K, row j = after task j, column i = task i
inline constexpr char kTestLoss[] = "test_loss";
inline constexpr char kOverlap[] = "task_overlap"; ///< K x K, tr(M_i M_j)/(|M_i| |M_j|)
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kForgettingTrain[] = "forgetting_train"; ///< K entries, F_i = L[K][i] - L[i][i]
inline constexpr char kForgettingTest[] = "forgetting_test";
inline constexpr char kTaskBoundaries[] = "task_boundaries"; ///< GD step at which each task starts
inline constexpr char kQBlocks[] = "q_blocks"; ///< per task: first row of its block in q_task_basis, size
} // namespace vector

/// Claim::id values.
namespace claim {
inline constexpr char kBlockInvariance[] = "c1-no-noise-no-forgetting";
inline constexpr char kGrowsWithSigma[] = "c2-forgetting-grows-with-sigma";
inline constexpr char kGrowsWithTasks[] = "c2-forgetting-grows-with-later-tasks";
inline constexpr char kGapShrinks[] = "c3-stability-gap-shrinks-with-n";
} // namespace claim

} // namespace pl::smallnets::forget::keys
