#pragma once
/// Every parameter key and result key of the torus-graph panel (TorusGraphEngine), declared once. The engine
/// writes results under these names and the panel's figures read them back through the same
/// constants, so a renamed key is a compile error rather than an empty figure. Plain `const char[]`
/// so that they convert to std::string (ResultDocument maps, ParamSet lookups) wherever one is
/// expected. Names are stable: add keys, do not rename them.

namespace pl::torusgraph::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kAlpha[] = "alpha";
inline constexpr char kArT[] = "ar_T";
inline constexpr char kArClaimSeeds[] = "ar_claim_seeds";
inline constexpr char kArCoupling[] = "ar_coupling";
inline constexpr char kArD[] = "ar_d";
inline constexpr char kArLag[] = "ar_lag";
inline constexpr char kArShifts[] = "ar_shifts";
inline constexpr char kBandHigh[] = "band_high";
inline constexpr char kBandLow[] = "band_low";
inline constexpr char kBatch[] = "batch";
inline constexpr char kBurnIn[] = "burn_in";
inline constexpr char kCouplingMax[] = "coupling_max";
inline constexpr char kCouplingMin[] = "coupling_min";
inline constexpr char kD[] = "d";
inline constexpr char kDifferenceOnly[] = "difference_only";
inline constexpr char kEdgeProb[] = "edge_prob";
inline constexpr char kGraph[] = "graph";
inline constexpr char kHmmT[] = "hmm_T";
inline constexpr char kHmmD[] = "hmm_d";
inline constexpr char kHmmDwell[] = "hmm_dwell";
inline constexpr char kHmmEmIterations[] = "hmm_em_iterations";
inline constexpr char kHmmMstepIterations[] = "hmm_mstep_iterations";
inline constexpr char kHmmStates[] = "hmm_states";
inline constexpr char kInputKind[] = "input_kind";
inline constexpr char kLambda[] = "lambda";
inline constexpr char kLearningRate[] = "learning_rate";
inline constexpr char kLrFinalRatio[] = "lr_final_ratio";
inline constexpr char kMethod[] = "method";
inline constexpr char kN[] = "n";
inline constexpr char kPairI[] = "pair_i";
inline constexpr char kPairJ[] = "pair_j";
inline constexpr char kSamplingRate[] = "sampling_rate";
inline constexpr char kScaling[] = "scaling";
inline constexpr char kScalingMaxDCf[] = "scaling_max_d_cf";
inline constexpr char kScalingMaxDSsm[] = "scaling_max_d_ssm";
inline constexpr char kSsmIterations[] = "ssm_iterations";
inline constexpr char kSsmTolerance[] = "ssm_tolerance";
inline constexpr char kTailAverage[] = "tail_average";
inline constexpr char kThin[] = "thin";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kArLag[] = "ar_lag";
inline constexpr char kAucClosedForm[] = "auc_closed_form";
inline constexpr char kAucPlv[] = "auc_plv";
inline constexpr char kAucStochastic[] = "auc_stochastic";
inline constexpr char kCuda[] = "cuda";
inline constexpr char kD[] = "d";
inline constexpr char kEdgesPlanted[] = "edges_planted";
inline constexpr char kEdgesSignificant[] = "edges_significant";
inline constexpr char kEtaErrorClosedForm[] = "eta_error_closed_form";
inline constexpr char kHmmAccuracy[] = "hmm_accuracy";
inline constexpr char kHmmD[] = "hmm_d";
inline constexpr char kHmmStates[] = "hmm_states";
inline constexpr char kLossClosedForm[] = "loss_closed_form";
inline constexpr char kLossStochastic[] = "loss_stochastic";
inline constexpr char kMemoryClosedFormBytes[] = "memory_closed_form_bytes";
inline constexpr char kN[] = "n";
inline constexpr char kParameters[] = "parameters";
inline constexpr char kSlopeCfBuild[] = "slope_cf_build";
inline constexpr char kSlopeCfSolve[] = "slope_cf_solve";
inline constexpr char kSlopeSsmIteration[] = "slope_ssm_iteration";
inline constexpr char kSsmIterationsRun[] = "ssm_iterations_run";
inline constexpr char kSsmRelativeError[] = "ssm_relative_error";
inline constexpr char kSsmStoppedEarly[] = "ssm_stopped_early";
inline constexpr char kTeBackward[] = "te_backward";
inline constexpr char kTeForward[] = "te_forward";
inline constexpr char kTeNull95Backward[] = "te_null95_backward";
inline constexpr char kTeNull95Forward[] = "te_null95_forward";
inline constexpr char kTorusPairI[] = "torus_pair_i";
inline constexpr char kTorusPairJ[] = "torus_pair_j";
inline constexpr char kTorusPairStrength[] = "torus_pair_strength";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kHmmLoglik[] = "hmm_loglik";
inline constexpr char kHmmPosterior1[] = "hmm_posterior_1";
inline constexpr char kMemoryClosedForm[] = "memory_closed_form";
inline constexpr char kRocClosedForm[] = "roc_closed_form";
inline constexpr char kRocPlv[] = "roc_plv";
inline constexpr char kRocStochastic[] = "roc_stochastic";
inline constexpr char kScalingCfBuild[] = "scaling_cf_build";
inline constexpr char kScalingCfSolve[] = "scaling_cf_solve";
inline constexpr char kScalingSsmIteration[] = "scaling_ssm_iteration";
inline constexpr char kSsmLoss[] = "ssm_loss";
inline constexpr char kSsmParamError[] = "ssm_param_error";
inline constexpr char kTeVsTBackward[] = "te_vs_T_backward";
inline constexpr char kTeVsTForward[] = "te_vs_T_forward";
/// Prefix of a family of keys: "hmm_posterior_" followed by a name or index.
inline constexpr char kHmmPosteriorPrefix[] = "hmm_posterior_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kAdjacencyTrue[] = "adjacency_true";
inline constexpr char kCouplingStrength[] = "coupling_strength";
inline constexpr char kCouplingStrengthCf[] = "coupling_strength_cf";
inline constexpr char kCouplingStrengthSsm[] = "coupling_strength_ssm";
inline constexpr char kCouplingTrue[] = "coupling_true";
inline constexpr char kHmmTransition[] = "hmm_transition";
inline constexpr char kPValue[] = "p_value";
inline constexpr char kPhi[] = "phi";
inline constexpr char kPlv[] = "plv";
inline constexpr char kTeNull95[] = "te_null95";
inline constexpr char kTePValue[] = "te_p_value";
inline constexpr char kTorusDensity[] = "torus_density";
inline constexpr char kTransferEntropy[] = "transfer_entropy";
inline constexpr char kWaldStatistic[] = "wald_statistic";
/// Prefix of a family of keys: "hmm_coupling_" followed by a name or index.
inline constexpr char kHmmCouplingPrefix[] = "hmm_coupling_";
/// Prefix of a family of keys: "hmm_coupling_true_" followed by a name or index.
inline constexpr char kHmmCouplingTruePrefix[] = "hmm_coupling_true_";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kEtaClosedForm[] = "eta_closed_form";
inline constexpr char kEtaSingle[] = "eta_single";
inline constexpr char kEtaStochastic[] = "eta_stochastic";
inline constexpr char kEtaTrue[] = "eta_true";
inline constexpr char kNodeX[] = "node_x";
inline constexpr char kNodeY[] = "node_y";
inline constexpr char kTorusXI[] = "torus_x_i";
inline constexpr char kTorusXJ[] = "torus_x_j";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kState[] = "state";
inline constexpr char kStateTrue[] = "state_true";
} // namespace label

