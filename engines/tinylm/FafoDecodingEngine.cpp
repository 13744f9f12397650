#include "FafoDecodingEngine.h"

#include "FafoDecodingKeys.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "tinylm/Decoding.h"
#include "tinylm/InductionModel.h"
#include "tinylm/TinyLmInputs.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::tinylm {

namespace P = fafo::keys::param;
namespace K = fafo::keys;

namespace {

struct Setup {
    TransformerModel model;
    std::vector<std::vector<int>> prompts;
    std::vector<int> distances;
    bool builtin = true;
};

struct Settings {
    int gen, W, N, G, budget, sink, page, gammaSelf, draftLayers, sweepPrompts;
    double kvCost;
    std::string compressor;
    bool sweep;
};

Settings settingsFrom(const ParamSet& p) {
    Settings s;
    s.gen = int(p.getInt(P::kGenLen));
    s.W = int(p.getInt(P::kWindow));
    s.N = int(p.getInt(P::kNgram));
    s.G = int(p.getInt(P::kPool));
    s.budget = int(p.getInt(P::kBudget));
    s.sink = int(p.getInt(P::kSink));
    s.page = int(p.getInt(P::kPage));
    s.gammaSelf = int(p.getInt(P::kGammaSelf));
    s.draftLayers = int(p.getInt(P::kDraftLayers));
    s.sweepPrompts = int(p.getInt(P::kSweepPrompts));
    s.kvCost = p.getDouble(P::kKvCost);
    s.compressor = p.getString(P::kCompressor);
    s.sweep = p.getBool(P::kSweep);
    return s;
}

/// Stage "setup": the model (built-in or file) and the prompts (synthetic or file), checked.
Setup setupFrom(const InputList& inputs, const ParamSet& p, const Settings& s, const Rng& root,
                ResultDocument& doc) {
    Setup u;
    const ModelInput* mi = findModel(inputs);
    const PromptsInput* pi = findPrompts(inputs);
    if (mi) {
        if (mi->model.arch != "transformer")
            throw InputError(mi->path,
                             "fafo-decoding needs a transformer (__metadata__ arch), not " + mi->model.arch);
        u.model = mi->model.transformer;
        u.builtin = false;
        doc.notes.push_back("model from " + mi->path);
    } else {
        InductionSpec is;
        is.vocab = int(p.getInt(P::kVocab));
        u.model = makeInductionModel(is);
    }
    if (s.draftLayers >= int(u.model.layers.size()))
        throw UsageError("draft_layers must be below the model's " + std::to_string(u.model.layers.size()) +
                         " layers");
    if (pi) {
        checkPromptIds(pi->prompts, u.model.vocab());
        checkPromptLengths(pi->prompts, s.gen, u.model.maxPositions());
        u.prompts = pi->prompts.seqs;
        u.distances.assign(u.prompts.size(), 0);
        doc.notes.push_back("prompts from " + pi->path);
    } else {
        const int dmin = int(p.getInt(P::kCopyMin)), dmax = int(p.getInt(P::kCopyMax));
        if (dmin > dmax)
            throw UsageError("copy_min must not exceed copy_max");
        if (32 + dmax + 8 + s.gen > u.model.maxPositions())
            throw UsageError("copy_max + gen_len + 40 exceeds the model's " +
                             std::to_string(u.model.maxPositions()) + " positions");
        for (const CopyPrompt& c : makeCopyPrompts(int(p.getInt(P::kPrompts)), u.model.vocab(), dmin, dmax,
                                                   p.getDouble(P::kMarkov), root.fork("prompts"))) {
            u.prompts.push_back(c.tokens);
            u.distances.push_back(c.distance);
        }
    }
    return u;
}

/// A fresh compressed view for one decode (H2O starts from the prefill's attention).
std::unique_ptr<KvView> viewFor(const std::string& comp, int budget, const Settings& s,
                                const TransformerModel& m, const Prefill& pf) {
    if (comp == "h2o") {
        auto v = std::make_unique<H2oView>(pf.scores);
        v->setBudget(budget, std::max(1, budget / 2));
        return v;
    }
    return makeView(comp, budget, s.sink, s.page, int(m.layers.size()), m.nHeads);
}

struct ModeTotals {
    std::vector<int64_t> tokens, source, accept;
    double cost = 0;
    int64_t forwards = 0, count = 0;
    void add(const DecodeStats& d) {
        tokens.insert(tokens.end(), d.tokens.begin(), d.tokens.end());
        source.insert(source.end(), d.source.begin(), d.source.end());
        accept.insert(accept.end(), d.acceptLens.begin(), d.acceptLens.end());
        cost += d.cost;
        forwards += d.forwards;
        count += int64_t(d.tokens.size());
    }
};

struct Decoded {
    ModeTotals mode[5]; // ar, lookahead, fafo, lossy, selfspec
    int runs = 0, mismatchRuns = 0;
    std::vector<double> mismatchLossy, mismatchFafo; // per token index, summed over prompts
    DecodeStats maskStep;
    std::vector<double> sweepBudgets;
    std::vector<std::vector<double>> sweepSpeedup, sweepTpf; // [compressor][budget]
    double sweepLookSpeedup = 0, sweepSelfSpeedup = 0, sweepLookTpf = 0;
};

void countMismatch(const std::vector<int>& a, const std::vector<int>& b, std::vector<double>& acc) {
    if (acc.size() < a.size())
        acc.resize(a.size(), 0.0);
    for (size_t i = 0; i < a.size(); ++i)
        acc[i] += (i < b.size() && a[i] == b[i]) ? 0.0 : 1.0;
}

/// Stage "decode": every mode on every prompt.
void decodeAll(const Setup& u, const Settings& s, const Rng& root, RunContext& ctx, Decoded& d) {
    const std::function<void()> tick = [&] { ctx.throwIfCancelled(); };
    DecodeConfig dc{s.gen, s.kvCost, &tick};
    for (size_t i = 0; i < u.prompts.size(); ++i) {
        const std::vector<int>& pr = u.prompts[i];
        const Prefill pf = prefillPrompt(u.model, pr, int(pr.size()) + s.gen + s.N + s.W + 2);
        const DecodeStats ar = decodeGreedy(u.model, pf, dc);
        LookaheadConfig la{s.W, s.N, s.G, nullptr, 0, root.fork("guesses").seed() + i, -1};
        const DecodeStats look = decodeLookahead(u.model, pf, pr, dc, la);
        auto view = viewFor(s.compressor, s.budget, s, u.model, pf);
        la.view = view.get();
        la.budget = s.budget;
        la.recordStep = i == 0 ? 3 : -1;
        const DecodeStats fafo = decodeLookahead(u.model, pf, pr, dc, la);
        auto lossyView = viewFor(s.compressor, s.budget, s, u.model, pf);
        const DecodeStats lossy = decodeGreedy(u.model, pf, dc, lossyView.get(), s.budget);
        const DecodeStats self = decodeSelfSpeculative(u.model, pf, dc, s.gammaSelf, s.draftLayers);
        d.runs += 2;
        d.mismatchRuns += (fafo.tokens != ar.tokens) + (look.tokens != ar.tokens);
        countMismatch(lossy.tokens, ar.tokens, d.mismatchLossy);
        countMismatch(fafo.tokens, ar.tokens, d.mismatchFafo);
        if (i == 0)
            d.maskStep = fafo;
        const DecodeStats* all[5] = {&ar, &look, &fafo, &lossy, &self};
        for (int m = 0; m < 5; ++m)
            d.mode[m].add(*all[m]);
        ctx.progress(0.6 * double(i + 1) / double(u.prompts.size()), "decoding");
    }
}

/// Stage "sweep": FAFO per compressor and budget on the first prompts, each checked against AR.
void sweepBudgets(const Setup& u, const Settings& s, const Rng& root, RunContext& ctx, Decoded& d) {
    if (!s.sweep)
        return;
    const std::function<void()> tick = [&] { ctx.throwIfCancelled(); };
    DecodeConfig dc{s.gen, s.kvCost, &tick};
    size_t longest = 0;
    const size_t np = std::min(u.prompts.size(), size_t(s.sweepPrompts));
    for (size_t i = 0; i < np; ++i)
        longest = std::max(longest, u.prompts[i].size());
    for (int b = 16; b <= 4096; b *= 2) {
        d.sweepBudgets.push_back(b);
        if (size_t(b) >= longest + size_t(s.gen))
            break;
    }
    d.sweepSpeedup.assign(3, {});
    d.sweepTpf.assign(3, {});
    std::vector<Prefill> pfs;
    std::vector<DecodeStats> ars;
    double arAll = 0, lookCost = 0, selfCost = 0, lookTokens = 0, lookForwards = 0;
    for (size_t i = 0; i < np; ++i) {
        const auto& pr = u.prompts[i];
        pfs.push_back(prefillPrompt(u.model, pr, int(pr.size()) + s.gen + s.N + s.W + 2));
        ars.push_back(decodeGreedy(u.model, pfs.back(), dc));
        const LookaheadConfig la{s.W, s.N, s.G, nullptr, 0, root.fork("guesses").seed() + i, -1};
        const DecodeStats look = decodeLookahead(u.model, pfs.back(), pr, dc, la);
        arAll += ars.back().cost;
        lookCost += look.cost;
        lookTokens += double(look.tokens.size());
        lookForwards += look.forwards;
        selfCost += decodeSelfSpeculative(u.model, pfs.back(), dc, s.gammaSelf, s.draftLayers).cost;
    }
    d.sweepLookSpeedup = arAll / std::max(lookCost, 1e-12);
    d.sweepSelfSpeedup = arAll / std::max(selfCost, 1e-12);
    d.sweepLookTpf = lookTokens / std::max(lookForwards, 1.0);
    for (int c = 0; c < 3; ++c)
        for (size_t bi = 0; bi < d.sweepBudgets.size(); ++bi) {
            double arCost = 0, cost = 0, tokens = 0, forwards = 0;
            for (size_t i = 0; i < np; ++i) {
                auto view = viewFor(K::kCompressors[c], int(d.sweepBudgets[bi]), s, u.model, pfs[i]);
                LookaheadConfig la{
                    s.W, s.N, s.G, view.get(), int(d.sweepBudgets[bi]), root.fork("guesses").seed() + i, -1};
                const DecodeStats f = decodeLookahead(u.model, pfs[i], u.prompts[i], dc, la);
                ++d.runs;
                d.mismatchRuns += f.tokens != ars[i].tokens;
                arCost += ars[i].cost;
                cost += f.cost;
                tokens += double(f.tokens.size());
                forwards += f.forwards;
            }
            d.sweepSpeedup[size_t(c)].push_back(arCost / std::max(cost, 1e-12));
            d.sweepTpf[size_t(c)].push_back(tokens / std::max(forwards, 1.0));
            ctx.progress(0.6 + 0.35 * double(c * int(d.sweepBudgets.size()) + int(bi) + 1) /
                                   double(3 * d.sweepBudgets.size()),
                         "budget sweep");
        }
}

Matrix maskMatrix(const DecodeStats& f) {
    const int n = f.maskCacheLength;
    const int rows = int(f.mask.size());
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(rows, n + rows);
    for (int r = 0; r < rows; ++r)
        for (int k : f.mask[size_t(r)])
            if (k < n + rows)
                m(r, k) = 1.0;
    std::vector<std::string> rl;
    int v = 0, l = 0;
    for (int kind : f.maskRowKind)
        rl.push_back(kind == 0   ? std::string("current")
                     : kind == 1 ? "verify " + std::to_string(++v)
                                 : "look " + std::to_string(++l));
    std::vector<std::string> cl;
    for (int c = 0; c < n + rows; ++c)
        cl.push_back(c < n ? "pos " + std::to_string(c) : "row " + std::to_string(c - n));
    return matrixOf(m, rl, cl);
}

Series histogram(const std::vector<int64_t>& a, const std::string& what) {
    int64_t mx = 1;
    for (int64_t x : a)
        mx = std::max(mx, x);
    std::vector<double> x, y(size_t(mx), 0.0);
    for (int64_t i = 1; i <= mx; ++i)
        x.push_back(double(i));
    for (int64_t v : a)
        if (v >= 1)
            y[size_t(v - 1)] += 1;
    return seriesOf(x, y, "tokens accepted in one step", what);
}

/// Stage "pack": labels, metrics, series, matrices.
void pack(const Setup& u, const Decoded& d, ResultDocument& doc) {
    for (int m = 0; m < 5; ++m)
        doc.labels[K::label::kTokensPrefix + std::string(K::kModes[m])] = d.mode[m].tokens;
    doc.labels[K::label::kSourceFafo] = d.mode[2].source;
    const int withSteps[3] = {1, 2, 4};
    for (int m : withSteps) {
        const std::string name = K::kModes[m];
        doc.labels[K::label::kAcceptPrefix + name] = d.mode[m].accept;
        doc.metrics[K::metric::kTokensPerForwardPrefix + name] =
            double(d.mode[m].count) / double(std::max<int64_t>(1, d.mode[m].forwards));
        doc.metrics[K::metric::kSpeedupPrefix + name] = d.mode[0].cost / std::max(d.mode[m].cost, 1e-12);
        doc.series[K::series::kAcceptHistPrefix + name] = histogram(d.mode[m].accept, "steps");
    }
    for (int m = 0; m < 5; ++m) {
        int64_t same = 0;
        uint32_t h = 2166136261u; // FNV-1a of the token ids
        for (size_t i = 0; i < d.mode[m].tokens.size(); ++i) {
            same += d.mode[m].tokens[i] == d.mode[0].tokens[i];
            h = (h ^ uint32_t(d.mode[m].tokens[i])) * 16777619u;
        }
        doc.metrics[K::metric::kAgreementPrefix + std::string(K::kModes[m])] =
            double(same) / double(std::max<size_t>(1, d.mode[0].tokens.size()));
        doc.metrics[K::metric::kHashPrefix + std::string(K::kModes[m])] = double(h);
    }
    doc.metrics[K::metric::kLossless] = d.mismatchRuns == 0 ? 1.0 : 0.0;
    doc.metrics[K::metric::kFafoRuns] = d.runs;
    doc.metrics[K::metric::kFafoMismatchRuns] = d.mismatchRuns;
    int64_t diff = 0;
    for (size_t i = 0; i < d.mode[3].tokens.size(); ++i)
        diff += d.mode[3].tokens[i] != d.mode[0].tokens[i];
    doc.metrics[K::metric::kLossyMismatch] =
        double(diff) / double(std::max<size_t>(1, d.mode[0].tokens.size()));
    std::vector<double> dist(u.distances.begin(), u.distances.end());
    doc.vectors[K::vector::kCopyDistance] = dist;
    doc.metrics[K::metric::kMeanCopyDistance] =
        dist.empty() ? 0.0 : std::accumulate(dist.begin(), dist.end(), 0.0) / double(dist.size());
    const std::pair<const char*, const std::vector<double>*> mis[2] = {{"lossy", &d.mismatchLossy},
                                                                       {"fafo", &d.mismatchFafo}};
    for (const auto& [key, src] : mis) {
        Series s = emptySeries("generated token index",
                               "tokens unlike greedy (cumulative)");
        double acc = 0;
        for (size_t i = 0; i < src->size(); ++i) {
            acc += (*src)[i];
            addPoint(s, double(i + 1), acc);
        }
        doc.series[K::series::kMismatchPrefix + std::string(key)] = s;
    }
    if (!d.sweepSpeedup.empty()) {
        doc.metrics[K::metric::kSweepSpeedupLookahead] = d.sweepLookSpeedup;
        doc.metrics[K::metric::kSweepSpeedupSelfspec] = d.sweepSelfSpeedup;
        doc.metrics[K::metric::kSweepTpfLookahead] = d.sweepLookTpf;
    }
    for (size_t c = 0; c < d.sweepSpeedup.size(); ++c) {
        doc.series[K::series::kSpeedupVsBudgetPrefix + std::string(K::kCompressors[c])] =
            seriesOf(d.sweepBudgets, d.sweepSpeedup[c], "KV budget of the lookahead rows (keys)",
                     "modelled speed-up over autoregressive");
        doc.series[K::series::kTpfVsBudgetPrefix + std::string(K::kCompressors[c])] =
            seriesOf(d.sweepBudgets, d.sweepTpf[c], "KV budget of the lookahead rows (keys)",
                     "tokens per forward pass");
    }
    if (!d.maskStep.mask.empty()) {
        doc.matrices[K::matrix::kStepMask] = maskMatrix(d.maskStep);
        doc.vectors[K::vector::kMaskRowKind] =
            std::vector<double>(d.maskStep.maskRowKind.begin(), d.maskStep.maskRowKind.end());
    }
}

void claims(const Settings& s, const Decoded& d, ResultDocument& doc) {
    doc.claims.push_back(
        claimOf(K::claim::kLossless,
                "FAFO (and lookahead) output equals autoregressive greedy output for every prompt, "
                "compressor and budget run.",
                d.mismatchRuns == 0, d.mismatchRuns, 0,
                std::to_string(d.runs - d.mismatchRuns) + " of " + std::to_string(d.runs) +
                    " runs identical to autoregressive"));
    const double tpf = doc.metrics[std::string(K::metric::kTokensPerForwardPrefix) + "fafo"];
    doc.claims.push_back(claimOf(
        K::claim::kMultiToken, "FAFO accepts more than one token per forward pass on repetitive text.",
        tpf > 1.0, tpf, 1.0,
        "tokens per forward: FAFO " + formatFixed(tpf, 3) + " (" + s.compressor + ", budget " +
            std::to_string(s.budget) + "), lookahead " +
            formatFixed(doc.metrics[std::string(K::metric::kTokensPerForwardPrefix) + "lookahead"], 3)));
    const double mis = doc.metrics[K::metric::kLossyMismatch];
    doc.claims.push_back(
        claimOf(K::claim::kLossyChanges,
                "Decoding directly with the same compressed cache (lossy-only) changes the output.", mis > 0,
                mis, 0, formatFixed(100 * mis, 1) + " % of lossy-only tokens differ from autoregressive"));
    const double sf = doc.metrics[std::string(K::metric::kSpeedupPrefix) + "fafo"];
    const double sl = doc.metrics[std::string(K::metric::kSpeedupPrefix) + "lookahead"];
    const double ss = doc.metrics[std::string(K::metric::kSpeedupPrefix) + "selfspec"];
    doc.claims.push_back(claimOf(
        K::claim::kSpeedup,
        "Reported (cost model, not a GPU): FAFO's modelled speed-up over autoregressive decoding reaches the "
        "paper's lower end, 1.2x (its 1.20-2.71x are GPU latencies of real LLMs).",
        sf >= 1.2, sf, 1.2,
        "modelled speed-up: FAFO " + formatFixed(sf, 3) + ", lookahead " + formatFixed(sl, 3) +
            ", self-spec " + formatFixed(ss, 3) + " (kv_cost " + formatSignificant(s.kvCost, 3) + ")"));
}

} // namespace

