#pragma once
/// Every parameter key and result key of the fedgr-noisy-labels panel (FedGrEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.
/// Method suffixes <m>: fedavg, fedprox, local_sieve, centralised, fedgr, fedgr_no_sieve,
/// fedgr_no_ema, fedgr_no_rep.

namespace pl::robusttrain::fedgr::keys {

/// Parameter keys.
namespace param {
inline constexpr char kDataset[] = "dataset"; ///< blobs | spirals | glyphs
inline constexpr char kClients[] = "clients";
inline constexpr char kSamplesPerClient[] = "samples_per_client";
inline constexpr char kTestSamples[] = "test_samples";
inline constexpr char kClasses[] = "classes";       ///< blobs
inline constexpr char kDim[] = "dim";               ///< blobs
inline constexpr char kSeparation[] = "separation"; ///< blobs: radius of the class means
inline constexpr char kDirichletAlpha[] = "dirichlet_alpha";
inline constexpr char kNoiseType[] = "noise_type"; ///< symmetric | pair_flip | mixed
inline constexpr char kNoiseMin[] = "noise_min";
inline constexpr char kNoiseMax[] = "noise_max";
inline constexpr char kWidth[] = "width";
inline constexpr char kRounds[] = "rounds";
inline constexpr char kLocalEpochs[] = "local_epochs";
inline constexpr char kLr[] = "lr";
inline constexpr char kWarmupRounds[] = "warmup_rounds";
inline constexpr char kSieveStats[] = "sieve_stats"; ///< histogram | losses
inline constexpr char kHistogramBins[] = "histogram_bins";
inline constexpr char kRelabelConfidence[] = "relabel_confidence"; ///< tau_conf
inline constexpr char kEmaMomentum[] = "ema_momentum";             ///< m
inline constexpr char kReviseBeta[] = "revise_beta";               ///< beta
inline constexpr char kKdWeight[] = "kd_weight";                   ///< alpha
inline constexpr char kKdTemperature[] = "kd_temperature";         ///< T
inline constexpr char kRepWeight[] = "rep_weight";                 ///< mu
inline constexpr char kProxMu[] = "prox_mu";                       ///< FedProx
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kTestAccPrefix[] = "test_acc_"; ///< + m: test accuracy after the last round
inline constexpr char kGmmWeightClean[] = "gmm_weight_clean";
inline constexpr char kGmmMeanClean[] = "gmm_mean_clean";
inline constexpr char kGmmVarClean[] = "gmm_var_clean";
inline constexpr char kGmmMeanNoisy[] = "gmm_mean_noisy";
inline constexpr char kGmmVarNoisy[] = "gmm_var_noisy";
inline constexpr char kNoiseCorr[] = "noise_corr"; ///< Pearson(noise_estimate, true_noise)
inline constexpr char kMeanTrueNoise[] = "mean_true_noise";
inline constexpr char kSievePrecision[] = "sieve_precision_all"; ///< pooled over clients
inline constexpr char kSieveRecall[] = "sieve_recall_all";
inline constexpr char kMemorisationRound[] = "memorisation_round"; ///< first round centralised > 50 %
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kTestAccPrefix[] = "test_acc_";                          ///< + m, x = round
inline constexpr char kMemorisationGlobal[] = "memorisation_global";           ///< FedAvg's global model
inline constexpr char kMemorisationCentralised[] = "memorisation_centralised"; ///< pooled training
inline constexpr char kMemorisationFedGr[] = "memorisation_fedgr";             ///< FedGR's global model
inline constexpr char kLossHistogram[] = "loss_histogram"; ///< last sieve, density of sieve_loss
inline constexpr char kGmmPdf[] = "gmm_pdf";               ///< the fitted mixture's density
inline constexpr char kGmmPdfClean[] = "gmm_pdf_clean";    ///< weight x density of the clean component
inline constexpr char kGmmPdfNoisy[] = "gmm_pdf_noisy";
} // namespace series

/// ResultDocument::vectors keys (per client, ascending client_id, unless stated).
namespace vector {
inline constexpr char kTrueNoise[] = "true_noise";
inline constexpr char kNoiseEstimate[] = "noise_estimate";
inline constexpr char kSievePrecision[] = "sieve_precision";
inline constexpr char kSieveRecall[] = "sieve_recall";
inline constexpr char kClientSize[] = "client_size";
inline constexpr char kClientId[] = "client_id";
inline constexpr char kSieveLoss[] = "sieve_loss"; ///< per training row, file order
inline constexpr char kPClean[] = "p_clean";       ///< per training row, file order
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kClient[] = "client"; ///< per training row: index into the per-client vectors
} // namespace label

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kClientClassCounts[] = "client_class_counts"; ///< clients x classes, observed labels
inline constexpr char kNoiseTransition[] = "noise_transition";      ///< clean x observed, rows sum to 1
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kMemorisationGap[] = "global-memorises-slower";
inline constexpr char kFedGrVsFedAvg[] = "fedgr-beats-fedavg";
inline constexpr char kAblationsLower[] = "ablations-lower";
inline constexpr char kNoiseCorrelation[] = "noise-estimate-correlation";
} // namespace claim

} // namespace pl::robusttrain::fedgr::keys