/// ResultDocument::graphs keys.
namespace graph {
inline constexpr char kCoupling[] = "coupling";
inline constexpr char kTransferEntropy[] = "transfer_entropy";
} // namespace graph

/// Attribute keys of graph nodes and edges (GraphNode::attrs, GraphEdge::attrs).
namespace attr {
inline constexpr char kPValue[] = "p_value";
inline constexpr char kSignificant[] = "significant";
inline constexpr char kStrength[] = "strength";
inline constexpr char kX[] = "x";
inline constexpr char kY[] = "y";
} // namespace attr

/// Claim::id values.
namespace claim {
inline constexpr char kArTgDirection[] = "ar-tg-direction";
inline constexpr char kClosedFormSolveGrowsFaster[] = "closed-form-solve-grows-faster";
inline constexpr char kConditionalBeatsPairwise[] = "conditional-beats-pairwise";
inline constexpr char kEdgeRecoveryAuc[] = "edge-recovery-auc";
inline constexpr char kHmmRecoversStates[] = "hmm-recovers-states";
inline constexpr char kSsmIterationQuadratic[] = "ssm-iteration-quadratic";
inline constexpr char kSsmMatchesClosedForm[] = "ssm-matches-closed-form";
} // namespace claim

} // namespace pl::torusgraph::keys
