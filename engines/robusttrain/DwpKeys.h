#pragma once
/// Every parameter key and result key of the dwp-cim-robustness panel (DwpEngine), declared once;
/// the engine writes under these names and the figures read through the same constants. Method
/// suffixes <m>: standard, noise_injection, r_average, dwp, or user (a user's MLP from files).

namespace pl::robusttrain::dwp::keys {

/// Parameter keys.
namespace param {
inline constexpr char kDataset[] = "dataset"; ///< blobs | spirals | glyphs
inline constexpr char kTrainSamples[] = "train_samples";
inline constexpr char kTestSamples[] = "test_samples";
inline constexpr char kClasses[] = "classes";       ///< blobs
inline constexpr char kDim[] = "dim";               ///< blobs
inline constexpr char kSeparation[] = "separation"; ///< blobs: radius of the class means
inline constexpr char kWidth[] = "width";
inline constexpr char kLayers[] = "layers";         ///< weight matrices (2..4)
inline constexpr char kActivation[] = "activation"; ///< relu | tanh
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kLr[] = "lr";
inline constexpr char kRealisations[] = "realisations"; ///< R
inline constexpr char kSigmaTrain[] = "sigma_train";
inline constexpr char kTrainNoise[] = "train_noise"; ///< multiplicative | additive | mixed
inline constexpr char kCurriculum[] = "curriculum";
inline constexpr char kTemperature[] = "temperature"; ///< T_a
inline constexpr char kAffinity[] = "affinity";       ///< disagreement | agreement
inline constexpr char kEvalNoise[] = "eval_noise";    ///< multiplicative | additive
inline constexpr char kEvalDraws[] = "eval_draws";
inline constexpr char kDriftCompensation[] = "drift_compensation"; ///< on | off
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kAccCleanPrefix[] = "acc_clean_";     ///< + m: accuracy with clean weights
inline constexpr char kAccAtClaimPrefix[] = "acc_sigma06_"; ///< + m: mean accuracy at sigma = 0.6
inline constexpr char kDriftRangePrefix[] = "drift_range_"; ///< + m: max - min of acc_vs_time
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAccVsSigmaPrefix[] = "acc_vs_sigma_";          ///< + m: mean over draws
inline constexpr char kAccSdVsSigmaPrefix[] = "acc_sd_vs_sigma_";     ///< + m: sd over draws
inline constexpr char kAccVsTimePrefix[] = "acc_vs_time_";            ///< + m: PCM, drift_compensation as set
inline constexpr char kAccVsTimeOtherPrefix[] = "acc_vs_time_other_"; ///< + m: PCM, the other setting
inline constexpr char kTrainLossPrefix[] = "train_loss_";             ///< + m (trained methods)
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kDisagreement[] = "disagreement_histogram"; ///< epochs x R bins (DWP run)
inline constexpr char kDecisionsPrefix[] =
    "decisions_"; ///< + standard | dwp | user: truth + 8 draws x 40 rows
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kDwpVsStandard[] = "dwp-beats-standard-at-0.6";
inline constexpr char kDriftRange[] = "dwp-drift-range-one-year";
inline constexpr char kDwpVsInjection[] = "dwp-vs-noise-injection";
inline constexpr char kDwpVsRAverage[] = "dwp-vs-r-average";
} // namespace claim

} // namespace pl::robusttrain::dwp::keys
