#include "AporiaRun.h"

#include "AporiaKeys.h"
#include "EmbedGeometry.h"
#include "ResponseWorld.h"
#include "RocMetrics.h"
#include "TfIdf.h"

#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::embedgeo {

namespace K = aporia::keys;
namespace P = aporia::keys::param;

namespace {

constexpr int kDraws = 5;            ///< label draws behind every reported F1
constexpr int kCurveDraws = 3;       ///< label draws per point of F1 vs labels
constexpr double kFisherRidge = 1.0; ///< λ of (S_W + λI) on standardised inputs
const int kLabelCounts[] = {10, 20, 40, 80, 160};
const double kAsymmetries[] = {0, 0.25, 0.5, 0.75, 1};

double meanOf(const std::vector<double>& v) {
    return v.empty() ? kNaN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

} // namespace

AporiaRun::AporiaRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc)
    : m_p(p), m_ctx(ctx), m_doc(doc) {}

void AporiaRun::buildData(const InputList& inputs) {
    Rng rng(m_ctx.seed());
    const ResponseJsonlInput* jl = nullptr;
    const EmbeddingInput* em = nullptr;
    for (const auto& in : inputs) {
        if (const auto* j = dynamic_cast<const ResponseJsonlInput*>(in.get())) {
            if (jl)
                throw InputError(j->path,
                                 "only one .jsonl of responses may be given (also " + jl->path + ")");
            jl = j;
        } else if (const auto* e = dynamic_cast<const EmbeddingInput*>(in.get())) {
            if (em)
                throw InputError(e->path, "only one embedding matrix may be given (also " + em->path + ")");
            em = e;
        }
    }
    if (em && !jl)
        throw InputError(em->path, "embeddings need the .jsonl of responses they belong to");
    if (jl) {
        m_set = jl->set;
        if (em) {
            if (em->emb.rows() != Eigen::Index(m_set.text.size()))
                throw InputError(em->path, "count mismatch: " + std::to_string(em->emb.rows()) +
                                               " embedding rows for " + std::to_string(m_set.text.size()) +
                                               " responses in " + jl->path);
            m_set.emb = em->emb;
            const int changed = normaliseRows(m_set.emb, em->path, "embeddings");
            if (changed > 0)
                m_doc.notes.push_back(std::to_string(changed) +
                                      " embedding rows were renormalised to unit length");
        } else {
            const TfIdfMatrix t = tfidf(m_set.text);
            for (size_t i = 0; i < t.rows.size(); ++i)
                if (t.rows[i].empty())
                    throw InputError(jl->path,
                                     "response has no word of two or more characters (TF-IDF row is zero)",
                                     m_set.line[i]);
            Rng rp = rng.fork("projection");
            m_set.emb = randomProjection(t, 256, rp);
            m_doc.notes.push_back("embeddings: TF-IDF (1-2 grams) projected to 256 dimensions, weaker than a "
                                  "sentence encoder");
        }
        int h = 0, g = 0;
        for (int l : m_set.label)
            (l == 1 ? h : g) += l >= 0;
        if (h < 2 || g < 2)
            throw InputError(jl->path,
                             "fewer than 2 labels per class (Fisher undefined): " + std::to_string(h) +
                                 " hallucinated, " + std::to_string(g) + " genuine");
        m_evalMode = h + g == int(m_set.label.size());
    } else {
        m_standIn = true;
        ResponseWorldSpec s;
        s.prompts = int(m_p.getInt(P::kPrompts));
        s.responses = int(m_p.getInt(P::kResponses));
        s.asymmetry = m_p.getDouble(P::kAsymmetry);
        Rng rw = rng.fork("world");
        if (m_p.getString(P::kEmbedding) == "vmf") {
            m_set = makeVmfResponses(s, 256, rw);
        } else {
            m_set = makeTemplatedResponses(s, rw);
            Rng rp = rng.fork("projection");
            m_set.emb = randomProjection(tfidf(m_set.text), 256, rp);
        }
        m_evalMode = true;
    }
    if (m_evalMode && m_p.getInt(P::kNLabels) > int(m_set.text.size()) - 2)
        throw UsageError("n_labels must leave at least 2 responses to evaluate (" +
                         std::to_string(m_set.text.size()) + " responses)");
    m_ctx.progress(0.1, "embeddings");
}

