#pragma once
/// Every parameter key and result key of the promise-protein-states panel (ProteinEngine), declared once. The
/// engine writes results under these names and the panel's figures read them back through the same constants,
/// so a renamed key is a compile error rather than an empty figure. Plain `const char[]` so that they convert
/// to std::string (ResultDocument maps, ParamSet lookups) wherever one is expected. Names are stable: add
/// keys, do not rename them.

namespace pl::protein::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kAnmCutoff[] = "anm_cutoff";
inline constexpr char kAnmModes[] = "anm_modes";
inline constexpr char kClusterMethod[] = "cluster_method";
inline constexpr char kColorBy[] = "color_by";
inline constexpr char kContextResponse[] = "context_response";
inline constexpr char kHelicesPerDomain[] = "helices_per_domain";
inline constexpr char kHingeAngle[] = "hinge_angle";
inline constexpr char kHingeLength[] = "hinge_length";
inline constexpr char kMargin[] = "margin";
inline constexpr char kMaxModelsShown[] = "max_models_shown";
inline constexpr char kMaxStates[] = "max_states";
inline constexpr char kMinSilhouette[] = "min_silhouette";
inline constexpr char kRMax[] = "r_max";
inline constexpr char kResiduesPerDomain[] = "residues_per_domain";
inline constexpr char kRmsf[] = "rmsf";
inline constexpr char kSamples[] = "samples";
inline constexpr char kStyle[] = "style";
inline constexpr char kTDec[] = "t_dec";
inline constexpr char kWDom[] = "w_dom";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kAnmCumulativeOverlap5[] = "anm_cumulative_overlap5";
inline constexpr char kAri[] = "ari";
inline constexpr char kCommonResidues[] = "common_residues";
inline constexpr char kContextDelta[] = "context_delta";
inline constexpr char kContextDeltaC0[] = "context_delta_c0";
inline constexpr char kD0[] = "d0";
inline constexpr char kDomain1Fraction[] = "domain1_fraction";
inline constexpr char kDroppedResidues[] = "dropped_residues";
inline constexpr char kGdtTs[] = "gdt_ts";
inline constexpr char kHingeAngleApplied[] = "hinge_angle_applied";
inline constexpr char kLengthMobile[] = "length_mobile";
inline constexpr char kLengthReference[] = "length_reference";
inline constexpr char kModels[] = "models";
inline constexpr char kNStates[] = "n_states";
inline constexpr char kOccupancyBBiasedT1[] = "occupancy_b_biased_t1";
inline constexpr char kOccupancyBBiasedT3[] = "occupancy_b_biased_t3";
inline constexpr char kPc1Explained[] = "pc1_explained";
inline constexpr char kPc2Explained[] = "pc2_explained";
inline constexpr char kResidues[] = "residues";
inline constexpr char kRmsdAb[] = "rmsd_ab";
inline constexpr char kRmsdCommon[] = "rmsd_common";
inline constexpr char kRmsdMax[] = "rmsd_max";
inline constexpr char kRmsdMean[] = "rmsd_mean";
inline constexpr char kSilhouette[] = "silhouette";
inline constexpr char kTmAb[] = "tm_ab";
inline constexpr char kTmScore[] = "tm_score";
/// Prefix of a family of keys: "best_tm_a_" followed by a name or index.
inline constexpr char kBestTmAPrefix[] = "best_tm_a_";
/// Prefix of a family of keys: "best_tm_b_" followed by a name or index.
inline constexpr char kBestTmBPrefix[] = "best_tm_b_";
/// Prefix of a family of keys: "coverage_" followed by a name or index.
inline constexpr char kCoveragePrefix[] = "coverage_";
/// Prefix of a family of keys: "dominant_bias_" followed by a name or index.
inline constexpr char kDominantBiasPrefix[] = "dominant_bias_";
/// Prefix of a family of keys: "occupancy_a_" followed by a name or index.
inline constexpr char kOccupancyAPrefix[] = "occupancy_a_";
/// Prefix of a family of keys: "occupancy_b_" followed by a name or index.
inline constexpr char kOccupancyBPrefix[] = "occupancy_b_";
/// Prefix of a family of keys: "unassigned_" followed by a name or index.
inline constexpr char kUnassignedPrefix[] = "unassigned_";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAnmOverlap[] = "anm_overlap";
inline constexpr char kAriVsTheta[] = "ari_vs_theta";
inline constexpr char kDeviation[] = "deviation";
inline constexpr char kOccupancyStateA[] = "occupancy_state_a";
inline constexpr char kOccupancyStateB[] = "occupancy_state_b";
inline constexpr char kOccupancyUnassigned[] = "occupancy_unassigned";
inline constexpr char kSilhouetteVsK[] = "silhouette_vs_k";
inline constexpr char kSuccessAnalyticBiased[] = "success_analytic_biased";
inline constexpr char kSuccessAnalyticUnbiased[] = "success_analytic_unbiased";
inline constexpr char kSuccessBiased[] = "success_biased";
inline constexpr char kSuccessUnbiased[] = "success_unbiased";
inline constexpr char kTwostateBiased[] = "twostate_biased";
inline constexpr char kTwostateBiasedContext[] = "twostate_biased_context";
inline constexpr char kTwostateUnbiased[] = "twostate_unbiased";
/// Prefix of a family of keys: "success_" followed by a name or index.
inline constexpr char kSuccessPrefix[] = "success_";
/// Prefix of a family of keys: "success_analytic_" followed by a name or index.
inline constexpr char kSuccessAnalyticPrefix[] = "success_analytic_";
/// Prefix of a family of keys: "twostate_" followed by a name or index.
inline constexpr char kTwostatePrefix[] = "twostate_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kDisplayCoords[] = "display_coords";
inline constexpr char kPerResidue[] = "per_residue";
inline constexpr char kRmsd[] = "rmsd";
inline constexpr char kSamplerNames[] = "sampler_names";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kDomain[] = "domain";
inline constexpr char kOrder[] = "order";
inline constexpr char kPc1[] = "pc1";
inline constexpr char kPc2[] = "pc2";
inline constexpr char kRmsdPerModel[] = "rmsd_per_model";
inline constexpr char kStateOccupancy[] = "state_occupancy";
inline constexpr char kTmPerModel[] = "tm_per_model";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kDisplayModel[] = "display_model";
inline constexpr char kDisplayState[] = "display_state";
inline constexpr char kState[] = "state";
inline constexpr char kTrueState[] = "true_state";
} // namespace label

/// Claim::id values.
namespace claim {
inline constexpr char kAnmOverlapHinge[] = "anm-overlap-hinge";
inline constexpr char kAriDecaysAsThetaVanishes[] = "ari-decays-as-theta-vanishes";
inline constexpr char kBiasedSamplerMissesAlternative[] = "biased-sampler-misses-alternative";
inline constexpr char kClusteringRecoversStates[] = "clustering-recovers-states";
inline constexpr char kContextInsensitiveAtC0[] = "context-insensitive-at-c0";
inline constexpr char kDecodingTemperatureRaisesCoverage[] = "decoding-temperature-raises-coverage";
} // namespace claim

} // namespace pl::protein::keys
