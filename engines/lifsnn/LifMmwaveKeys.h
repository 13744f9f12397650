#pragma once
/// Every parameter key and result key of the lif-mmwave panel (LifMmwaveEngine), declared once. The
/// engine writes results under these names and the figures read them through the same constants, so
/// a renamed key is a compile error; tests/plugins/tst_panel_keys checks that every key a figure
/// reads is in the result. Plain `const char[]`: they convert to std::string wherever one is
/// expected. Names are stable: add keys, do not rename them.

namespace pl::lifsnn::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kClasses[] = "classes";
inline constexpr char kLength[] = "length";
inline constexpr char kChannels[] = "channels";
inline constexpr char kSamples[] = "samples";
inline constexpr char kBand[] = "band";
inline constexpr char kBandMode[] = "band_mode";
inline constexpr char kNoiseRatio[] = "noise_ratio";
inline constexpr char kDropRate[] = "drop_rate";
inline constexpr char kImpulseRate[] = "impulse_rate";
inline constexpr char kWelchLen[] = "welch_len";
inline constexpr char kBandQuantile[] = "band_quantile";
inline constexpr char kTestFraction[] = "test_fraction";
inline constexpr char kBetaMode[] = "beta_mode";
inline constexpr char kBeta[] = "beta";
inline constexpr char kHidden[] = "hidden";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kLr[] = "lr";
inline constexpr char kBatch[] = "batch";
inline constexpr char kSurrogateSlope[] = "surrogate_slope";
inline constexpr char kSweepBeta[] = "sweep_beta";
inline constexpr char kHighBandCheck[] = "high_band_check";
inline constexpr char kShownSample[] = "shown_sample";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kOmegaD[] = "omega_d";
inline constexpr char kBetaStar[] = "beta_star";
inline constexpr char kCutoffOmega[] = "cutoff_omega";
inline constexpr char kBetaUsed[] = "beta_used";
inline constexpr char kAccSnn[] = "acc_snn";
inline constexpr char kAccAnnMlp[] = "acc_ann_mlp";
inline constexpr char kAccAnnCnn[] = "acc_ann_cnn";
inline constexpr char kAccAnnLowpass[] = "acc_ann_lowpass";
inline constexpr char kEnergyRatio[] = "energy_ratio";
inline constexpr char kEnergySnnPj[] = "energy_snn_pj";
inline constexpr char kEnergyAnnPj[] = "energy_ann_pj";
inline constexpr char kSpikeRate[] = "spike_rate";
inline constexpr char kAccSnnHigh[] = "acc_snn_high";
inline constexpr char kAccSnnLow[] = "acc_snn_low";
inline constexpr char kAccAnnMlpLow[] = "acc_ann_mlp_low";
inline constexpr char kAccAnnMlpHigh[] = "acc_ann_mlp_high";
inline constexpr char kBetaStarHigh[] = "beta_star_high";
inline constexpr char kDroppedFrames[] = "dropped_frames";
inline constexpr char kTrainRows[] = "train_rows";
inline constexpr char kTestRows[] = "test_rows";
inline constexpr char kSamplingRate[] = "fs";
inline constexpr char kBestGridBeta[] = "best_grid_beta";
inline constexpr char kShownSample[] = "shown_sample";
inline constexpr char kClasses[] = "classes";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kLifResponse[] = "lif_response";
inline constexpr char kAccVsBeta[] = "acc_vs_beta";
inline constexpr char kTrainLossSnn[] = "train_loss_snn";
inline constexpr char kMembrane[] = "membrane";
/// "class_spectrum_<k>", k = 0 .. classes - 1: class-mean PSD over omega, scaled to the largest value.
inline constexpr char kClassSpectrumPrefix[] = "class_spectrum_";
/// Fisher ratio over omega, scaled to its largest value.
inline constexpr char kFisherCurve[] = "fisher_curve";
} // namespace series

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kWelchFreq[] = "welch_freq";
inline constexpr char kFisherRatio[] = "fisher_ratio";
inline constexpr char kDiscriminativeEnergy[] = "discriminative_energy";
} // namespace vector

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kClassPsd[] = "class_psd";  ///< classes x frequencies, channel-mean Welch PSD
inline constexpr char kRaster[] = "spike_raster"; ///< hidden neurons x time steps, one test sample
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kC1RoundTrip[] = "c1-cutoff-round-trip";
inline constexpr char kC2BestBetaNearStar[] = "c2-best-beta-near-star";
inline constexpr char kC3SnnBeatsMlpLowBand[] = "c3-snn-beats-mlp-low-band";
inline constexpr char kC4EnergyRatio[] = "c4-energy-ratio";
} // namespace claim

} // namespace pl::lifsnn::keys
