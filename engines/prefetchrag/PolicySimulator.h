#pragma once
/// The event simulator of PrefetchRAG: one written answer decoded token by token (t_tok each) under
/// a retrieval policy; retrievals take lognormal latencies (common random numbers: the j-th request
/// of every policy draws the same latency), inserted documents cost a prefill per token, and a slot
/// whose document is missing either stalls (the predictive policy waits for the prefetch of its current
/// query, the periodic ones for any pending retrieval; sync and predictive then retrieve blocking,
/// FLARE-style) or is guessed. At a slot the writer puts 0.95 on the right value
/// with its document in context, else a uniform over the domain's values (one shared uniform draw
/// per slot). Pure function of its inputs.
#include "prefetchrag/AnswerTrace.h"
#include "prefetchrag/RetrievalPredictor.h"

#include <string>
#include <vector>

namespace pl::prefetchrag {

enum class Policy { NoRag, Sync, FixedWindow, StaleQuery, Predictive, Oracle };
inline constexpr Policy kPolicies[] = {Policy::NoRag,      Policy::Sync,       Policy::FixedWindow,
                                       Policy::StaleQuery, Policy::Predictive, Policy::Oracle};
/// "norag" | "sync" | "fixed_window" | "stale_query" | "predictive" | "oracle"
std::string policyName(Policy p);

struct SimConfig {
    double tokenMs = 25, prefillMsPerToken = 0.5;
    int topk = 3, budget = 6, window = 16;
    bool stall = true;
    double thetaP = 0.5, thetaShift = 1.0;
};

/// What one question brings to every policy.
struct SimInput {
    const AnswerTrace* trace = nullptr;
    const RagWorld* world = nullptr;
    const Bm25Index* index = nullptr;
    const DomainMonitor* monitor = nullptr;
    const RetrievalPredictor* predictor = nullptr;
    std::vector<int> questionDocs; ///< BM25 top-k of the question's query
    int questionTokens = 0;        ///< prompt length (prefill)
    std::vector<double> latencies; ///< the request latencies (ms), used in order, cyclically
    std::vector<double> slotDraws; ///< one uniform per position
};

/// A span of the Gantt lane: 1 decode, 2 decode with a retrieval in flight, 3 stall, 4 prefill.
struct Span {
    double start = 0, end = 0;
    int kind = 1;
};

struct SimOutcome {
    double latencyMs = 0, ttftMs = 0, stallMs = 0;
    int slots = 0, correct = 0, requests = 0, invalidated = 0;
    std::vector<Span> spans;
    std::vector<int> fires; ///< positions where the predictor fired
    std::vector<int> leads; ///< tokens from the fire to the slot it served (predictive)
    std::vector<double> p;  ///< predictor probability per position (predictive)
};

SimOutcome simulate(Policy policy, const SimInput& in, const SimConfig& c);

} // namespace pl::prefetchrag
