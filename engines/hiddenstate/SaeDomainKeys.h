#pragma once
/// Every parameter key and result key of the sae-domain-ood panel (SaeDomainEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.

namespace pl::hiddenstate::sae::keys {

/// Parameter keys.
namespace param {
inline constexpr char kK[] = "k";
inline constexpr char kAlpha[] = "alpha";
inline constexpr char kInDomain[] = "in_domain"; ///< empty = domain of the first train row
inline constexpr char kBackend[] = "backend";    ///< markov | gru: which detector fills vectors.score
inline constexpr char kDomains[] = "domains";    ///< stand-in
inline constexpr char kVocab[] = "vocab";        ///< stand-in
inline constexpr char kTexts[] = "texts";        ///< stand-in, per domain
inline constexpr char kLayers[] = "layers";      ///< stand-in
inline constexpr char kSaeWidth[] = "sae_width"; ///< multiple of d (stand-in SAEs)
inline constexpr char kPooling[] = "pooling";    ///< mean | last (stand-in)
inline constexpr char kLmSteps[] = "lm_steps";   ///< stand-in
inline constexpr char kSaeSteps[] = "sae_steps"; ///< trained SAEs
} // namespace param

/// ResultDocument::metrics keys (test split, in-domain = positive).
namespace metric {
inline constexpr char kAurocMarkov[] = "auroc_markov";
inline constexpr char kAurocNaiveBayes[] = "auroc_naive_bayes";  ///< best single layer
inline constexpr char kAurocMahalanobis[] = "auroc_mahalanobis"; ///< best single layer
inline constexpr char kAurocKnn[] = "auroc_knn";                 ///< best single layer, 5-NN
inline constexpr char kAurocGru[] = "auroc_gru";
inline constexpr char kFpr95Markov[] = "fpr95_markov";
inline constexpr char kAurocFarOod[] = "auroc_far_ood"; ///< stand-in: in-domain vs token salad
inline constexpr char kInDomainTrain[] = "in_domain_train";
inline constexpr char kTestRows[] = "test_rows";
} // namespace metric

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kScore[] = "score"; ///< N, input order, the chosen backend
inline constexpr char kFvu[] = "fvu";     ///< per layer
inline constexpr char kDead[] = "dead_fraction";
inline constexpr char kAurocMethods[] = "auroc_methods"; ///< markov, gru, naive Bayes, Mahalanobis, kNN
} // namespace vector

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAurocVsK[] = "auroc_vs_k";
inline constexpr char kLmLoss[] = "lm_loss";
inline constexpr char kDensityIdPrefix[] = "density_in_domain_"; ///< + backend
inline constexpr char kDensityOodPrefix[] = "density_ood_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kTransition[] = "transition_top"; ///< P_0(j|i) on the most used features
inline constexpr char kRasterId[] = "raster_in_domain"; ///< layer x feature weights, one ID test text
inline constexpr char kRasterOod[] = "raster_ood";      ///< the same for one OOD test text
inline constexpr char kLayerAuroc[] = "auroc_layers";   ///< layer x (naive Bayes, Mahalanobis, kNN)
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kMarkovVsBaseline[] = "c1-markov-vs-single-layer";
inline constexpr char kModerateK[] = "c2-moderate-k";
inline constexpr char kGruReport[] = "c3-markov-vs-gru-report";
} // namespace claim

} // namespace pl::hiddenstate::sae::keys
