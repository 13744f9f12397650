#include "SaeDomainEngine.h"

#include "SaeDomainKeys.h"
#include "core/Detection.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/PathUtil.h"
#include "core/ResultBuilders.h"
#include "hiddenstate/SaeBaselines.h"
#include "hiddenstate/SaeMarkov.h"
#include "hiddenstate/SaeStandIn.h"
#include "hiddenstate/ScoreDensity.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pl::hiddenstate {

namespace P = sae::keys::param;
namespace K = sae::keys;

namespace {

/// Activations, texts and SAEs of one run (files or stand-in).
struct Workload {
    std::vector<Eigen::MatrixXd> acts;
    TextTable texts;
    std::vector<SaeLayer> saes;
    std::string textsFile = "(stand-in corpus)";
    bool standIn = false;
};

Workload workloadFrom(const InputList& inputs, const ParamSet& p, RunContext& ctx, ResultDocument& doc) {
    Workload w;
    if (inputs.empty()) {
        SaeCorpusConfig c;
        c.domains = int(p.getInt(P::kDomains));
        c.vocab = int(p.getInt(P::kVocab));
        c.textsPerDomain = int(p.getInt(P::kTexts));
        c.layers = int(p.getInt(P::kLayers));
        c.lastToken = p.getString(P::kPooling) == "last";
        c.lmSteps = int(p.getInt(P::kLmSteps));
        SaeCorpus s = makeSaeCorpus(c, Rng(ctx.seed()), [&](double f) {
            ctx.throwIfCancelled();
            ctx.progress(0.5 * f, "stand-in LM");
        });
        w.acts = std::move(s.activations);
        w.texts = {s.ids, s.domain, s.split};
        w.standIn = true;
        doc.series[K::series::kLmLoss] = emptySeries("training step", "next-token cross-entropy (nats)");
        for (size_t i = 0; i < s.lmLoss.size(); ++i)
            addPoint(doc.series[K::series::kLmLoss], double(10 * (i + 1)), s.lmLoss[i]);
        doc.notes.push_back(
            "stand-in: topic grammars + token salad through a tiny residual-MLP LM, not Gemma");
        return w;
    }
    const SaeActivationsInput* a = nullptr;
    const SaeTextsInput* t = nullptr;
    const SaeModelInput* m = nullptr;
    for (const auto& in : inputs) {
        const LoadedInput* x = in.get();
        if (auto* q = dynamic_cast<const SaeActivationsInput*>(x); q && !a)
            a = q;
        else if (auto* r = dynamic_cast<const SaeTextsInput*>(x); r && !t)
            t = r;
        else if (auto* s = dynamic_cast<const SaeModelInput*>(x); s && !m)
            m = s;
        else
            throw InputError(in->path,
                             "one activations .npy, one texts .csv and at most one SAE .npz per run");
    }
    if (!a || !t)
        throw InputError(inputs[0]->path,
                         "needs an activations .npy [L, N, d] and a texts .csv (id,domain,split)");
    const auto N = a->layers[0].rows(), d = a->layers[0].cols();
    if (Eigen::Index(t->table.ids.size()) != N)
        throw InputError(t->path, "has " + std::to_string(t->table.ids.size()) + " texts but " + a->path +
                                      " has N = " + std::to_string(N));
    w.acts = a->layers;
    w.texts = t->table;
    w.textsFile = t->path;
    if (m) {
        if (m->layers.size() != a->layers.size())
            throw InputError(m->path, "SAEs for L = " + std::to_string(m->layers.size()) + " layers but " +
                                          a->path + " has L = " + std::to_string(a->layers.size()));
        if (m->layers[0].encoder.rows() != d)
            throw InputError(m->path, "array 'W_enc': d = " + std::to_string(m->layers[0].encoder.rows()) +
                                          " but " + a->path + " has d = " + std::to_string(d));
        w.saes = m->layers;
    }
    return w;
}

double aurocOn(const std::vector<double>& s, const std::vector<int>& rows, const std::vector<char>& pos) {
    std::vector<double> v;
    std::vector<char> y;
    for (int r : rows) {
        v.push_back(s[size_t(r)]);
        y.push_back(pos[size_t(r)]);
    }
    return rankAuroc(v, y);
}

LayerCodes codesAt(const std::vector<Eigen::MatrixXd>& pre, int k) {
    LayerCodes c;
    for (const Eigen::MatrixXd& p : pre)
        c.push_back(topKCodes(p, k));
    return c;
}

std::vector<double> markovScores(const LayerCodes& codes, const std::vector<int>& idTrain, int m,
                                 double alpha, MarkovTransitions* keep) {
    MarkovTransitions mk;
    mk.fit(codes, idTrain, m, alpha);
    std::vector<double> s;
    for (size_t x = 0; x < codes[0].size(); ++x)
        s.push_back(mk.score(codes, int(x)));
    if (keep)
        *keep = mk;
    return s;
}

/// Matrices of the transition on the 16 most used features and the raster of two texts.
void packViews(const LayerCodes& codes, const MarkovTransitions& mk, const std::vector<int>& idTrain,
               int idText, int oodText, ResultDocument& doc) {
    const int m = int(mk.logInitial().size());
    std::vector<std::pair<double, int>> use0(static_cast<size_t>(m)), use1(static_cast<size_t>(m));
    for (int i = 0; i < m; ++i)
        use0[size_t(i)] = use1[size_t(i)] = {0.0, i};
    for (int x : idTrain) {
        for (size_t a = 0; a < codes[0][size_t(x)].index.size(); ++a)
            use0[size_t(codes[0][size_t(x)].index[a])].first -= codes[0][size_t(x)].weight[a];
        if (codes.size() > 1)
            for (size_t a = 0; a < codes[1][size_t(x)].index.size(); ++a)
                use1[size_t(codes[1][size_t(x)].index[a])].first -= codes[1][size_t(x)].weight[a];
    }
    std::sort(use0.begin(), use0.end());
    std::sort(use1.begin(), use1.end());
    const int T = std::min(16, m);
    if (codes.size() > 1) {
        Eigen::MatrixXd tr(T, T);
        std::vector<std::string> rl, cl;
        for (int a = 0; a < T; ++a) {
            rl.push_back("L1 f" + std::to_string(use0[size_t(a)].second));
            cl.push_back("L2 f" + std::to_string(use1[size_t(a)].second));
            for (int b = 0; b < T; ++b)
                tr(a, b) = std::exp(mk.logTransition(0)(use0[size_t(a)].second, use1[size_t(b)].second));
        }
        doc.matrices[K::matrix::kTransition] = matrixOf(tr, rl, cl);
    }
    std::vector<int> feats;
    for (int x : {idText, oodText})
        if (x >= 0)
            for (const auto& layer : codes)
                for (int i : layer[size_t(x)].index)
                    feats.push_back(i);
    std::sort(feats.begin(), feats.end());
    feats.erase(std::unique(feats.begin(), feats.end()), feats.end());
    std::vector<std::string> fl;
    for (int f : feats)
        fl.push_back("f" + std::to_string(f));
    for (int which = 0; which < 2; ++which) {
        const int x = which == 0 ? idText : oodText;
        if (x < 0 || feats.empty())
            continue;
        Eigen::MatrixXd r = Eigen::MatrixXd::Zero(Eigen::Index(codes.size()), Eigen::Index(feats.size()));
        for (size_t l = 0; l < codes.size(); ++l)
            for (size_t a = 0; a < codes[l][size_t(x)].index.size(); ++a) {
                const auto at = std::lower_bound(feats.begin(), feats.end(), codes[l][size_t(x)].index[a]);
                r(Eigen::Index(l), Eigen::Index(at - feats.begin())) = codes[l][size_t(x)].weight[a];
            }
        doc.matrices[which == 0 ? K::matrix::kRasterId : K::matrix::kRasterOod] =
            matrixOf(r, numberedLabels("layer ", r.rows()), fl);
    }
}

/// The claims of spec §18 from the metrics and the AUROC-vs-k points.
void packClaims(std::map<int, double>& byK, bool standIn, ResultDocument& doc) {
    auto& M = doc.metrics;
    const double mkA = M[K::metric::kAurocMarkov], nb = M[K::metric::kAurocNaiveBayes],
                 farA = M[K::metric::kAurocFarOod];
    const bool c1 = mkA >= nb - 0.01 && (!standIn || farA >= 0.85);
    doc.claims.push_back(
        claimOf(K::claim::kMarkovVsBaseline,
                "Markov-transition AUROC >= the best single-layer SAE baseline (naive Bayes on codes) - "
                "0.01, and >= 0.85 on far-OOD (stand-in: token salad).",
                c1, mkA - nb, -0.01,
                "Markov " + formatFixed(mkA, 3) + ", best naive Bayes layer " + formatFixed(nb, 3) +
                    ", far-OOD " + (standIn ? formatFixed(farA, 3) : std::string("not defined for files"))));
    if (byK.count(1) && byK.count(10) && byK.count(64)) {
        const double best = std::max(byK[1], byK[64]);
        doc.claims.push_back(
            claimOf(K::claim::kModerateK, "AUROC(k = 10) >= max(AUROC(k = 1), AUROC(k = 64)) - 0.02.",
                    byK[10] >= best - 0.02, byK[10] - best, -0.02,
                    "k = 1: " + formatFixed(byK[1], 3) + ", k = 10: " + formatFixed(byK[10], 3) +
                        ", k = 64: " + formatFixed(byK[64], 3)));
    }
    const double gA = M[K::metric::kAurocGru];
    doc.claims.push_back(claimOf(K::claim::kGruReport,
                                 "Report: Markov vs GRU backend (both AUROCs measured).",
                                 std::isfinite(mkA) && std::isfinite(gA), mkA - gA, 0,
                                 "Markov " + formatFixed(mkA, 3) + ", GRU " + formatFixed(gA, 3)));
}

} // namespace

