#pragma once
/// Every parameter key and result key of the curve-scene-graph panel (CurveEngine), declared once. The engine
/// writes results under these names and the panel's figures read them back through the same
/// constants, so a renamed key is a compile error rather than an empty figure. Plain `const char[]`
/// so that they convert to std::string (ResultDocument maps, ParamSet lookups) wherever one is
/// expected. Names are stable: add keys, do not rename them.

namespace pl::curve::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kAdaptSteps[] = "adapt_steps";
inline constexpr char kAgentsMax[] = "agents_max";
inline constexpr char kAgentsMin[] = "agents_min";
inline constexpr char kBackgroundMax[] = "background_max";
inline constexpr char kBatchScenes[] = "batch_scenes";
inline constexpr char kBetaKl[] = "beta_kl";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kHidden[] = "hidden";
inline constexpr char kHighUncertainty[] = "high_uncertainty";
inline constexpr char kLambdaEnv[] = "lambda_env";
inline constexpr char kLambdaProto[] = "lambda_proto";
inline constexpr char kLambdaSigma[] = "lambda_sigma";
inline constexpr char kLambdaSparse[] = "lambda_sparse";
inline constexpr char kLambdaVrex[] = "lambda_vrex";
inline constexpr char kLayers[] = "layers";
inline constexpr char kLearningRate[] = "learning_rate";
inline constexpr char kMissRate[] = "miss_rate";
inline constexpr char kNullControl[] = "null_control";
inline constexpr char kOodSpeedShift[] = "ood_speed_shift";
inline constexpr char kPositionNoise[] = "position_noise";
inline constexpr char kPriorMu[] = "prior_mu";
inline constexpr char kRhoA[] = "rho_a";
inline constexpr char kRhoB[] = "rho_b";
inline constexpr char kRhoOod[] = "rho_ood";
inline constexpr char kSamples[] = "samples";
inline constexpr char kSensorNoise[] = "sensor_noise";
inline constexpr char kShownScene[] = "shown_scene";
inline constexpr char kSpuriousStrength[] = "spurious_strength";
inline constexpr char kTargetScenes[] = "target_scenes";
inline constexpr char kTauEnd[] = "tau_end";
inline constexpr char kTestScenes[] = "test_scenes";
inline constexpr char kTrainScenes[] = "train_scenes";
inline constexpr char kVelocityNoise[] = "velocity_noise";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kContextEdgeMassBaseline[] = "context_edge_mass_baseline";
inline constexpr char kContextEdgeMassCurve[] = "context_edge_mass_curve";
inline constexpr char kHighUncertainty[] = "high_uncertainty";
inline constexpr char kIdAccuracyBaseline[] = "id_accuracy_baseline";
inline constexpr char kIdAccuracyCurve[] = "id_accuracy_curve";
inline constexpr char kNullOodAccuracyBaseline[] = "null_ood_accuracy_baseline";
inline constexpr char kNullOodAccuracyCurve[] = "null_ood_accuracy_curve";
inline constexpr char kOodAccuracyBaseline[] = "ood_accuracy_baseline";
inline constexpr char kOodAccuracyCurve[] = "ood_accuracy_curve";
inline constexpr char kOodPlainAccuracyBaseline[] = "ood_plain_accuracy_baseline";
inline constexpr char kOodPlainAccuracyCurve[] = "ood_plain_accuracy_curve";
inline constexpr char kOodScenes[] = "ood_scenes";
inline constexpr char kShownScene[] = "shown_scene";
inline constexpr char kTrainScenes[] = "train_scenes";
inline constexpr char kTrainingEnvironments[] = "training_environments";
inline constexpr char kUncertaintyInvariant[] = "uncertainty_invariant";
inline constexpr char kUncertaintySpurious[] = "uncertainty_spurious";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAdaptationBaseline[] = "adaptation_baseline";
inline constexpr char kAdaptationCurve[] = "adaptation_curve";
inline constexpr char kEpochIdAccuracyBaseline[] = "epoch_id_accuracy_baseline";
inline constexpr char kEpochIdAccuracyCurve[] = "epoch_id_accuracy_curve";
inline constexpr char kEpochOodAccuracyBaseline[] = "epoch_ood_accuracy_baseline";
inline constexpr char kEpochOodAccuracyCurve[] = "epoch_ood_accuracy_curve";
inline constexpr char kRiskCoverageBaseline[] = "risk_coverage_baseline";
inline constexpr char kRiskCoverageCurve[] = "risk_coverage_curve";
inline constexpr char kTrainCeCurve[] = "train_ce_curve";
inline constexpr char kTrainLossBaseline[] = "train_loss_baseline";
inline constexpr char kTrainLossCurve[] = "train_loss_curve";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kEdgeActivation[] = "edge_activation";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kBoxUncertaintyInvariant[] = "box_uncertainty_invariant";
inline constexpr char kBoxUncertaintySpurious[] = "box_uncertainty_spurious";
} // namespace vector

/// ResultDocument::graphs keys.
namespace graph {
/// Prefix of a family of keys: "scene_" followed by a name or index.
inline constexpr char kScenePrefix[] = "scene_";
} // namespace graph

/// Attribute keys of graph nodes and edges (GraphNode::attrs, GraphEdge::attrs).
namespace attr {
inline constexpr char kConfidenceBaseline[] = "confidence_baseline";
inline constexpr char kConfidenceCurve[] = "confidence_curve";
inline constexpr char kGateBaseline[] = "gate_baseline";
inline constexpr char kGateCurve[] = "gate_curve";
inline constexpr char kGateSd[] = "gate_sd";
inline constexpr char kKind[] = "kind";
inline constexpr char kPNone[] = "p_none";
inline constexpr char kRain[] = "rain";
inline constexpr char kRelationBaseline[] = "relation_baseline";
inline constexpr char kRelationCurve[] = "relation_curve";
inline constexpr char kRelationTrue[] = "relation_true";
inline constexpr char kSigma[] = "sigma";
inline constexpr char kType[] = "type";
inline constexpr char kVx[] = "vx";
inline constexpr char kVy[] = "vy";
inline constexpr char kX[] = "x";
inline constexpr char kY[] = "y";
} // namespace attr

/// Claim::id values.
namespace claim {
inline constexpr char kC1OodBeatsBaseline[] = "c1-ood-beats-baseline";
inline constexpr char kC2UncertaintySpuriousHigher[] = "c2-uncertainty-spurious-higher";
inline constexpr char kC3NoSpuriousNoGap[] = "c3-no-spurious-no-gap";
} // namespace claim

} // namespace pl::curve::keys
