#include "PrefetchRagRun.h"

#include "PrefetchRagKeys.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "prefetchrag/PolicySimulator.h"
#include "tinylm/MlpLm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace pl::prefetchrag {

namespace P = keys::param;
namespace K = keys;

namespace {

struct Setup {
    const RagWorld* world = nullptr;
    std::unique_ptr<Bm25Index> index;
    std::unique_ptr<DomainMonitor> monitor;
    std::unique_ptr<QueryGenerator> qgen;
    LmVocab vocab;
    tinylm::MlpLmModel lm;
    double lmLoss = 0;
    RetrievalPredictor predictor;
    std::vector<std::vector<int>> questionDocs; ///< per test question: BM25 top-k of its query
    std::vector<AnswerTrace> test, shift;
    SimConfig sim;
    int sentences = 4, a = 4, b = 16, trainAnswers = 200, lmEpochs = 4;
    double latMean = 200, latSigma = 0.5, topicShift = 0.3, shiftTopic = 0.6;
};

std::vector<int> topDocs(const Bm25Index& idx, const std::vector<std::string>& q, int k) {
    std::vector<int> d;
    for (const Bm25Hit& h : idx.topK(q, k))
        d.push_back(h.doc);
    return d;
}

/// Stage "index": BM25 of the corpus and the question retrieval (labels, scores, recall@k).
void indexStage(Setup& u, ResultDocument& doc) {
    const RagWorld& w = *u.world;
    std::vector<std::vector<std::string>> tokens;
    for (const RagDoc& d : w.docs)
        tokens.push_back(d.tokens);
    u.index = std::make_unique<Bm25Index>(tokens);
    u.monitor = std::make_unique<DomainMonitor>(w, u.sim.window);
    u.qgen = std::make_unique<QueryGenerator>(*u.index, w, u.sim.window, 3);
    const int k = std::min<int>(u.sim.topk, int(w.docs.size()));
    Eigen::MatrixXd score(Eigen::Index(w.questions.size()), k);
    std::vector<int64_t>& lab = doc.labels[K::label::kTopkDoc];
    int known = 0, hit = 0;
    for (size_t q = 0; q < w.questions.size(); ++q) {
        const auto hits = u.index->topK(w.questions[q].query, k);
        std::vector<int> d;
        for (int j = 0; j < k; ++j) {
            lab.push_back(hits[size_t(j)].doc);
            score(Eigen::Index(q), j) = hits[size_t(j)].score;
            d.push_back(hits[size_t(j)].doc);
        }
        const int want = w.questions[q].doc;
        if (want >= 0) {
            ++known;
            hit += std::find(d.begin(), d.end(), want) != d.end();
        }
        u.questionDocs.push_back(std::move(d));
    }
    std::vector<std::string> rows;
    for (const RagQuestion& q : w.questions)
        rows.push_back(q.id);
    doc.matrices[K::matrix::kTopkScore] = matrixOf(score, rows, numberedLabels("rank ", k));
    if (known > 0)
        doc.metrics[K::metric::kRecallAtK] = double(hit) / known;
    doc.metrics[K::metric::kDocuments] = double(w.docs.size());
    doc.metrics[K::metric::kEmptySkipped] = double(w.emptySkipped);
}

/// Stages "write", "lm", "traces", "predictor".
void learnStage(Setup& u, const Rng& root, RunContext& ctx) {
    const RagWorld& w = *u.world;
    const EntityFacts byEntity = entityFacts(w);
    Rng tr = root.fork("train answers");
    std::vector<Answer> train;
    std::vector<std::vector<int>> trainCtx;
    for (int i = 0; i < u.trainAnswers; ++i) {
        const int f = int(tr.uniformInt(w.facts.size()));
        std::vector<std::string> q = w.facts[size_t(f)].entity;
        q.insert(q.end(), w.facts[size_t(f)].attribute.begin(), w.facts[size_t(f)].attribute.end());
        trainCtx.push_back(topDocs(*u.index, q, u.sim.topk));
        train.push_back(writeAnswer(w, byEntity, f, u.sentences, u.topicShift, tr));
    }
    u.vocab = vocabOf(w);
    tinylm::MlpTrainConfig tc;
    tc.embed = 8;
    tc.hidden1 = tc.hidden2 = 32;
    tc.window = 12;
    tc.padId = 0;
    tc.epochs = u.lmEpochs;
    tc.batch = 128;
    tc.lr = 1e-2;
    std::vector<double> loss;
    u.lm = tinylm::trainMlpLm(lmSequences(train, u.vocab), int(u.vocab.words.size()), tc, root.fork("lm"),
                              &loss, [&](double f) {
                                  ctx.throwIfCancelled();
                                  ctx.progress(0.35 * f, "training the mlp_lm");
                              });
    u.lmLoss = loss.empty() ? 0.0 : loss.back();
    std::map<std::string, int> keys;
    std::vector<AnswerTrace> trainTraces;
    for (Answer& a : train) {
        trainTraces.push_back(
            traceAnswer(std::move(a), u.lm, u.vocab, w, *u.qgen, *u.index, *u.monitor, u.sim.topk, keys));
        ctx.throwIfCancelled();
    }
    ctx.progress(0.5, "training the predictor");
    u.predictor = RetrievalPredictor::train(trainTraces, trainCtx, w, u.a, u.b, 300,
                                            [&](double) { ctx.throwIfCancelled(); });
    Rng te = root.fork("test answers"), sh = root.fork("shift answers");
    for (const RagQuestion& q : w.questions) {
        u.test.push_back(traceAnswer(writeAnswer(w, byEntity, q.fact, u.sentences, u.topicShift, te), u.lm,
                                     u.vocab, w, *u.qgen, *u.index, *u.monitor, u.sim.topk, keys));
        u.shift.push_back(traceAnswer(writeAnswer(w, byEntity, q.fact, u.sentences, u.shiftTopic, sh), u.lm,
                                      u.vocab, w, *u.qgen, *u.index, *u.monitor, u.sim.topk, keys));
        ctx.throwIfCancelled();
    }
}

struct PolicyStats {
    std::vector<double> latency, ttft;
    double stall = 0, requests = 0, invalidated = 0;
    int slots = 0, correct = 0;
    std::vector<int> leads;
    SimOutcome first;
};

SimInput simInput(const Setup& u, const AnswerTrace& tr, size_t q, const Rng& root) {
    SimInput in;
    in.trace = &tr;
    in.world = u.world;
    in.index = u.index.get();
    in.monitor = u.monitor.get();
    in.predictor = &u.predictor;
    in.questionDocs = u.questionDocs[q];
    in.questionTokens = int(u.world->questions[q].query.size()) + 4;
    Rng lat = root.fork("latency " + std::to_string(q)), slot = root.fork("slot " + std::to_string(q));
    const double mu = std::log(u.latMean) - 0.5 * u.latSigma * u.latSigma;
    for (int j = 0; j < 256; ++j)
        in.latencies.push_back(std::exp(mu + u.latSigma * lat.normal()));
    for (size_t t = 0; t < tr.answer.words.size(); ++t)
        in.slotDraws.push_back(slot.uniform());
    return in;
}

/// Stage "simulate" (or "shift" on the shifted answers): every question under \a policies.
std::vector<PolicyStats> simulateAll(const Setup& u, const std::vector<AnswerTrace>& traces,
                                     const std::vector<Policy>& policies, const Rng& root, RunContext& ctx,
                                     double from, double to) {
    std::vector<PolicyStats> st(policies.size());
    for (size_t q = 0; q < traces.size(); ++q) {
        const SimInput in = simInput(u, traces[q], q, root);
        for (size_t i = 0; i < policies.size(); ++i) {
            SimOutcome o = simulate(policies[i], in, u.sim);
            PolicyStats& s = st[i];
            s.latency.push_back(o.latencyMs);
            s.ttft.push_back(o.ttftMs);
            s.stall += o.stallMs;
            s.requests += o.requests;
            s.invalidated += o.invalidated;
            s.slots += o.slots;
            s.correct += o.correct;
            s.leads.insert(s.leads.end(), o.leads.begin(), o.leads.end());
            if (q == 0)
                s.first = std::move(o);
        }
        ctx.throwIfCancelled();
        ctx.progress(from + (to - from) * double(q + 1) / double(traces.size()), "simulating the policies");
    }
    return st;
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
        s += x;
    return v.empty() ? 0.0 : s / double(v.size());
}

double accuracy(const PolicyStats& s) {
    return s.slots ? double(s.correct) / s.slots : 0.0;
}

/// The Gantt lanes of the first question: policies x 200 bins, the span kind at each bin's centre.
void packGantt(const std::vector<PolicyStats>& st, ResultDocument& doc) {
    double tmax = 1e-9;
    for (const PolicyStats& s : st)
        tmax = std::max(tmax, s.first.latencyMs);
    const int bins = 200;
    const double w = tmax / bins;
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(Eigen::Index(st.size()), bins);
    for (size_t i = 0; i < st.size(); ++i)
        for (const Span& sp : st[i].first.spans)
            for (int c = std::max(0, int(sp.start / w)); c < bins && (c + 0.5) * w < sp.end; ++c)
                if ((c + 0.5) * w >= sp.start)
                    g(Eigen::Index(i), c) = sp.kind;
    std::vector<std::string> rows(std::begin(K::kPolicyNames), std::end(K::kPolicyNames));
    doc.matrices[K::matrix::kGantt] = matrixOf(g, rows, {});
    doc.metrics[K::metric::kGanttBinMs] = w;
}

/// Stage "pack": per-policy metrics and vectors, the first question's traces, lead times.
void packPolicies(const Setup& u, const std::vector<PolicyStats>& st, ResultDocument& doc) {
    const double nq = double(std::max<size_t>(1, u.test.size()));
    for (size_t i = 0; i < st.size(); ++i) {
        const std::string n = K::kPolicyNames[i];
        doc.metrics[K::metric::kLatencyMeanPrefix + n] = mean(st[i].latency);
        doc.metrics[K::metric::kTtftMeanPrefix + n] = mean(st[i].ttft);
        doc.metrics[K::metric::kSlotAccuracyPrefix + n] = accuracy(st[i]);
        doc.metrics[K::metric::kStallMeanPrefix + n] = st[i].stall / nq;
        doc.metrics[K::metric::kRequestsPrefix + n] = st[i].requests / nq;
        doc.vectors[K::vector::kLatencyPrefix + n] = st[i].latency;
        doc.vectors[K::vector::kTtftPrefix + n] = st[i].ttft;
    }
    const PolicyStats& pr = st[4];
    doc.metrics[K::metric::kInvalidated] = pr.invalidated / nq;
    packGantt(st, doc);
    const AnswerTrace& t0 = u.test.front();
    Series e = emptySeries("position (tokens)", "entropy (nats) / probability");
    Series pp = emptySeries("position (tokens)", "p_t");
    for (size_t t = 0; t < t0.entropy.size(); ++t) {
        addPoint(e, double(t), t0.entropy[t]);
        if (t < pr.first.p.size())
            addPoint(pp, double(t), pr.first.p[t]);
    }
    doc.series[K::series::kEntropy] = e;
    doc.series[K::series::kPredictorP] = pp;
    std::vector<double> fires(pr.first.fires.begin(), pr.first.fires.end()), events;
    std::vector<int64_t> slots;
    for (size_t t = 0; t < t0.answer.slotFact.size(); ++t) {
        const int f = t0.answer.slotFact[t];
        if (f < 0)
            continue;
        slots.push_back(int64_t(t));
        const auto& qd = u.questionDocs.front();
        if (std::find(qd.begin(), qd.end(), u.world->facts[size_t(f)].doc) == qd.end())
            events.push_back(double(t));
    }
    doc.vectors[K::vector::kFiresQ0] = fires;
    doc.vectors[K::vector::kEventsQ0] = events;
    doc.labels[K::label::kSlotPositions] = slots;
    Series h = emptySeries("lead time (tokens from the fire to the slot)", "slots served");
    std::vector<double> cnt(33, 0.0);
    double sum = 0;
    for (int l : pr.leads) {
        cnt[size_t(std::clamp(l, 0, 32))] += 1;
        sum += l;
    }
    for (int l = 0; l <= 32; ++l)
        addPoint(h, l, cnt[size_t(l)]);
    doc.series[K::series::kLeadHist] = h;
    doc.metrics[K::metric::kLeadMean] = pr.leads.empty() ? kNaN : sum / double(pr.leads.size());
}

/// Stage "triggers": precision and recall of p_t > theta_p (question context fixed) against the
/// missing-document slots, for horizons b' = a..32.
void triggerStage(const Setup& u, ResultDocument& doc) {
    const RagWorld& w = *u.world;
    Series ps = emptySeries("horizon b (tokens)", "trigger precision");
    Series rs = emptySeries("horizon b (tokens)", "trigger recall");
    std::vector<std::vector<int>> fire(u.test.size()), missing(u.test.size());
    for (size_t q = 0; q < u.test.size(); ++q) {
        const AnswerTrace& tr = u.test[q];
        const auto& ctxDocs = u.questionDocs[q];
        for (size_t t = 0; t < tr.answer.words.size(); ++t) {
            const auto& qd = tr.queryDocs[t];
            const bool cov = !qd.empty() && std::find(ctxDocs.begin(), ctxDocs.end(), qd[0]) != ctxDocs.end();
            if (u.predictor.probability(tr, int(t), cov) > u.sim.thetaP)
                fire[q].push_back(int(t));
            const int f = tr.answer.slotFact[t];
            if (f >= 0 && std::find(ctxDocs.begin(), ctxDocs.end(), w.facts[size_t(f)].doc) == ctxDocs.end())
                missing[q].push_back(int(t));
        }
    }
    for (int hb = u.a; hb <= 32; ++hb) {
        int64_t fires = 0, good = 0, events = 0, caught = 0;
        for (size_t q = 0; q < u.test.size(); ++q) {
            for (int t : fire[q]) {
                ++fires;
                good += std::any_of(missing[q].begin(), missing[q].end(),
                                    [&](int s) { return s >= t + u.a && s <= t + hb; });
            }
            for (int s : missing[q]) {
                ++events;
                caught += std::any_of(fire[q].begin(), fire[q].end(),
                                      [&](int t) { return s >= t + u.a && s <= t + hb; });
            }
        }
        const double prec = fires ? double(good) / double(fires) : 0.0;
        const double rec = events ? double(caught) / double(events) : 0.0;
        addPoint(ps, hb, prec);
        addPoint(rs, hb, rec);
        if (hb == u.b) {
            doc.metrics[K::metric::kTriggerPrecision] = prec;
            doc.metrics[K::metric::kTriggerRecall] = rec;
        }
    }
    doc.series[K::series::kPrecisionVsHorizon] = ps;
    doc.series[K::series::kRecallVsHorizon] = rs;
}

void claimsStage(ResultDocument& doc) {
    auto m = [&](const std::string& k) { return doc.metrics.at(k); };
    const std::string L = K::metric::kLatencyMeanPrefix, T = K::metric::kTtftMeanPrefix,
                      A = K::metric::kSlotAccuracyPrefix, S = K::metric::kShiftAccuracyPrefix;
    const double cutL = 1 - m(L + "predictive") / m(L + "sync");
    const double cutT = 1 - m(T + "predictive") / m(T + "sync");
    doc.metrics[K::metric::kLatencyCut] = cutL;
    doc.metrics[K::metric::kTtftCut] = cutT;
    const double drop = 100 * (m(A + "sync") - m(A + "predictive"));
    const double fixedLoss = 100 * (m(S + "sync") - m(S + "fixed_window"));
    const double predLoss = 100 * (m(S + "sync") - m(S + "predictive"));
    doc.claims.push_back(claimOf(
        K::claim::kLatency, "Predictive prefetching cuts mean end-to-end latency by >= 25% vs sync",
        cutL >= 0.25, cutL, 0.25, "1 - latency_mean_predictive / latency_mean_sync, simulated latencies"));
    doc.claims.push_back(claimOf(K::claim::kTtft,
                                 "Predictive prefetching cuts time to first token by >= 50% vs sync",
                                 cutT >= 0.5, cutT, 0.5, "1 - ttft_mean_predictive / ttft_mean_sync"));
    doc.claims.push_back(claimOf(K::claim::kAccuracy,
                                 "Slot accuracy of predictive stays within 2 points of sync", drop <= 2, drop,
                                 2, "100 (slot_accuracy_sync - slot_accuracy_predictive), points"));
    doc.claims.push_back(claimOf(
        K::claim::kShiftFixed, "Under topic shift, fixed-window async loses >= 5 accuracy points vs sync",
        fixedLoss >= 5, fixedLoss, 5, "points, on the answers rewritten at shift_topic_shift"));
    doc.claims.push_back(claimOf(
        K::claim::kShiftPredictive, "Under topic shift, predictive loses <= 2 accuracy points vs sync",
        predLoss <= 2, predLoss, 2, "points, on the answers rewritten at shift_topic_shift"));
}

} // namespace

