#pragma once
/// Every parameter key and result key of the prefetch-rag panel (PrefetchRagEngine), declared once;
/// the engine writes under these names and the figures read through the same constants.

namespace pl::prefetchrag::keys {

namespace param {
inline constexpr char kDomains[] = "domains";
inline constexpr char kEntities[] = "entities";
inline constexpr char kAttributes[] = "attributes";
inline constexpr char kQuestions[] = "questions";
inline constexpr char kLatencyMs[] = "latency_ms";
inline constexpr char kLatencySigma[] = "latency_sigma";
inline constexpr char kTokenMs[] = "token_ms";
inline constexpr char kTopicShift[] = "topic_shift";
inline constexpr char kDistractors[] = "distractors";
inline constexpr char kThetaP[] = "theta_p";
inline constexpr char kHorizonA[] = "horizon_a";
inline constexpr char kHorizonB[] = "horizon_b";
inline constexpr char kTopK[] = "topk";
inline constexpr char kSentences[] = "sentences";
inline constexpr char kBudget[] = "budget";
inline constexpr char kWindow[] = "window";
inline constexpr char kPrefillMs[] = "prefill_ms";
inline constexpr char kOnMiss[] = "on_miss";
inline constexpr char kThetaShift[] = "theta_shift";
inline constexpr char kTrainAnswers[] = "train_answers";
inline constexpr char kLmEpochs[] = "lm_epochs";
} // namespace param

/// Policy names, in the order of the lanes and bars (suffixes of the per-policy keys).
inline constexpr const char* kPolicyNames[] = {"norag",       "sync",       "fixed_window",
                                               "stale_query", "predictive", "oracle"};

namespace label {
inline constexpr char kTopkDoc[] = "topk_doc"; ///< questions x topk, 0-based corpus order
inline constexpr char kSlotPositions[] = "slot_positions_q0";
} // namespace label

namespace matrix {
inline constexpr char kTopkScore[] = "topk_score"; ///< questions x topk BM25 scores
inline constexpr char kGantt[] = "gantt";          ///< policies x time bins, first question
} // namespace matrix

namespace metric {
inline constexpr char kRecallAtK[] = "recall_at_k";
inline constexpr char kLatencyMeanPrefix[] = "latency_mean_";          ///< + policy (ms)
inline constexpr char kTtftMeanPrefix[] = "ttft_mean_";                ///< + policy (ms)
inline constexpr char kSlotAccuracyPrefix[] = "slot_accuracy_";        ///< + policy (share)
inline constexpr char kStallMeanPrefix[] = "stall_mean_";              ///< + policy (ms)
inline constexpr char kRequestsPrefix[] = "requests_mean_";            ///< + policy
inline constexpr char kShiftAccuracyPrefix[] = "shift_slot_accuracy_"; ///< + sync|fixed_window|predictive
inline constexpr char kTriggerPrecision[] = "trigger_precision";
inline constexpr char kTriggerRecall[] = "trigger_recall";
inline constexpr char kLeadMean[] = "lead_mean_tokens";
inline constexpr char kInvalidated[] = "invalidated_mean";
inline constexpr char kLatencyCut[] = "latency_cut_vs_sync";
inline constexpr char kTtftCut[] = "ttft_cut_vs_sync";
inline constexpr char kLmLoss[] = "lm_loss";
inline constexpr char kPredictorLoss[] = "predictor_loss";
inline constexpr char kEmptySkipped[] = "empty_documents_skipped";
inline constexpr char kDocuments[] = "documents";
inline constexpr char kGanttBinMs[] = "gantt_bin_ms";
inline constexpr char kShiftTopic[] = "shift_topic_shift";
} // namespace metric

namespace series {
inline constexpr char kEntropy[] = "entropy_q0";        ///< mlp_lm next-token entropy vs position
inline constexpr char kPredictorP[] = "predictor_p_q0"; ///< p_t of the predictive run vs position
inline constexpr char kLeadHist[] = "lead_hist";        ///< count vs lead (tokens)
inline constexpr char kPrecisionVsHorizon[] = "trigger_precision_vs_horizon";
inline constexpr char kRecallVsHorizon[] = "trigger_recall_vs_horizon";
} // namespace series

namespace vector {
inline constexpr char kLatencyPrefix[] = "latency_"; ///< + policy: per question (ms)
inline constexpr char kTtftPrefix[] = "ttft_";       ///< + policy: per question (ms)
inline constexpr char kFiresQ0[] = "fires_q0";       ///< positions where the predictor fired
inline constexpr char kEventsQ0[] = "events_q0";     ///< slots whose document was not in the question context
} // namespace vector

namespace claim {
inline constexpr char kLatency[] = "c1-latency-cut";
inline constexpr char kTtft[] = "c2-ttft-cut";
inline constexpr char kAccuracy[] = "c3-accuracy-kept";
inline constexpr char kShiftFixed[] = "c4-fixed-window-loses-under-shift";
inline constexpr char kShiftPredictive[] = "c5-predictive-keeps-under-shift";
} // namespace claim

} // namespace pl::prefetchrag::keys
