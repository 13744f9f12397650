#pragma once
/// Every parameter key and result key of the specexit-decoding panel (SpecExitEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.

namespace pl::tinylm::specexit::keys {

namespace param {
inline constexpr char kNumbers[] = "numbers";
inline constexpr char kModulus[] = "modulus";
inline constexpr char kPOver[] = "p_over";
inline constexpr char kCorrupt[] = "corrupt";
inline constexpr char kTraces[] = "traces";
inline constexpr char kTargetHidden[] = "target_hidden";
inline constexpr char kDraftHidden[] = "draft_hidden";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kDraftEpochs[] = "draft_epochs";
inline constexpr char kProblems[] = "problems";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kTemperature[] = "temperature";
inline constexpr char kExit[] = "exit";
inline constexpr char kThetaExit[] = "theta_exit";
inline constexpr char kEwma[] = "ewma";
inline constexpr char kKappa[] = "kappa";
inline constexpr char kCostDraft[] = "cost_draft";
inline constexpr char kGenLen[] = "gen_len";
inline constexpr char kSampleRuns[] = "sample_runs";
inline constexpr char kSampleTokens[] = "sample_tokens";
inline constexpr char kSweep[] = "sweep";
inline constexpr char kDistillSamples[] = "distill_samples";
} // namespace param

/// Per-method suffixes of the metrics, in the order of the per-method bars.
inline constexpr const char* kMethods[] = {"ar", "sd", "probe", "sdprobe", "specexit"};

namespace label {
inline constexpr char kTokensGreedyAr[] = "tokens_greedy_ar"; ///< gen_len per prompt, exit off
inline constexpr char kTokensGreedySd[] = "tokens_greedy_sd";
inline constexpr char kArSamples[] = "ar_samples"; ///< sample_tokens of sample_runs runs, run-major
inline constexpr char kSdSamples[] = "sd_samples";
inline constexpr char kStreamTokens[] = "stream_tokens";     ///< SpecExit on the first problem
inline constexpr char kStreamSource[] = "stream_source";     ///< 0 target, 1 accepted draft, 2 exit
inline constexpr char kStreamRejected[] = "stream_rejected"; ///< drafts rejected before the token
inline constexpr char kAcceptLens[] = "accept_lens_sd";      ///< drafts accepted per verification
} // namespace label

namespace metric {
inline constexpr char kMeanLengthPrefix[] = "mean_length_"; ///< + method (tokens generated)
inline constexpr char kAccuracyPrefix[] = "accuracy_";      ///< + method (share correct)
inline constexpr char kLatencyPrefix[] = "latency_model_";  ///< + method (target-call units)
inline constexpr char kLengthReductionVsSd[] = "length_reduction_vs_sd";
inline constexpr char kAccuracyDropVsSd[] = "accuracy_drop_vs_sd"; ///< SD - SpecExit (share)
inline constexpr char kLengthReductionOracle[] = "length_reduction_oracle";
inline constexpr char kAcceptanceRate[] = "acceptance_rate";
inline constexpr char kChi2PValue[] = "chi2_pvalue";      ///< SD samples vs the exact target law
inline constexpr char kChi2PValueAr[] = "chi2_pvalue_ar"; ///< AR samples vs the same law
inline constexpr char kChi2Cells[] = "chi2_cells";
inline constexpr char kGreedyIdentical[] = "greedy_identical"; ///< 1 when greedy SD == AR everywhere
inline constexpr char kProbeLatencyAtReduction[] = "probe_latency_at_reduction";
inline constexpr char kSpeedupSpecExitVsAr[] = "speedup_model_specexit_vs_ar";
inline constexpr char kTargetLoss[] = "target_loss";
inline constexpr char kDraftLoss[] = "draft_loss";
inline constexpr char kStreamExitAt[] = "stream_exit_at";
inline constexpr char kStreamDetermined[] = "stream_determined_at"; ///< generated index of the last S step
} // namespace metric

namespace series {
inline constexpr char kConf[] = "signal_conf"; ///< vs generated position, first problem (SD greedy)
inline constexpr char kProg[] = "signal_prog";
inline constexpr char kRem[] = "signal_rem";
inline constexpr char kEwma[] = "signal_ewma";
inline constexpr char kAcceptHist[] = "accept_hist_sd";
inline constexpr char kParetoPrefix[] = "pareto_"; ///< + specexit | sdprobe | probe: accuracy vs reduction
inline constexpr char kLatencyPrefix[] = "latency_vs_reduction_"; ///< + specexit | sdprobe | probe
} // namespace series

namespace vector {
inline constexpr char kBoundaries[] = "signal_boundaries"; ///< generated positions of boundaries
inline constexpr char kSweepTheta[] = "sweep_theta";
} // namespace vector

namespace claim {
inline constexpr char kLaw[] = "c1-sd-law-equals-target";
inline constexpr char kGreedy[] = "c1-greedy-sd-equals-ar";
inline constexpr char kShorter[] = "c2-specexit-shorter";
inline constexpr char kLatency[] = "c3-latency-below-probe";
inline constexpr char kSpeedup[] = "c4-modelled-speedup";
} // namespace claim

} // namespace pl::tinylm::specexit::keys