void AporiaRun::geometry() {
    m_geo = promptGeometry(m_set);
    if (!m_geo.singletons.empty())
        m_doc.notes.push_back(std::to_string(m_geo.singletons.size()) +
                              " prompts have a single response: their prompt-wise features are 0");
    const Pca pca = fitPca(m_geo.centred, int(m_p.getInt(P::kPcaDim)));
    const Eigen::MatrixXd Xp = standardise(pca.project(m_geo.centred));
    m_X.resize(Xp.rows(), Xp.cols() + m_geo.features.cols());
    m_X << Xp, standardise(m_geo.features);
    m_pcs = Xp.leftCols(std::min<Eigen::Index>(2, Xp.cols()));
    m_ctx.throwIfCancelled();
    m_rawGraph = knnGraph(m_set.emb, int(m_p.getInt(P::kKnn)));
    m_doc.vectors[K::vector::kCentroidDistance] = toStd(m_geo.features.col(0));
    m_doc.vectors[K::vector::kMeanCosine] = toStd(m_geo.features.col(1));
    m_doc.vectors[K::vector::kDispersion] = toStd(m_geo.features.col(5));
    m_ctx.progress(0.3, "geometry");
}

std::vector<int> AporiaRun::drawSeeds(int nLabels, Rng& rng) const {
    std::vector<int> cls[2];
    for (size_t i = 0; i < m_set.label.size(); ++i)
        if (m_set.label[i] >= 0)
            cls[m_set.label[i]].push_back(int(i));
    for (auto& c : cls)
        for (size_t i = c.size(); i > 1; --i)
            std::swap(c[i - 1], c[size_t(rng.uniformInt(uint64_t(i)))]);
    std::vector<int> all;
    for (auto& c : cls)
        all.insert(all.end(), c.begin(), c.end());
    for (size_t i = all.size(); i > 1; --i)
        std::swap(all[i - 1], all[size_t(rng.uniformInt(uint64_t(i)))]);
    // Two of each class first, then a uniform draw of the rest.
    std::vector<int> seeds{cls[0][0], cls[0][1], cls[1][0], cls[1][1]};
    for (int i : all) {
        if (int(seeds.size()) >= nLabels)
            break;
        if (std::find(seeds.begin(), seeds.begin() + 4, i) == seeds.begin() + 4)
            seeds.push_back(i);
    }
    std::sort(seeds.begin(), seeds.end());
    return seeds;
}

AporiaDraw AporiaRun::runDraw(const std::vector<int>& seedIdx, bool keep) const {
    AporiaDraw d;
    d.seedIdx = seedIdx;
    const size_t n = m_set.label.size();
    std::vector<int> seed(n, -1);
    for (int i : seedIdx) {
        d.seedY.push_back(m_set.label[size_t(i)]);
        seed[size_t(i)] = m_set.label[size_t(i)];
    }
    d.evalMask.assign(n, 0);
    for (size_t i = 0; i < n; ++i)
        d.evalMask[i] = m_set.label[i] >= 0 && seed[i] < 0;
    const Eigen::VectorXd w = fisherDirection(m_X, seedIdx, d.seedY, kFisherRidge);
    d.fisher = m_X * w;
    const double sd = std::sqrt((d.fisher.array() - d.fisher.mean()).square().mean());
    Eigen::MatrixXd Z(Eigen::Index(n), 1 + m_pcs.cols());
    Z << (d.fisher.array() - d.fisher.mean()).matrix() / (sd > 0 ? sd : 1.0), m_pcs;
    const int k = int(m_p.getInt(P::kKnn));
    const double alpha = m_p.getDouble(P::kLpAlpha);
    LpGraph g = knnGraph(Z, k);
    d.lp = propagate(g, seed, alpha, keep ? &d.snapshots : nullptr, {0, 1, 2, 5});
    d.predicted["aporia_lp"] = argmaxLabels(d.lp.F);
    d.predicted["knn_labels"] = knnSeedVote(m_X, seedIdx, d.seedY, k);
    const Eigen::VectorXd p = logisticFitPredict(m_X, seedIdx, d.seedY);
    std::vector<int64_t> lr(n);
    for (size_t i = 0; i < n; ++i)
        lr[i] = p(Eigen::Index(i)) > 0.5 ? 1 : 0;
    d.predicted["logreg_labels"] = lr;
    d.predicted["lp_raw"] = argmaxLabels(propagate(m_rawGraph, seed, alpha).F);
    d.predicted["densest_cluster"] = densestClusterLabels(m_set, m_geo);
    if (keep) {
        d.graph = std::move(g);
        d.z = Z;
    }
    m_ctx.throwIfCancelled();
    return d;
}

