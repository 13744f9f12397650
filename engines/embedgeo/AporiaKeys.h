#pragma once
/// Every parameter and result key of the aporia-hallucination panel (AporiaEngine), declared once.
/// Per-method keys are "<prefix><method>", method ∈ aporia_lp, knn_labels, logreg_labels, lp_raw,
/// densest_cluster.

#include <string>

namespace pl::embedgeo::aporia::keys {

/// Method names, in the panel's order.
inline constexpr const char* kMethods[] = {"aporia_lp", "knn_labels", "logreg_labels", "lp_raw",
                                           "densest_cluster"};

/// "<prefix><method>".
inline std::string key(const char* prefix, const char* method) {
    return std::string(prefix) + method;
}

namespace param {
inline constexpr char kMethod[] = "method";
inline constexpr char kNLabels[] = "n_labels";
inline constexpr char kKnn[] = "knn";
inline constexpr char kLpAlpha[] = "lp_alpha";
inline constexpr char kPcaDim[] = "pca_dim";
inline constexpr char kPrompts[] = "prompts";
inline constexpr char kResponses[] = "responses";
inline constexpr char kAsymmetry[] = "asymmetry";
inline constexpr char kEmbedding[] = "embedding";
} // namespace param

namespace metric {
inline constexpr char kF1[] = "f1";        ///< APORIA-LP, hallucinated class, mean over label draws
inline constexpr char kF1Prefix[] = "f1_"; ///< + baseline method
inline constexpr char kNoInformationF1[] = "f1_no_information"; ///< 2π/(1+π): "all hallucinated"
inline constexpr char kResponses[] = "responses";
inline constexpr char kPrompts[] = "prompts";
inline constexpr char kSeeds[] = "seeds";
inline constexpr char kHallucinationRate[] = "hallucination_rate";
inline constexpr char kEvaluationMode[] = "evaluation_mode"; ///< 1: every line labelled
inline constexpr char kLpIterations[] = "lp_iterations";
inline constexpr char kShownPrompt[] = "shown_prompt";
} // namespace metric

namespace label {
inline constexpr char kPredicted[] = "predicted"; ///< N, 1 = hallucinated (the `method`)
inline constexpr char kTruth[] = "truth";         ///< N, 1 / 0 / -1 unlabelled
inline constexpr char kSeed[] = "seed";           ///< N, 1 = annotated seed of the first draw
} // namespace label

namespace vector {
inline constexpr char kFisherScore[] = "fisher_score";
inline constexpr char kCentroidDistance[] = "centroid_distance";
inline constexpr char kMeanCosine[] = "mean_cosine";
inline constexpr char kDispersion[] = "dispersion"; ///< per response: its prompt's covariance trace
} // namespace vector

namespace series {
inline constexpr char kF1VsLabelsPrefix[] = "f1_vs_labels_"; ///< + method
inline constexpr char kF1VsAsymmetry[] = "f1_vs_asymmetry";  ///< stand-in only
inline constexpr char kFisherHistGenuine[] = "fisher_hist_genuine";
inline constexpr char kFisherHistHallucinated[] = "fisher_hist_hallucinated";
inline constexpr char kSpreadGenuine[] = "centroid_distance_quantiles_genuine";
inline constexpr char kSpreadHallucinated[] = "centroid_distance_quantiles_hallucinated";
inline constexpr char kLpChange[] = "lp_change";
} // namespace series

namespace matrix {
inline constexpr char kPromptPca[] = "prompt_pca"; ///< responses of the shown prompt x (pc1, pc2, truth)
} // namespace matrix

namespace graph {
inline constexpr char kLpSubgraph[] = "lp_subgraph"; ///< attrs: truth, seed, f_it<k> (k = 0, 1, 2, 5, final)
} // namespace graph

namespace claim {
inline constexpr char kF1At40[] = "aporia-lp-f1-at-40-labels";
inline constexpr char kDoseResponse[] = "f1-falls-to-no-information-as-asymmetry-to-0";
} // namespace claim

} // namespace pl::embedgeo::aporia::keys