std::vector<ParamSpec> SaeDomainEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    ParamSpec inDomain;
    inDomain.key = P::kInDomain;
    inDomain.label = "in-domain label";
    inDomain.type = ParamType::String;
    inDomain.defaultValue = std::string();
    inDomain.help = "domain treated as in-domain (empty: the domain of the first train row)";
    inDomain.group = "detector";
    return {
        grp(ParamSpec::integer(P::kK, "k", 1, 256, 10, "active SAE latents kept per layer"), "detector"),
        grp(ParamSpec::real(P::kAlpha, "alpha", 1e-4, 10, 0.1, "additive smoothing of the counts", {}, true),
            "detector"),
        inDomain,
        grp(ParamSpec::choice(P::kBackend, "backend", {"markov", "gru"}, "markov",
                              "detector whose scores fill 'score'"),
            "detector"),
        grp(ParamSpec::integer(P::kDomains, "domains", 2, 20, 6, "stand-in: topic grammars"), "stand-in"),
        grp(ParamSpec::integer(P::kVocab, "vocabulary", 200, 5000, 800, "stand-in: tokens"), "stand-in"),
        grp(ParamSpec::integer(P::kTexts, "texts per domain", 40, 10000, 500, "stand-in: 70 % train"),
            "stand-in"),
        grp(ParamSpec::integer(P::kLayers, "layers", 2, 12, 6, "stand-in: residual MLP blocks"), "stand-in"),
        grp(ParamSpec::integer(P::kSaeWidth, "SAE width", 1, 32, 8, "latents m = width x d (trained SAEs)"),
            "SAE"),
        grp(ParamSpec::choice(P::kPooling, "pooling", {"mean", "last"}, "mean",
                              "stand-in: pool positions by mean or last"),
            "stand-in"),
        grp(ParamSpec::integer(P::kLmSteps, "LM steps", 10, 5000, 200, "stand-in: Adam steps of 128 windows"),
            "stand-in"),
        grp(ParamSpec::integer(P::kSaeSteps, "SAE steps", 10, 5000, 60, "Adam steps of 128 rows per layer"),
            "SAE"),
    };
}

