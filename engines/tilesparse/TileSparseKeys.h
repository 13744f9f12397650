#pragma once
/// Every parameter key and result key of the tilesparse panel (TileSparseEngine), declared once. The engine
/// writes results under these names and the panel's figures read them back through the same
/// constants, so a renamed key is a compile error rather than an empty figure. Plain `const char[]`
/// so that they convert to std::string (ResultDocument maps, ParamSet lookups) wherever one is
/// expected. Names are stable: add keys, do not rename them.

namespace pl::tilesparse::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kBandwidthTbs[] = "bandwidth_tbs";
inline constexpr char kBlockKeys[] = "block_keys";
inline constexpr char kBudgetMin[] = "budget_min";
inline constexpr char kBudgetPoints[] = "budget_points";
inline constexpr char kCalibSteps[] = "calib_steps";
inline constexpr char kClaimSeeds[] = "claim_seeds";
inline constexpr char kContext[] = "context";
inline constexpr char kCostPreset[] = "cost_preset";
inline constexpr char kDK[] = "d_k";
inline constexpr char kDV[] = "d_v";
inline constexpr char kDisplayBudget[] = "display_budget";
inline constexpr char kElemBytes[] = "elem_bytes";
inline constexpr char kEstimator[] = "estimator";
inline constexpr char kEvalSteps[] = "eval_steps";
inline constexpr char kGroupRows[] = "group_rows";
inline constexpr char kHeads[] = "heads";
inline constexpr char kIndexerRank[] = "indexer_rank";
inline constexpr char kKeyNoise[] = "key_noise";
inline constexpr char kLaunchUs[] = "launch_us";
inline constexpr char kMtpTokens[] = "mtp_tokens";
inline constexpr char kNeedles[] = "needles";
inline constexpr char kPeakTflops[] = "peak_tflops";
inline constexpr char kQueryNoise[] = "query_noise";
inline constexpr char kQuestTemperature[] = "quest_temperature";
inline constexpr char kRecentBlocks[] = "recent_blocks";
inline constexpr char kRetrievalFraction[] = "retrieval_fraction";
inline constexpr char kRunLength[] = "run_length";
inline constexpr char kSharpness[] = "sharpness";
inline constexpr char kSpecialisation[] = "specialisation";
inline constexpr char kTopics[] = "topics";
inline constexpr char kTopicsPerHead[] = "topics_per_head";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kAiDense[] = "ai_dense";
inline constexpr char kAiDenseGqa[] = "ai_dense_gqa";
inline constexpr char kAiDenseMla[] = "ai_dense_mla";
inline constexpr char kAiDenseMlaMtp2[] = "ai_dense_mla_mtp2";
inline constexpr char kAutotuneConfigs[] = "autotune_configs";
inline constexpr char kAutotuneK1Fraction[] = "autotune_k1_fraction";
inline constexpr char kAutotuneLevels[] = "autotune_levels";
inline constexpr char kAutotuneM2[] = "autotune_m2";
inline constexpr char kAutotuneM3[] = "autotune_m3";
inline constexpr char kAutotuneObjective[] = "autotune_objective";
inline constexpr char kAutotuneObjectiveOneTier[] = "autotune_objective_one_tier";
inline constexpr char kBackendCuda[] = "backend_cuda";
inline constexpr char kBlocks[] = "blocks";
inline constexpr char kBytesDense[] = "bytes_dense";
inline constexpr char kCrossoverBudgetQk2d[] = "crossover_budget_qk2d";
inline constexpr char kCudaMaxAbsDiff[] = "cuda_max_abs_diff";
inline constexpr char kDisplayBudget[] = "display_budget";
inline constexpr char kFlopsDense[] = "flops_dense";
inline constexpr char kGroups[] = "groups";
inline constexpr char kKeys[] = "keys";
inline constexpr char kNeedleHitDense[] = "needle_hit_dense";
inline constexpr char kRidge[] = "ridge";
inline constexpr char kRows[] = "rows";
inline constexpr char kTiles[] = "tiles";
inline constexpr char kTimeDenseUs[] = "time_dense_us";
/// Prefix of a family of keys: "ai_" followed by a name or index.
inline constexpr char kAiPrefix[] = "ai_";
/// Prefix of a family of keys: "blocks_" followed by a name or index.
inline constexpr char kBlocksPrefix[] = "blocks_";
/// Prefix of a family of keys: "budget_99_top1_" followed by a name or index.
inline constexpr char kBudget99Top1Prefix[] = "budget_99_top1_";
/// Prefix of a family of keys: "cuda_error_" followed by a name or index.
inline constexpr char kCudaErrorPrefix[] = "cuda_error_";
/// Prefix of a family of keys: "error_" followed by a name or index.
inline constexpr char kErrorPrefix[] = "error_";
/// Prefix of a family of keys: "mass_" followed by a name or index.
inline constexpr char kMassPrefix[] = "mass_";
/// Prefix of a family of keys: "needle_hit_" followed by a name or index.
inline constexpr char kNeedleHitPrefix[] = "needle_hit_";
/// Prefix of a family of keys: "time_" followed by a name or index.
inline constexpr char kTimePrefix[] = "time_";
/// Prefix of a family of keys: "top1_" followed by a name or index.
inline constexpr char kTop1Prefix[] = "top1_";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAutotuneK1Fraction[] = "autotune_k1_fraction";
inline constexpr char kAutotuneObjective[] = "autotune_objective";
inline constexpr char kRooflineBound[] = "roofline_bound";
inline constexpr char kRooflineDense[] = "roofline_dense";
inline constexpr char kTimeDense[] = "time_dense";
/// Prefix of a family of keys: "ai_" followed by a name or index.
inline constexpr char kAiPrefix[] = "ai_";
/// Prefix of a family of keys: "blocks_" followed by a name or index.
inline constexpr char kBlocksPrefix[] = "blocks_";
/// Prefix of a family of keys: "error_" followed by a name or index.
inline constexpr char kErrorPrefix[] = "error_";
/// Prefix of a family of keys: "mass_" followed by a name or index.
inline constexpr char kMassPrefix[] = "mass_";
/// Prefix of a family of keys: "roofline_" followed by a name or index.
inline constexpr char kRooflinePrefix[] = "roofline_";
/// Prefix of a family of keys: "time_" followed by a name or index.
inline constexpr char kTimePrefix[] = "time_";
/// Prefix of a family of keys: "top1_" followed by a name or index.
inline constexpr char kTop1Prefix[] = "top1_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kAttentionMass[] = "attention_mass";
inline constexpr char kAutotuneGrid[] = "autotune_grid";
inline constexpr char kImportance[] = "importance";
/// Prefix of a family of keys: "selected_" followed by a name or index.
inline constexpr char kSelectedPrefix[] = "selected_";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kBudgets[] = "budgets";
inline constexpr char kOutputFull[] = "output_full";
/// Prefix of a family of keys: "head_mass_" followed by a name or index.
inline constexpr char kHeadMassPrefix[] = "head_mass_";
} // namespace vector

/// Claim::id values.
namespace claim {
inline constexpr char kAutotunerNeverWorseThanFixed[] = "autotuner-never-worse-than-fixed";
inline constexpr char kC1Oracle2dDominates[] = "c1-oracle-2d-dominates";
inline constexpr char kC2NoGainWithoutHeadSparsity[] = "c2-no-gain-without-head-sparsity";
inline constexpr char kC2TieredGainWithHeadSparsity[] = "c2-tiered-gain-with-head-sparsity";
inline constexpr char kC3MlaComputeBound[] = "c3-mla-compute-bound";
inline constexpr char kQk2dLowerErrorWithHeadSpecialisation[] = "qk2d-lower-error-with-head-specialisation";
inline constexpr char kQk2dNoGainWithoutHeadSpecialisation[] = "qk2d-no-gain-without-head-specialisation";
} // namespace claim

} // namespace pl::tilesparse::keys