std::vector<ParamSpec> FafoDecodingEngine::params() const {
    auto g = [](ParamSpec s, const char* grp) {
        s.group = grp;
        return s;
    };
    return {
        g(ParamSpec::integer(P::kPrompts, "prompts", 1, 64, 4, "synthetic prompts (without a prompt file)"),
          "data"),
        g(ParamSpec::integer(P::kVocab, "vocabulary V", 16, 512, 128, "tokens of the built-in model"),
          "data"),
        g(ParamSpec::integer(P::kCopyMin, "copy distance min", 8, 2000, 50, "shortest repeat distance",
                             "tokens"),
          "data"),
        g(ParamSpec::integer(P::kCopyMax, "copy distance max", 8, 2000, 400, "longest repeat distance",
                             "tokens"),
          "data"),
        g(ParamSpec::real(P::kMarkov, "Markov background", 0, 1, 0.5,
                          "probability that a background token follows the successor table"),
          "data"),
        g(ParamSpec::integer(P::kGenLen, "generation length", 4, 2048, 96, "greedy tokens per prompt",
                             "tokens"),
          "data"),
        g(ParamSpec::integer(P::kWindow, "window W", 1, 16, 5, "lookahead (Jacobi) positions per step"),
          "decoding"),
        g(ParamSpec::integer(P::kNgram, "n-gram N", 2, 8, 4, "length of the pooled n-grams"), "decoding"),
        g(ParamSpec::integer(P::kPool, "pool G", 1, 32, 8,
                             "n-grams verified per step (and kept per first token)"),
          "decoding"),
        g(ParamSpec::choice(P::kCompressor, "compressor", {"quest", "streaming", "h2o"}, "quest",
                            "what the lookahead (and lossy-only) rows read"),
          "compression"),
        g(ParamSpec::integer(P::kBudget, "KV budget", 8, 4096, 128, "keys a compressed row reads", "keys"),
          "compression"),
        g(ParamSpec::integer(P::kSink, "sink", 0, 64, 4, "StreamingLLM: first positions always kept", "keys"),
          "compression"),
        g(ParamSpec::integer(P::kPage, "page", 1, 64, 16, "Quest: positions per page", "keys"),
          "compression"),
        g(ParamSpec::integer(P::kGammaSelf, "self-spec draft length", 1, 8, 4, "tokens drafted per step"),
          "self-spec"),
        g(ParamSpec::integer(P::kDraftLayers, "draft layers", 0, 63, 1,
                             "the draft skips the attention of the layers from this one on"),
          "self-spec"),
        g(ParamSpec::real(P::kKvCost, "KV cost", 0, 10, 0.05,
                          "modelled cost of 1000 keys read, in forward passes"),
          "cost model"),
        g(ParamSpec::boolean(P::kSweep, "budget sweep", true, "FAFO per compressor over budgets 16, 32, ..."),
          "cost model"),
        g(ParamSpec::integer(P::kSweepPrompts, "sweep prompts", 1, 64, 2, "prompts of the budget sweep"),
          "cost model"),
    };
}

std::shared_ptr<const LoadedInput> FafoDecodingEngine::load(const std::string& path) const {
    return loadTinyLmInput(path);
}

ResultDocument FafoDecodingEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const Settings s = settingsFrom(p);
    const Rng root(ctx.seed());
    const Setup u = setupFrom(inputs, p, s, root, doc);
    Decoded d;
    decodeAll(u, s, root, ctx, d);
    sweepBudgets(u, s, root, ctx, d);
    pack(u, d, doc);
    claims(s, d, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::tinylm
