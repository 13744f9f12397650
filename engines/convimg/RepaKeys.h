#pragma once
/// Every parameter key and result key of the repa-physics panel (RepaEngine), declared once; the
/// engine writes under these names and the figures read through the same constants.
/// Model suffixes: "baseline" (data + c_out output residual, PIDM-like) and "repa" (+ head residuals).

namespace pl::convimg::repa::keys {

/// Parameter keys.
namespace param {
inline constexpr char kTask[] = "task";         ///< conditional | joint
inline constexpr char kGrid[] = "grid";         ///< N (ignored when a K file is given)
inline constexpr char kFields[] = "fields";     ///< training fields
inline constexpr char kChannels[] = "channels"; ///< trunk width
inline constexpr char kDepth[] = "depth";       ///< residual blocks
inline constexpr char kSteps[] = "steps";       ///< diffusion steps T
inline constexpr char kIterations[] = "iterations";
inline constexpr char kBatch[] = "batch";
inline constexpr char kLr[] = "lr";
inline constexpr char kCProj[] = "c_proj";
inline constexpr char kCOut[] = "c_out";
inline constexpr char kGShow[] = "g_show";
inline constexpr char kResidual[] = "residual"; ///< fv | fd (scoring)
inline constexpr char kEvalSamples[] = "eval_samples";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kResidualGenBaseline[] = "residual_gen_baseline"; ///< mean R^2 of generated samples
inline constexpr char kResidualGenRepa[] = "residual_gen_repa";
inline constexpr char kResidualTrue[] = "residual_true_mean";      ///< mean R^2 of the solver's fields
inline constexpr char kMacsBaseline[] = "inference_macs_baseline"; ///< one denoiser call, heads removed
inline constexpr char kMacsRepa[] = "inference_macs_repa";
inline constexpr char kHeadMacs[] = "head_macs";                 ///< the heads' MACs during training
inline constexpr char kErrorGenBaseline[] = "rmse_gen_baseline"; ///< RMSE of generated vs solved p
inline constexpr char kErrorGenRepa[] = "rmse_gen_repa";
inline constexpr char kTargetLoss[] = "target_loss"; ///< the baseline's final smoothed data loss
inline constexpr char kItersBaseline[] = "iters_to_target_baseline";
inline constexpr char kItersRepa[] = "iters_to_target_repa";     ///< NaN when not reached
inline constexpr char kSolverIterations[] = "solver_iterations"; ///< CG iterations, shown field
inline constexpr char kGrid[] = "grid";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kLossPrefix[] = "loss_";                 ///< + baseline | repa: total loss
inline constexpr char kDataLossPrefix[] = "data_loss_";        ///< + model
inline constexpr char kOutResidualPrefix[] = "residual_out_";  ///< + model: mean R^2 of x0_hat
inline constexpr char kHeadResidual[] = "residual_heads_repa"; ///< mean over heads of mean R^2
inline constexpr char kErrorVsGPrefix[] = "error_vs_g_";       ///< + model (Conditional only)
} // namespace series

/// ResultDocument::matrices keys (N x N, [row = y][column = x]).
namespace matrix {
inline constexpr char kKField[] = "k_field";
inline constexpr char kPTrue[] = "p_true";
inline constexpr char kResidualTrue[] = "residual_true";
inline constexpr char kPGenerated[] = "p_generated"; ///< REPA-P sample for the shown field
inline constexpr char kPGeneratedBaseline[] = "p_generated_baseline";
inline constexpr char kResidualGen[] = "residual_gen"; ///< |R| of p_generated
inline constexpr char kHeadPrefix[] = "head_";         ///< + 1, 2, ...: decoded p of each head
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kHeadResidual[] = "head_residual"; ///< per head then the output: mean R^2
inline constexpr char kHeadBlocks[] = "head_blocks";     ///< block index (1-based) of each head
inline constexpr char kGValues[] = "g_values";
} // namespace vector

/// Claim::id values.
namespace claim {
inline constexpr char kEqualMacs[] = "c1-equal-inference-cost";
inline constexpr char kLowerResidual[] = "c2-lower-generated-residual";
} // namespace claim

inline constexpr char kBaseline[] = "baseline";
inline constexpr char kRepa[] = "repa";

} // namespace pl::convimg::repa::keys
