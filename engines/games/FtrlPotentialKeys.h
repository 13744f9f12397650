#pragma once
/// Every parameter key and result key of the ftrl-potential-games panel (FtrlPotentialEngine), declared once.
/// The engine writes results under these names and the panel's figures read them back through the same
/// constants, so a renamed key is a compile error rather than an empty figure. Plain `const char[]`
/// so that they convert to std::string (ResultDocument maps, ParamSet lookups) wherever one is
/// expected. Names are stable: add keys, do not rename them.

namespace pl::ftrl::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kDynamics[] = "dynamics";
inline constexpr char kEpsilon[] = "epsilon";
inline constexpr char kEta[] = "eta";
inline constexpr char kGame[] = "game";
inline constexpr char kMaxSteps[] = "max_steps";
inline constexpr char kN[] = "n";
inline constexpr char kNMaxSweep[] = "n_max_sweep";
inline constexpr char kNMaxSweepFtrl[] = "n_max_sweep_ftrl";
inline constexpr char kRatio[] = "ratio";
inline constexpr char kSchedule[] = "schedule";
inline constexpr char kStart[] = "start";
inline constexpr char kTau[] = "tau";
inline constexpr char kTieBreak[] = "tie_break";
inline constexpr char kUpdate[] = "update";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kFirstEpsilonNeStep[] = "first_epsilon_ne_step";
inline constexpr char kFirstTargetStep[] = "first_target_step";
inline constexpr char kFpPeriods[] = "fp_periods";
inline constexpr char kIsPotential[] = "is_potential";
inline constexpr char kMassOnEquilibrium[] = "mass_on_equilibrium";
inline constexpr char kNashGap[] = "nash_gap";
inline constexpr char kNashGapAverage[] = "nash_gap_average";
inline constexpr char kPotential[] = "potential";
inline constexpr char kPotentialMaxContrast[] = "potential_max_contrast";
inline constexpr char kStepsRun[] = "steps_run";
inline constexpr char kStepsToEquilibrium[] = "steps_to_equilibrium";
inline constexpr char kStepsToEquilibriumLog10[] = "steps_to_equilibrium_log10";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kFpPeriodLength[] = "fp_period_length";
inline constexpr char kFpPeriodStart[] = "fp_period_start";
inline constexpr char kFtrlStepsVsEtaN3[] = "ftrl_steps_vs_eta_n3";
inline constexpr char kFtrlStepsVsEtaN4[] = "ftrl_steps_vs_eta_n4";
inline constexpr char kMassOnEquilibriumVsIteration[] = "mass_on_equilibrium_vs_iteration";
inline constexpr char kNashGapAvgVsIteration[] = "nash_gap_avg_vs_iteration";
inline constexpr char kNashGapVsIteration[] = "nash_gap_vs_iteration";
inline constexpr char kPotentialVsIteration[] = "potential_vs_iteration";
inline constexpr char kStepsVsNBestResponse[] = "steps_vs_n_best_response";
inline constexpr char kStepsVsNFp[] = "steps_vs_n_fp";
inline constexpr char kStepsVsNFtrl[] = "steps_vs_n_ftrl";
inline constexpr char kTrajectoryX[] = "trajectory_x";
inline constexpr char kTrajectoryXy[] = "trajectory_xy";
inline constexpr char kTrajectoryY[] = "trajectory_y";
inline constexpr char kTrajectoryZ[] = "trajectory_z";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kPayoff[] = "payoff";
inline constexpr char kPayoffB[] = "payoff_b";
inline constexpr char kPotential[] = "potential";
inline constexpr char kTrajectoryXProbs[] = "trajectory_x_probs";
inline constexpr char kTrajectoryYProbs[] = "trajectory_y_probs";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kStrategy3[] = "strategy_3";
inline constexpr char kStrategy4[] = "strategy_4";
inline constexpr char kX[] = "x";
inline constexpr char kXAverage[] = "x_average";
inline constexpr char kY[] = "y";
inline constexpr char kYAverage[] = "y_average";
/// Prefix of a family of keys: "strategy_" followed by a name or index.
inline constexpr char kStrategyPrefix[] = "strategy_";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kFpPeriodProfile[] = "fp_period_profile";
inline constexpr char kPeriod[] = "period";
} // namespace label

/// Claim::id values.
namespace claim {
inline constexpr char kAlternatingBr2n2[] = "alternating-br-2n-2";
inline constexpr char kAnyLearningRate[] = "any-learning-rate";
inline constexpr char kFpSuperexponential[] = "fp-superexponential";
inline constexpr char kFtrlApproxNe[] = "ftrl-approx-ne";
inline constexpr char kFtrlSlowLargeEta[] = "ftrl-slow-large-eta";
inline constexpr char kGeometricExponential[] = "geometric-exponential";
} // namespace claim

} // namespace pl::ftrl::keys