std::map<std::string, double> AporiaRun::f1Of(const AporiaDraw& d) const {
    std::map<std::string, double> out;
    for (const char* m : K::kMethods)
        out[m] = f1Score(d.predicted.at(m), m_set.label, d.evalMask);
    return out;
}

void AporiaRun::evaluate() {
    const std::string method = m_p.getString(P::kMethod);
    std::map<std::string, std::vector<double>> f1;
    if (m_evalMode) {
        Rng rng = Rng(m_ctx.seed()).fork("draws");
        for (int t = 0; t < kDraws; ++t) {
            const AporiaDraw d = runDraw(drawSeeds(int(m_p.getInt(P::kNLabels)), rng), t == 0);
            for (const auto& [m, v] : f1Of(d))
                f1[m].push_back(v);
            if (t == 0)
                m_first = d;
            m_ctx.progress(0.3 + 0.3 * (t + 1) / kDraws, "label draws");
        }
    } else {
        std::vector<int> seeds;
        for (size_t i = 0; i < m_set.label.size(); ++i)
            if (m_set.label[i] >= 0)
                seeds.push_back(int(i));
        m_first = runDraw(seeds, true);
    }
    m_doc.metrics[K::metric::kF1] = meanOf(f1["aporia_lp"]);
    for (const char* m : K::kMethods)
        if (std::string(m) != "aporia_lp")
            m_doc.metrics[K::key(K::metric::kF1Prefix, m)] = meanOf(f1[m]);
    double h = 0, lab = 0;
    for (int l : m_set.label) {
        h += l == 1;
        lab += l >= 0;
    }
    const double pi = lab > 0 ? h / lab : kNaN;
    m_doc.metrics[K::metric::kHallucinationRate] = pi;
    m_doc.metrics[K::metric::kNoInformationF1] = 2 * pi / (1 + pi);
    m_doc.metrics[K::metric::kResponses] = double(m_set.text.size());
    m_doc.metrics[K::metric::kPrompts] = m_set.prompts();
    m_doc.metrics[K::metric::kSeeds] = double(m_first.seedIdx.size());
    m_doc.metrics[K::metric::kEvaluationMode] = m_evalMode ? 1 : 0;
    m_doc.metrics[K::metric::kLpIterations] = m_first.lp.iterations;
    m_doc.labels[K::label::kPredicted] = m_first.predicted.at(method);
    m_doc.labels[K::label::kTruth] = std::vector<int64_t>(m_set.label.begin(), m_set.label.end());
    std::vector<int64_t> isSeed(m_set.label.size(), 0);
    for (int i : m_first.seedIdx)
        isSeed[size_t(i)] = 1;
    m_doc.labels[K::label::kSeed] = isSeed;
    m_doc.vectors[K::vector::kFisherScore] = toStd(m_first.fisher);
}

void AporiaRun::f1VsLabels() {
    for (const char* m : K::kMethods)
        m_doc.series[K::key(K::series::kF1VsLabelsPrefix, m)] =
            emptySeries("annotated responses", "F1 (hallucinated class, unlabelled rest)");
    if (!m_evalMode)
        return;
    const int n = int(m_set.text.size());
    for (int c : kLabelCounts) {
        if (c > n - 2)
            break;
        std::map<std::string, std::vector<double>> f1;
        Rng rng = Rng(m_ctx.seed()).fork("curve-" + std::to_string(c));
        for (int t = 0; t < kCurveDraws; ++t)
            for (const auto& [m, v] : f1Of(runDraw(drawSeeds(c, rng), false)))
                f1[m].push_back(v);
        for (const char* m : K::kMethods)
            addPoint(m_doc.series[K::key(K::series::kF1VsLabelsPrefix, m)], c, meanOf(f1[m]));
        m_ctx.progress(0.6 + 0.015 * c / 10.0, "F1 vs labels");
    }
}

