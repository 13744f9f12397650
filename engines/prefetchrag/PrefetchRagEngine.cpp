#include "PrefetchRagEngine.h"

#include "PrefetchRagKeys.h"
#include "core/Errors.h"
#include "prefetchrag/PrefetchRagRun.h"
#include "prefetchrag/RagInputs.h"

namespace pl::prefetchrag {

namespace P = keys::param;

std::vector<ParamSpec> PrefetchRagEngine::params() const {
    auto g = [](ParamSpec s, const char* grp) {
        s.group = grp;
        return s;
    };
    return {
        g(ParamSpec::integer(P::kDomains, "domains D", 1, 20, 4, "domains of the synthetic knowledge base"),
          "knowledge base"),
        g(ParamSpec::integer(P::kEntities, "entities / domain", 10, 5000, 50,
                             "entity names e0.. are reused in every domain"),
          "knowledge base"),
        g(ParamSpec::integer(P::kAttributes, "attributes", 2, 20, 6,
                             "one fact document per (entity, attribute)"),
          "knowledge base"),
        g(ParamSpec::integer(P::kDistractors, "distractors / fact", 0, 5, 1,
                             "documents naming the entity and attribute with a wrong value"),
          "knowledge base"),
        g(ParamSpec::integer(P::kQuestions, "questions", 10, 2000, 60, "questions answered by every policy"),
          "writer"),
        g(ParamSpec::integer(P::kSentences, "sentences / answer", 1, 12, 4, "fact sentences per answer"),
          "writer"),
        g(ParamSpec::real(P::kTopicShift, "topic shift", 0, 1, 0.3,
                          "probability that a sentence moves to another entity"),
          "writer"),
        g(ParamSpec::real(P::kLatencyMs, "retrieval latency", 20, 2000, 200, "mean of the lognormal", "ms"),
          "latency model"),
        g(ParamSpec::real(P::kLatencySigma, "latency sigma", 0, 1.5, 0.5, "lognormal sigma"),
          "latency model"),
        g(ParamSpec::real(P::kTokenMs, "token time", 5, 100, 25, "one decoding step", "ms"), "latency model"),
        g(ParamSpec::real(P::kPrefillMs, "prefill", 0, 5, 0.5, "per inserted (or prompt) token", "ms"),
          "latency model"),
        g(ParamSpec::choice(
              P::kOnMiss, "slot before its document", {"stall", "guess"}, "stall",
              "stall: wait for pending retrievals (sync and predictive then retrieve blocking); "
              "guess: sample without it"),
          "latency model"),
        g(ParamSpec::integer(P::kTopK, "top-k", 1, 20, 3, "documents per retrieval"), "retrieval"),
        g(ParamSpec::integer(P::kBudget, "context budget C", 1, 64, 6, "documents in context at most"),
          "retrieval"),
        g(ParamSpec::integer(P::kWindow, "window W", 4, 64, 16,
                             "tokens of the query windows and the fixed-window period", "tokens"),
          "retrieval"),
        g(ParamSpec::real(P::kThetaP, "theta_p", 0.05, 0.95, 0.5, "the predictor fires above this"),
          "predictor"),
        g(ParamSpec::integer(P::kHorizonA, "horizon a", 1, 32, 4, "label window start", "tokens"),
          "predictor"),
        g(ParamSpec::integer(P::kHorizonB, "horizon b", 1, 32, 16, "label window end", "tokens"),
          "predictor"),
        g(ParamSpec::real(P::kThetaShift, "theta_shift", 0.01, 20, 1.0,
                          "KL of the domain posterior that invalidates a pending prefetch", "nats"),
          "predictor"),
        g(ParamSpec::integer(P::kTrainAnswers, "training answers", 20, 5000, 200,
                             "answers the mlp_lm and the predictor learn from"),
          "predictor"),
        g(ParamSpec::integer(P::kLmEpochs, "LM epochs", 1, 50, 4, "passes of the mlp_lm over them"),
          "predictor"),
    };
}

std::shared_ptr<const LoadedInput> PrefetchRagEngine::load(const std::string& path) const {
    return loadRagInput(path);
}

ResultDocument PrefetchRagEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    const CorpusInput* corpus = nullptr;
    const QuestionsInput* questions = nullptr;
    for (const auto& in : inputs) {
        if (auto c = dynamic_cast<const CorpusInput*>(in.get()))
            corpus = c;
        if (auto q = dynamic_cast<const QuestionsInput*>(in.get()))
            questions = q;
    }
    if (bool(corpus) != bool(questions))
        throw UsageError(
            corpus ? "a corpus needs a question file (JSONL with id, entity, attribute, value)"
                   : "a question file needs a corpus (JSONL with id, domain, text, or a .txt folder)");
    if (p.getInt(P::kHorizonA) > p.getInt(P::kHorizonB))
        throw UsageError("horizon_a must not exceed horizon_b");
    ResultDocument doc;
    RagWorld world;
    if (corpus) {
        world = worldFromInputs(*corpus, *questions);
        doc.notes.push_back(
            "corpus " + corpus->path + ", questions " + questions->path +
            ": retrieval on the user's documents; the template writer states the questions' facts");
    } else {
        SyntheticConfig sc;
        sc.domains = int(p.getInt(P::kDomains));
        sc.entities = int(p.getInt(P::kEntities));
        sc.attributes = int(p.getInt(P::kAttributes));
        sc.distractors = int(p.getInt(P::kDistractors));
        sc.questions = int(p.getInt(P::kQuestions));
        world = makeSyntheticWorld(sc, Rng(ctx.seed()).fork("world"));
    }
    ctx.throwIfCancelled();
    runPrefetchRag(world, p, ctx, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::prefetchrag
