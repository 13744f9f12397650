#pragma once
/// Engine of the prefetch-rag panel (specs-004 §1, PrefetchRAG; simulated latencies): the spec's
/// template writer over a synthetic knowledge base (or a user corpus with questions), a tinylm
/// mlp_lm trained on the writer's text whose hidden state and entropy feed a logistic retrieval
/// predictor, BM25 retrieval, a context monitor, and six retrieval policies (norag, sync,
/// fixed_window, stale_query, predictive, oracle) on common random numbers; a second pass at
/// topic_shift >= 0.6 for the stability claims. Stateless.
///
/// Stages of run(): world, index, write, lm, traces, predictor, simulate, shift, triggers, claims.
#include "core/Engine.h"

namespace pl::prefetchrag {

class PrefetchRagEngine : public Engine {
public:
    std::string id() const override { return "prefetch-rag"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"jsonl", "txt"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::prefetchrag