void AporiaRun::claims() {
    if (m_evalMode) {
        const double f1 = m_doc.metrics[K::metric::kF1];
        m_doc.claims.push_back(claimOf(
            K::claim::kF1At40,
            "With 40 annotations APORIA-LP labels the remaining responses with F1 >= 0.88 "
            "(hallucinated class; paper: > 0.90).",
            f1 >= 0.88, f1, 0.88,
            "mean F1 over " + std::to_string(kDraws) + " label draws of " +
                std::to_string(m_p.getInt(P::kNLabels)) + " seeds on " + std::to_string(m_set.text.size()) +
                " responses" +
                (m_p.getInt(P::kNLabels) == 40 ? std::string() : std::string(" (n_labels is not 40 here)")) +
                "; baselines: kNN " +
                formatSignificant(m_doc.metrics[K::key(K::metric::kF1Prefix, "knn_labels")], 3) +
                ", LP raw " + formatSignificant(m_doc.metrics[K::key(K::metric::kF1Prefix, "lp_raw")], 3) +
                ", densest cluster " +
                formatSignificant(m_doc.metrics[K::key(K::metric::kF1Prefix, "densest_cluster")], 3) + "."));
    }
    if (!m_standIn)
        return;
    Series s = emptySeries("asymmetry (vMF stand-in)", "APORIA-LP F1, 40 labels");
    std::vector<double> f;
    for (double a : kAsymmetries) {
        f.push_back(sweepAsymmetry(a));
        addPoint(s, a, f.back());
        m_ctx.progress(0.8 + 0.04 * a * 4, "asymmetry sweep");
    }
    m_doc.series[K::series::kF1VsAsymmetry] = s;
    bool monotone = true;
    for (size_t i = 1; i < f.size(); ++i)
        monotone = monotone && f[i] >= f[i - 1] - 0.03;
    const double noInfo = 2 * 0.3 / 1.3;
    const bool holds = monotone && f.front() <= noInfo + 0.1 && f.back() >= f.front() + 0.2;
    std::string detail = "F1 at asymmetry 0, .25, .5, .75, 1:";
    for (double v : f)
        detail += " " + formatSignificant(v, 3);
    detail += " (vMF stand-in, min(prompts, 60) prompts, 3 draws each); no-information level 2pi/(1+pi) = " +
              formatSignificant(noInfo, 3) +
              " at pi = 0.3; holds when F1(0) <= that + 0.1, F1(1) >= F1(0) + 0.2 "
              "and F1 does not fall by more than 0.03 between steps.";
    m_doc.claims.push_back(
        claimOf(K::claim::kDoseResponse,
                "F1 falls toward the no-information level as the genuine/hallucinated asymmetry goes "
                "to 0 (the method depends on the geometry).",
                holds, f.front(), noInfo + 0.1, detail));
}

double AporiaRun::sweepAsymmetry(double a) const {
    ParamSet p = m_p;
    p.set(P::kEmbedding, std::string("vmf"));
    p.set(P::kAsymmetry, a);
    p.set(P::kPrompts, std::min<int64_t>(m_p.getInt(P::kPrompts), 60));
    p.set(P::kNLabels, int64_t(40));
    ResultDocument scratch;
    RunContext& ctx = m_ctx;
    AporiaRun sub(p, ctx, scratch);
    sub.buildData({});
    sub.geometry();
    std::vector<double> f;
    Rng rng = Rng(m_ctx.seed()).fork("sweep");
    for (int t = 0; t < kCurveDraws; ++t)
        f.push_back(sub.f1Of(sub.runDraw(sub.drawSeeds(40, rng), false)).at("aporia_lp"));
    return meanOf(f);
}

} // namespace pl::embedgeo