void runPrefetchRag(const RagWorld& world, const ParamSet& p, RunContext& ctx, ResultDocument& doc) {
    if (world.questions.empty() || world.docs.empty())
        throw UsageError("no questions or no documents");
    const Rng root(ctx.seed());
    Setup u;
    u.world = &world;
    u.sim.tokenMs = p.getDouble(P::kTokenMs);
    u.sim.prefillMsPerToken = p.getDouble(P::kPrefillMs);
    u.sim.topk = int(p.getInt(P::kTopK));
    u.sim.budget = int(p.getInt(P::kBudget));
    u.sim.window = int(p.getInt(P::kWindow));
    u.sim.stall = p.getString(P::kOnMiss) == "stall";
    u.sim.thetaP = p.getDouble(P::kThetaP);
    u.sim.thetaShift = p.getDouble(P::kThetaShift);
    u.sentences = int(p.getInt(P::kSentences));
    u.a = int(p.getInt(P::kHorizonA));
    u.b = int(p.getInt(P::kHorizonB));
    u.trainAnswers = int(p.getInt(P::kTrainAnswers));
    u.lmEpochs = int(p.getInt(P::kLmEpochs));
    u.latMean = p.getDouble(P::kLatencyMs);
    u.latSigma = p.getDouble(P::kLatencySigma);
    u.topicShift = p.getDouble(P::kTopicShift);
    u.shiftTopic = std::max(0.6, u.topicShift);
    indexStage(u, doc);
    ctx.progress(0.05, "index built");
    learnStage(u, root, ctx);
    doc.metrics[K::metric::kLmLoss] = u.lmLoss;
    doc.metrics[K::metric::kPredictorLoss] = u.predictor.trainLoss();
    const std::vector<Policy> all(std::begin(kPolicies), std::end(kPolicies));
    const auto st = simulateAll(u, u.test, all, root, ctx, 0.6, 0.85);
    packPolicies(u, st, doc);
    const auto sh = simulateAll(u, u.shift, {Policy::Sync, Policy::FixedWindow, Policy::Predictive}, root,
                                ctx, 0.85, 0.97);
    doc.metrics[K::metric::kShiftTopic] = u.shiftTopic;
    doc.metrics[std::string(K::metric::kShiftAccuracyPrefix) + "sync"] = accuracy(sh[0]);
    doc.metrics[std::string(K::metric::kShiftAccuracyPrefix) + "fixed_window"] = accuracy(sh[1]);
    doc.metrics[std::string(K::metric::kShiftAccuracyPrefix) + "predictive"] = accuracy(sh[2]);
    triggerStage(u, doc);
    claimsStage(doc);
    if (world.emptySkipped > 0)
        doc.notes.push_back(std::to_string(world.emptySkipped) + " empty documents skipped");
}

} // namespace pl::prefetchrag
