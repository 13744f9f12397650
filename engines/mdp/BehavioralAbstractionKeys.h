#pragma once
/// Every parameter key and result key of the behavioral-abstraction panel
/// (BehavioralAbstractionEngine), declared once; the engine and the figures use these constants.

namespace pl::mdp::keys {

/// Parameter keys.
namespace param {
inline constexpr char kWorld[] = "world";
inline constexpr char kStates[] = "states";
inline constexpr char kActions[] = "actions";
inline constexpr char kBlocks[] = "blocks";
inline constexpr char kPerturbation[] = "perturbation";
inline constexpr char kGridSize[] = "grid_size";
inline constexpr char kRingSize[] = "ring_size";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kFormulaSamples[] = "formula_samples";
inline constexpr char kSafeLabel[] = "safe_label";
inline constexpr char kGoalLabel[] = "goal_label";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kStates[] = "states";
inline constexpr char kActions[] = "actions";
inline constexpr char kBlocks[] = "blocks";
inline constexpr char kHomomorphismViolation[] = "homomorphism_violation";
inline constexpr char kBoundViolation[] = "bound_violation";
inline constexpr char kFormulaViolation[] = "formula_violation";
inline constexpr char kFormulaTightness[] = "formula_tightness";
inline constexpr char kQuotientValueError[] = "quotient_value_error";
inline constexpr char kMetricIterations[] = "metric_iterations";
inline constexpr char kMetricLastChange[] = "metric_last_change";
inline constexpr char kTransportSolves[] = "transport_solves";
inline constexpr char kInvariantSize[] = "invariant_size";
inline constexpr char kMaxMetric[] = "max_metric";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAbstractionError[] = "abstraction_error"; ///< x ε, y max |V* − V̄*∘φ|
inline constexpr char kAbstractionBound[] = "abstraction_bound"; ///< x ε, y 2ε/(1−γ)
inline constexpr char kAbstractionDiameterBound[] = "abstraction_diameter_bound"; ///< 2·diam/(1−γ)
inline constexpr char kAbstractionBlocks[] = "abstraction_blocks";                ///< x ε, y clusters
inline constexpr char kValueGap[] = "value_gap";         ///< x d(s,t), y |V*(s) − V*(t)|
inline constexpr char kFormulaGap[] = "formula_gap";     ///< x d(s,t), y sup sampled gap
inline constexpr char kMetricChange[] = "metric_change"; ///< x sweep, y max change
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kBisimMetric[] = "bisim_metric";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kValue[] = "value";
inline constexpr char kInvariant[] = "invariant";
inline constexpr char kReachProbability[] = "reach_probability";
inline constexpr char kQuotientValue[] = "quotient_value";
inline constexpr char kQuotientInvariant[] = "quotient_invariant";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kBlock[] = "block";
} // namespace label

/// ResultDocument::graphs keys; node attrs: block, invariant, value, goal.
namespace graph {
inline constexpr char kMdp[] = "mdp";
inline constexpr char kQuotient[] = "quotient";
} // namespace graph

/// Graph node attribute names.
namespace attr {
inline constexpr char kBlock[] = "block";
inline constexpr char kInvariant[] = "invariant";
inline constexpr char kValue[] = "value";
inline constexpr char kGoal[] = "goal";
inline constexpr char kSize[] = "size";
} // namespace attr

/// Claim::id values.
namespace claim {
inline constexpr char kBisimBound[] = "bisim-bound";
inline constexpr char kQuotientExact[] = "quotient-exact";
inline constexpr char kFormulaSound[] = "formula-sound";
inline constexpr char kAbstractionBound[] = "abstraction-bound";
} // namespace claim

} // namespace pl::mdp::keys
