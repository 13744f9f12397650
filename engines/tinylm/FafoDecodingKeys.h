#pragma once
/// Every parameter key and result key of the fafo-decoding panel (FafoDecodingEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.

namespace pl::tinylm::fafo::keys {

namespace param {
inline constexpr char kPrompts[] = "prompts";
inline constexpr char kVocab[] = "vocab";
inline constexpr char kCopyMin[] = "copy_min";
inline constexpr char kCopyMax[] = "copy_max";
inline constexpr char kMarkov[] = "markov";
inline constexpr char kGenLen[] = "gen_len";
inline constexpr char kWindow[] = "window";
inline constexpr char kNgram[] = "ngram";
inline constexpr char kPool[] = "pool";
inline constexpr char kCompressor[] = "compressor";
inline constexpr char kBudget[] = "budget";
inline constexpr char kSink[] = "sink";
inline constexpr char kPage[] = "page";
inline constexpr char kGammaSelf[] = "gamma_self";
inline constexpr char kDraftLayers[] = "draft_layers";
inline constexpr char kKvCost[] = "kv_cost";
inline constexpr char kSweep[] = "sweep";
inline constexpr char kSweepPrompts[] = "sweep_prompts";
} // namespace param

/// Per-mode suffixes.
inline constexpr const char* kModes[] = {"ar", "lookahead", "fafo", "lossy", "selfspec"};
/// The compressors of the budget sweep.
inline constexpr const char* kCompressors[] = {"streaming", "quest", "h2o"};

namespace label {
inline constexpr char kTokensPrefix[] = "tokens_";   ///< + mode; gen_len per prompt, file order
inline constexpr char kSourceFafo[] = "source_fafo"; ///< per FAFO token: 0 model, 1 verified n-gram
inline constexpr char kAcceptPrefix[] = "accept_";   ///< + lookahead | fafo | selfspec: tokens per step
} // namespace label

namespace metric {
inline constexpr char kTokensPerForwardPrefix[] = "tokens_per_forward_"; ///< + fafo | lookahead | selfspec
inline constexpr char kLossless[] = "lossless";                          ///< 1 when every FAFO run equals AR
inline constexpr char kLossyMismatch[] = "lossy_mismatch";               ///< share of lossy-only tokens != AR
inline constexpr char kSpeedupPrefix[] = "speedup_model_";               ///< + fafo | lookahead | selfspec
inline constexpr char kFafoRuns[] = "fafo_runs";                         ///< FAFO runs compared with AR
inline constexpr char kFafoMismatchRuns[] = "fafo_mismatch_runs";
inline constexpr char kMeanCopyDistance[] = "mean_copy_distance";
inline constexpr char kSweepSpeedupLookahead[] = "sweep_speedup_lookahead"; ///< on the sweep prompts
inline constexpr char kSweepSpeedupSelfspec[] = "sweep_speedup_selfspec";
inline constexpr char kSweepTpfLookahead[] = "sweep_tokens_per_forward_lookahead";
inline constexpr char kAgreementPrefix[] = "agreement_"; ///< + mode: share of tokens equal to AR
inline constexpr char kHashPrefix[] = "hash_";           ///< + mode: FNV-1a (32 bit) of the token ids
} // namespace metric

namespace series {
inline constexpr char kSpeedupVsBudgetPrefix[] = "speedup_vs_budget_";        ///< + compressor
inline constexpr char kTpfVsBudgetPrefix[] = "tokens_per_forward_vs_budget_"; ///< + compressor
inline constexpr char kAcceptHistPrefix[] = "accept_hist_"; ///< + lookahead | fafo | selfspec
inline constexpr char kMismatchPrefix[] = "mismatch_";      ///< + lossy | fafo: cumulative vs token index
} // namespace series

namespace matrix {
inline constexpr char kStepMask[] = "step_mask"; ///< rows of one FAFO step x keys: 0 hidden, 1 read
} // namespace matrix

namespace vector {
inline constexpr char kCopyDistance[] = "copy_distance";     ///< per prompt (0 for a user file)
inline constexpr char kMaskRowKind[] = "step_mask_row_kind"; ///< 0 current, 1 verification, 2 lookahead
} // namespace vector

namespace claim {
inline constexpr char kLossless[] = "c1-fafo-lossless";
inline constexpr char kMultiToken[] = "c2-multi-token";
inline constexpr char kLossyChanges[] = "c2-lossy-only-changes-output";
inline constexpr char kSpeedup[] = "c3-modelled-speedup";
} // namespace claim

} // namespace pl::tinylm::fafo::keys
