#pragma once
/// Every parameter key and result key of the ssn-nash panel (SsnNashEngine), declared once. The engine
/// writes results under these names and the panel's figures read them back through the same
/// constants, so a renamed key is a compile error rather than an empty figure. Plain `const char[]`
/// so that they convert to std::string (ResultDocument maps, ParamSet lookups) wherever one is
/// expected. Names are stable: add keys, do not rename them.

namespace pl::ssnnash::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kClaimGames[] = "claim_games";
inline constexpr char kCols[] = "cols";
inline constexpr char kCompareSolvers[] = "compare_solvers";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kGammaAuto[] = "gamma_auto";
inline constexpr char kGenerator[] = "generator";
inline constexpr char kLpReference[] = "lp_reference";
inline constexpr char kMaxIterations[] = "max_iterations";
inline constexpr char kMaxNewton[] = "max_newton";
inline constexpr char kMuMax[] = "mu_max";
inline constexpr char kNStall[] = "n_stall";
inline constexpr char kPrmAlternating[] = "prm_alternating";
inline constexpr char kPrmAveraging[] = "prm_averaging";
inline constexpr char kRows[] = "rows";
inline constexpr char kSolver[] = "solver";
inline constexpr char kSsnMaxIterations[] = "ssn_max_iterations";
inline constexpr char kSwitchGap[] = "switch_gap";
inline constexpr char kTargetGap[] = "target_gap";
inline constexpr char kUsePlayer1Payoffs[] = "use_player1_payoffs";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kCols[] = "cols";
inline constexpr char kConverged[] = "converged";
inline constexpr char kDrsSteps[] = "drs_steps";
inline constexpr char kDualityGap[] = "duality_gap";
inline constexpr char kFallbacks[] = "fallbacks";
inline constexpr char kFinalResidual[] = "final_residual";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kGapHybrid[] = "gap_hybrid";
inline constexpr char kGapPrmPlus[] = "gap_prm_plus";
inline constexpr char kGapSsn[] = "gap_ssn";
inline constexpr char kIterations[] = "iterations";
inline constexpr char kIterationsToTarget[] = "iterations_to_target";
inline constexpr char kLpError[] = "lp_error";
inline constexpr char kLpGap[] = "lp_gap";
inline constexpr char kLpValue[] = "lp_value";
inline constexpr char kMatvecEquivalents[] = "matvec_equivalents";
inline constexpr char kMatvecs[] = "matvecs";
inline constexpr char kNewtonCondition[] = "newton_condition";
inline constexpr char kNewtonSteps[] = "newton_steps";
inline constexpr char kRows[] = "rows";
inline constexpr char kSupportXSize[] = "support_x_size";
inline constexpr char kSupportYSize[] = "support_y_size";
inline constexpr char kSwitchIteration[] = "switch_iteration";
inline constexpr char kValue[] = "value";
inline constexpr char kValueLower[] = "value_lower";
inline constexpr char kValueUpper[] = "value_upper";
/// Prefix of a family of keys: "gap_" followed by a name or index.
inline constexpr char kGapPrefix[] = "gap_";
/// Prefix of a family of keys: "iterations_" followed by a name or index.
inline constexpr char kIterationsPrefix[] = "iterations_";
/// Prefix of a family of keys: "iterations_to_target_" followed by a name or index.
inline constexpr char kIterationsToTargetPrefix[] = "iterations_to_target_";
/// Prefix of a family of keys: "matvec_equivalents_" followed by a name or index.
inline constexpr char kMatvecEquivalentsPrefix[] = "matvec_equivalents_";
/// Prefix of a family of keys: "matvecs_" followed by a name or index.
inline constexpr char kMatvecsPrefix[] = "matvecs_";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kGapHybrid[] = "gap_hybrid";
inline constexpr char kGapPrmPlus[] = "gap_prm_plus";
inline constexpr char kGapPrmPlusLast[] = "gap_prm_plus_last";
inline constexpr char kGapRatio[] = "gap_ratio";
inline constexpr char kGapSsn[] = "gap_ssn";
inline constexpr char kGapVsIteration[] = "gap_vs_iteration";
inline constexpr char kGapVsWorkHybrid[] = "gap_vs_work_hybrid";
inline constexpr char kGapVsWorkPrmPlus[] = "gap_vs_work_prm_plus";
inline constexpr char kGapVsWorkSsn[] = "gap_vs_work_ssn";
inline constexpr char kResidualRatio[] = "residual_ratio";
/// Prefix of a family of keys: "gap_" followed by a name or index.
inline constexpr char kGapPrefix[] = "gap_";
/// Prefix of a family of keys: "gap_vs_work_" followed by a name or index.
inline constexpr char kGapVsWorkPrefix[] = "gap_vs_work_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kNewtonMatrix[] = "newton_matrix";
inline constexpr char kPayoff[] = "payoff";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kX[] = "x";
inline constexpr char kY[] = "y";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kNewtonStepKind[] = "newton_step_kind";
inline constexpr char kSupportX[] = "support_x";
inline constexpr char kSupportY[] = "support_y";
} // namespace label

/// Claim::id values.
namespace claim {
inline constexpr char kHybrid10xFewerIterations[] = "hybrid-10x-fewer-iterations";
inline constexpr char kLpAgreement[] = "lp-agreement";
inline constexpr char kSuperlinearTail[] = "superlinear-tail";
} // namespace claim

} // namespace pl::ssnnash::keys