std::shared_ptr<const LoadedInput> SaeDomainEngine::load(const std::string& path) const {
    if (lowerExtension(path) == "npy") {
        auto in = std::make_shared<SaeActivationsInput>();
        in->layers = activationsFromNpy(NpyReader::readFile(path), path);
        in->path = path;
        in->kind = "npy";
        in->summary = "activations L = " + std::to_string(in->layers.size()) +
                      ", N = " + std::to_string(in->layers[0].rows()) +
                      ", d = " + std::to_string(in->layers[0].cols());
        return in;
    }
    if (lowerExtension(path) == "npz") {
        auto in = std::make_shared<SaeModelInput>();
        in->layers = saeFromArchive(NpzReader::readFile(path));
        in->path = path;
        in->kind = "npz";
        in->summary = "SAEs for " + std::to_string(in->layers.size()) +
                      " layers, m = " + std::to_string(in->layers[0].width());
        return in;
    }
    auto in = std::make_shared<SaeTextsInput>();
    in->table = readTextTable(path);
    in->path = path;
    in->kind = "csv";
    in->summary = std::to_string(in->table.ids.size()) + " texts";
    return in;
}

ResultDocument SaeDomainEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    Workload w = workloadFrom(inputs, p, ctx, doc);
    const int k = int(p.getInt(P::kK)), L = int(w.acts.size()), N = int(w.acts[0].rows());
    const double alpha = p.getDouble(P::kAlpha);
    std::string inDomain = p.getString(P::kInDomain);
    std::vector<int> trainRows, testRows, idTrain;
    for (int i = 0; i < N; ++i)
        (w.texts.split[size_t(i)] == "train" ? trainRows : testRows).push_back(i);
    if (inDomain.empty() && !trainRows.empty())
        inDomain = w.texts.domain[size_t(trainRows[0])];
    std::vector<char> pos(static_cast<size_t>(N));
    for (int i = 0; i < N; ++i)
        pos[size_t(i)] = char(w.texts.domain[size_t(i)] == inDomain);
    for (int i : trainRows)
        if (pos[size_t(i)])
            idTrain.push_back(i);
    if (idTrain.empty())
        throw InputError(w.textsFile, "no in-domain ('" + inDomain + "') text in the train split");
    if (testRows.empty())
        throw InputError(w.textsFile, "no text in the test split");
    if (int(idTrain.size()) < 10 * k)
        doc.notes.push_back("warning: only " + std::to_string(idTrain.size()) +
                            " in-domain train texts (< 10 k = " + std::to_string(10 * k) +
                            "): sparse transitions");
    if (w.saes.empty()) {
        const int m = int(p.getInt(P::kSaeWidth)) * int(w.acts[0].cols());
        const Rng root = Rng(ctx.seed()).fork("sae");
        for (int l = 0; l < L; ++l) {
            ctx.throwIfCancelled();
            w.saes.push_back(trainTopKSae(w.acts[size_t(l)], trainRows, m, k, int(p.getInt(P::kSaeSteps)),
                                          root.fork("layer" + std::to_string(l))));
            ctx.progress(0.5 + 0.2 * (l + 1) / L, "SAEs");
        }
    }
    const int m = w.saes[0].width();
    std::vector<Eigen::MatrixXd> pre;
    for (int l = 0; l < L; ++l) {
        pre.push_back(saePreActivations(w.saes[size_t(l)], w.acts[size_t(l)]));
        doc.vectors[K::vector::kFvu].push_back(fractionUnexplained(w.saes[size_t(l)], w.acts[size_t(l)], k));
        doc.vectors[K::vector::kDead].push_back(deadFraction(pre.back(), k));
    }
    const LayerCodes codes = codesAt(pre, k);
    MarkovTransitions mk;
    const std::vector<double> markov = markovScores(codes, idTrain, m, alpha, &mk);
    ctx.throwIfCancelled();
    GruConfig gc;
    const std::vector<double> gru =
        gruScores(codes, idTrain, m, gc, Rng(ctx.seed()).fork("gru"), [&] { ctx.throwIfCancelled(); });
    const bool useGru = p.getString(P::kBackend) == "gru";
    doc.vectors[K::vector::kScore] = useGru ? gru : markov;
    auto& M = doc.metrics;
    M[K::metric::kAurocMarkov] = aurocOn(markov, testRows, pos);
    M[K::metric::kAurocGru] = aurocOn(gru, testRows, pos);
    {
        std::vector<double> v;
        std::vector<char> y;
        for (int r : testRows) {
            v.push_back(markov[size_t(r)]);
            y.push_back(pos[size_t(r)]);
        }
        M[K::metric::kFpr95Markov] = fprAtTpr(v, y, 0.95);
        addDensities(v, y, useGru ? "gru" : "markov", K::series::kDensityIdPrefix,
                     K::series::kDensityOodPrefix, doc);
        if (useGru) {
            v.clear();
            for (int r : testRows)
                v.push_back(gru[size_t(r)]);
            addDensities(v, y, "gru", K::series::kDensityIdPrefix, K::series::kDensityOodPrefix, doc);
        }
    }
    std::vector<int> far;
    for (int r : testRows)
        if (pos[size_t(r)] || (w.standIn && w.texts.domain[size_t(r)] == "salad"))
            far.push_back(r);
    M[K::metric::kAurocFarOod] = w.standIn ? aurocOn(markov, far, pos) : kNaN;
    ctx.progress(0.8, "baselines");
    Eigen::MatrixXd layerAuc(L, 3);
    for (int l = 0; l < L; ++l) {
        ctx.throwIfCancelled();
        layerAuc(l, 0) = aurocOn(naiveBayesScores(codes[size_t(l)], idTrain, m, alpha), testRows, pos);
        layerAuc(l, 1) = aurocOn(mahalanobisScores(w.acts[size_t(l)], idTrain), testRows, pos);
        layerAuc(l, 2) = aurocOn(knnScores(w.acts[size_t(l)], idTrain, testRows, 5), testRows, pos);
    }
    doc.matrices[K::matrix::kLayerAuroc] =
        matrixOf(layerAuc, numberedLabels("layer ", L), {"naive Bayes (codes)", "Mahalanobis", "kNN (5)"});
    M[K::metric::kAurocNaiveBayes] = layerAuc.col(0).maxCoeff();
    M[K::metric::kAurocMahalanobis] = layerAuc.col(1).maxCoeff();
    M[K::metric::kAurocKnn] = layerAuc.col(2).maxCoeff();
    M[K::metric::kInDomainTrain] = double(idTrain.size());
    M[K::metric::kTestRows] = double(testRows.size());
    doc.vectors[K::vector::kAurocMethods] = {M[K::metric::kAurocMarkov], M[K::metric::kAurocGru],
                                             M[K::metric::kAurocNaiveBayes], M[K::metric::kAurocMahalanobis],
                                             M[K::metric::kAurocKnn]};
    Series sk = emptySeries("k (active latents per layer)", "Markov AUROC (test split)");
    std::map<int, double> byK;
    for (int kk : {1, 2, 5, 10, 20, 32, 64})
        if (kk <= m) {
            ctx.throwIfCancelled();
            byK[kk] =
                kk == k ? M[K::metric::kAurocMarkov]
                        : aurocOn(markovScores(codesAt(pre, kk), idTrain, m, alpha, nullptr), testRows, pos);
            addPoint(sk, kk, byK[kk]);
        }
    doc.series[K::series::kAurocVsK] = sk;
    int idText = -1, oodText = -1;
    for (int r : testRows) {
        int& slot = pos[size_t(r)] ? idText : oodText;
        if (slot < 0)
            slot = r;
    }
    packViews(codes, mk, idTrain, idText, oodText, doc);
    packClaims(byK, w.standIn, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::hiddenstate
