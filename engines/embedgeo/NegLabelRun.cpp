#include "NegLabelRun.h"

#include "DroDuals.h"
#include "EmbedGeometry.h"
#include "NegLabelOodKeys.h"
#include "NegLabelScoring.h"
#include "RocMetrics.h"

#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::embedgeo {

namespace K = negood::keys;
namespace P = negood::keys::param;

namespace {

const double kRhoGrid[] = {0, 0.25, 0.5, 1, 2, 3, 5};
const double kAlphaGrid[] = {1.5, 2, 3, 5, 10};
const int kOutlierSteps[] = {0, 5, 10, 20, 50};

Eigen::MatrixXd stackRows(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    Eigen::MatrixXd m(a.rows() + b.rows(), a.cols());
    m << a, b;
    return m;
}

double mean(const std::vector<double>& v) {
    return v.empty() ? kNaN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

/// Density histogram of \a v on [lo, hi] with \a bins bins (bin centres, densities).
Series histogram(const std::vector<double>& v, const std::vector<int>& isId, int want, double lo, double hi,
                 const std::string& xlabel) {
    const int bins = 40;
    std::vector<double> x(bins), y(bins, 0.0);
    const double w = (hi - lo) / bins;
    double n = 0;
    for (size_t i = 0; i < v.size(); ++i)
        if (isId[i] == want) {
            const int b = std::clamp(int((v[i] - lo) / (w > 0 ? w : 1)), 0, bins - 1);
            y[size_t(b)] += 1;
            n += 1;
        }
    for (int b = 0; b < bins; ++b) {
        x[size_t(b)] = lo + (b + 0.5) * w;
        y[size_t(b)] = n > 0 && w > 0 ? y[size_t(b)] / (n * w) : 0.0;
    }
    return seriesOf(x, y, xlabel, "density");
}

} // namespace

NegLabelRun::NegLabelRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc)
    : m_p(p), m_ctx(ctx), m_doc(doc) {}

void NegLabelRun::buildData(const InputList& inputs) {
    Rng rng(m_ctx.seed());
    if (!inputs.empty()) {
        m_clean = assembleNegLabel(inputs);
        m_doc.notes = m_clean.notes;
        // Clean validation data for tuning ρ: a 30% split of the user's images (same labels).
        Rng rs = rng.fork("validation-split");
        NegLabelData val = m_clean;
        std::vector<int> take;
        for (size_t i = 0; i < m_clean.isId.size(); ++i)
            if (rs.uniform() < 0.3)
                take.push_back(int(i));
        if (take.size() >= 4) {
            val.images.resize(Eigen::Index(take.size()), m_clean.images.cols());
            val.isId.clear();
            for (size_t t = 0; t < take.size(); ++t) {
                val.images.row(Eigen::Index(t)) = m_clean.images.row(take[t]);
                val.isId.push_back(m_clean.isId[size_t(take[t])]);
            }
        }
        m_validation = val;
        Rng ro = rng.fork("outliers");
        m_outlierBank = makeSynonymOutliers(m_clean.idText, 50, ro);
        m_doc.notes.push_back("rho for the claims is tuned on a random 30% of the file's images");
    } else {
        NegLabelWorldSpec s;
        s.concepts = int(m_p.getInt(P::kConcepts));
        s.dim = int(m_p.getInt(P::kDim));
        s.idClasses = int(m_p.getInt(P::kIdClasses));
        s.negatives = int(m_p.getInt(P::kNegatives));
        s.imagesPerSide = int(m_p.getInt(P::kImages));
        s.openWorldBias = m_p.getDouble(P::kOpenWorldBias);
        if (s.idClasses >= s.concepts)
            throw UsageError("id_classes must be smaller than concepts");
        Rng rw = rng.fork("world");
        NegLabelWorld w = makeNegLabelWorld(s, rw);
        m_clean = std::move(w.test);
        m_validation = std::move(w.validation);
        m_outlierBank = std::move(w.outlierBank);
    }
    const int nc = int(m_p.getInt(P::kNegCount));
    m_clean.negText = mineNegatives(m_clean.negText, m_clean.idText, nc);
    m_validation.negText = m_clean.negText;
    m_test = m_clean;
    const int out = int(m_p.getInt(P::kOutliers));
    if (out > 0)
        m_test.negText = stackRows(m_clean.negText,
                                   m_outlierBank.topRows(std::min<Eigen::Index>(out, m_outlierBank.rows())));
    m_doc.metrics[K::metric::kNegatives] = double(m_test.negText.rows());
    m_doc.metrics[K::metric::kImages] = double(m_test.images.rows());
    m_ctx.progress(0.1, "data");
}

void NegLabelRun::mainScores() {
    ScoreOptions o;
    o.tau = m_p.getDouble(P::kTau);
    o.rhoKl = o.rhoRenyi = m_p.getDouble(P::kRho);
    o.alpha = m_p.getDouble(P::kAlpha);
    o.groups = int(m_p.getInt(P::kGroups));
    o.groupSeed = Rng(m_ctx.seed()).fork("groups").next();
    const ScoreSet s = scoreImages(m_test.idText, m_test.negText, m_test.images, o, m_ctx);
    // Mean ESS of the worst cases on a subsample (the weights need a bisection per image).
    const NegLabelData sub = subsample(m_test, 300, "ess");
    ScoreOptions e = o;
    e.neglabel = e.kl = e.renyi = false;
    e.ess = true;
    const ScoreSet es = scoreImages(sub.idText, sub.negText, sub.images, e, m_ctx);
    const std::vector<double>* v[] = {&s.neglabel, &s.kl, &s.renyi};
    std::vector<double> isId(m_test.isId.begin(), m_test.isId.end());
    m_doc.vectors[K::vector::kIsId] = isId;
    for (int m = 0; m < 3; ++m) {
        const char* name = K::kMethods[m];
        m_doc.vectors[K::key(K::vector::kScorePrefix, name)] = *v[m];
        m_doc.metrics[K::key(K::metric::kAurocPrefix, name)] = auroc(*v[m], m_test.isId);
        m_doc.metrics[K::key(K::metric::kFpr95Prefix, name)] = fpr95(*v[m], m_test.isId);
        const RocCurve r = rocCurve(*v[m], m_test.isId);
        m_doc.series[K::key(K::series::kRocPrefix, name)] =
            seriesOf(r.fpr, r.tpr, "false-positive rate (OOD called ID)", "true-positive rate (ID kept)");
        const auto [lo, hi] = std::minmax_element(v[m]->begin(), v[m]->end());
        const std::string xl = m == 0 ? "NegLabel score (ID probability mass)" : "energy margin S";
        m_doc.series[K::key(K::series::kHistIdPrefix, name)] = histogram(*v[m], m_test.isId, 1, *lo, *hi, xl);
        m_doc.series[K::key(K::series::kHistOodPrefix, name)] =
            histogram(*v[m], m_test.isId, 0, *lo, *hi, xl);
    }
    m_doc.metrics[K::metric::kEssKl] = mean(es.essKl);
    m_doc.metrics[K::metric::kEssRenyi] = mean(es.essRenyi);
    m_ctx.progress(0.35, "scores");
}

void NegLabelRun::pickedWeights() {
    const Eigen::Index i = std::min<Eigen::Index>(m_p.getInt(P::kPick), m_test.images.rows() - 1);
    const Eigen::VectorXd sn = cosineMatrix(m_test.images.row(i), m_test.negText).row(0).transpose();
    const double rho = m_p.getDouble(P::kRho), alpha = m_p.getDouble(P::kAlpha);
    const Eigen::VectorXd qk = klWeights(sn, rho), qr = renyiWeights(sn, alpha, rho);
    m_doc.vectors[K::vector::kWeightsKl] = toStd(qk);
    m_doc.vectors[K::vector::kWeightsRenyi] = toStd(qr);
    m_doc.vectors[K::vector::kPickNegSim] = toStd(sn);
    m_doc.metrics[K::metric::kEssPickKl] = effectiveSampleSize(qk);
    m_doc.metrics[K::metric::kEssPickRenyi] = effectiveSampleSize(qr);
    m_doc.metrics[K::metric::kPickIsId] = m_test.isId[size_t(i)];
}

NegLabelData NegLabelRun::subsample(const NegLabelData& d, int perSide, const char* stream) const {
    Rng r = Rng(m_ctx.seed()).fork(stream);
    std::vector<int> ids, oods;
    for (size_t i = 0; i < d.isId.size(); ++i)
        (d.isId[i] ? ids : oods).push_back(int(i));
    auto pick = [&](std::vector<int>& v) {
        for (size_t i = v.size(); i > 1; --i)
            std::swap(v[i - 1], v[size_t(r.uniformInt(uint64_t(i)))]);
        if (int(v.size()) > perSide)
            v.resize(size_t(perSide));
    };
    pick(ids);
    pick(oods);
    ids.insert(ids.end(), oods.begin(), oods.end());
    std::sort(ids.begin(), ids.end());
    NegLabelData s = d;
    s.images.resize(Eigen::Index(ids.size()), d.images.cols());
    s.isId.clear();
    for (size_t t = 0; t < ids.size(); ++t) {
        s.images.row(Eigen::Index(t)) = d.images.row(ids[t]);
        s.isId.push_back(d.isId[size_t(ids[t])]);
    }
    return s;
}

void NegLabelRun::alphaRhoMap() {
    const NegLabelData sub = subsample(m_test, 150, "map");
    ScoreOptions o;
    o.tau = m_p.getDouble(P::kTau);
    o.neglabel = o.kl = false;
    const int na = int(std::size(kAlphaGrid)), nr = int(std::size(kRhoGrid));
    Eigen::MatrixXd A(na, nr);
    for (int a = 0; a < na; ++a)
        for (int r = 0; r < nr; ++r) {
            o.alpha = kAlphaGrid[a];
            o.rhoRenyi = kRhoGrid[r];
            A(a, r) = auroc(scoreImages(sub.idText, sub.negText, sub.images, o, m_ctx).renyi, sub.isId);
            m_ctx.progress(0.35 + 0.3 * double(a * nr + r + 1) / double(na * nr), "alpha-rho map");
        }
    std::vector<std::string> rl, cl;
    for (double a : kAlphaGrid)
        rl.push_back("alpha " + formatSignificant(a, 3));
    for (double r : kRhoGrid)
        cl.push_back("rho " + formatSignificant(r, 3));
    m_doc.matrices[K::matrix::kAurocAlphaRho] = matrixOf(A, rl, cl);
    m_doc.vectors[K::vector::kAlphaGrid] = std::vector<double>(std::begin(kAlphaGrid), std::end(kAlphaGrid));
    m_doc.vectors[K::vector::kRhoGrid] = std::vector<double>(std::begin(kRhoGrid), std::end(kRhoGrid));
}

double NegLabelRun::tunedRho(bool renyi, double alpha, std::vector<double>* aurocs) const {
    ScoreOptions o;
    o.tau = m_p.getDouble(P::kTau);
    o.alpha = alpha;
    o.neglabel = false;
    o.kl = !renyi;
    o.renyi = renyi;
    double best = -1, bestRho = 0;
    for (double rho : kRhoGrid) {
        o.rhoKl = o.rhoRenyi = rho;
        const ScoreSet s =
            scoreImages(m_validation.idText, m_validation.negText, m_validation.images, o, m_ctx);
        const double a = auroc(renyi ? s.renyi : s.kl, m_validation.isId);
        if (aurocs)
            aurocs->push_back(a);
        if (a > best + 1e-12) {
            best = a;
            bestRho = rho;
        }
    }
    return bestRho;
}

void NegLabelRun::claims() {
    const double alpha = m_p.getDouble(P::kAlpha);
    std::vector<double> aKl, aRe;
    const double rhoKl = tunedRho(false, alpha, &aKl), rhoRe = tunedRho(true, alpha, &aRe);
    m_doc.metrics[K::metric::kRhoKlTuned] = rhoKl;
    m_doc.metrics[K::metric::kRhoRenyiTuned] = rhoRe;
    m_ctx.progress(0.75, "tuning rho");
    const NegLabelData sub = subsample(m_clean, 400, "claims");
    ScoreOptions o;
    o.tau = m_p.getDouble(P::kTau);
    o.alpha = alpha;
    o.rhoKl = rhoKl;
    o.rhoRenyi = rhoRe;
    o.groups = int(m_p.getInt(P::kGroups));
    o.groupSeed = Rng(m_ctx.seed()).fork("groups").next();
    double clean[3] = {0, 0, 0}, at10[3] = {0, 0, 0};
    for (int m = 0; m < 3; ++m)
        m_doc.series[K::key(K::series::kDeltaVsOutliersPrefix, K::kMethods[m])] =
            emptySeries("synonym outliers among the negatives", "AUROC drop (clean - with outliers)");
    for (int step : kOutlierSteps) {
        const int n = std::min<int>(step, int(m_outlierBank.rows()));
        const Eigen::MatrixXd neg = n > 0 ? stackRows(sub.negText, m_outlierBank.topRows(n)) : sub.negText;
        const ScoreSet s = scoreImages(sub.idText, neg, sub.images, o, m_ctx);
        const double a[3] = {auroc(s.neglabel, sub.isId), auroc(s.kl, sub.isId), auroc(s.renyi, sub.isId)};
        for (int m = 0; m < 3; ++m) {
            if (step == 0)
                clean[m] = a[m];
            if (step == 10)
                at10[m] = a[m];
            addPoint(m_doc.series[K::key(K::series::kDeltaVsOutliersPrefix, K::kMethods[m])], step,
                     clean[m] - a[m]);
        }
        m_ctx.progress(0.75 + 0.03 * step / 10.0, "outlier study");
    }
    double delta[3];
    for (int m = 0; m < 3; ++m) {
        delta[m] = clean[m] - at10[m];
        m_doc.metrics[K::key(K::metric::kDeltaPrefix, K::kMethods[m])] = delta[m];
    }
    const bool robust = delta[2] < 0.5 * delta[1] && delta[2] < delta[0];
    m_doc.claims.push_back(claimOf(
        K::claim::kOutlierRobust,
        "After injecting 10 near-synonym outlier negatives, the Renyi score's AUROC drop is below half the "
        "exact-KL drop and below NegLabel's (rho tuned on clean validation data).",
        robust, delta[2], 0.5 * delta[1],
        "AUROC drops on " + std::to_string(sub.images.rows()) + " test images: NegLabel " +
            formatSignificant(delta[0], 3) + ", KL (rho " + formatSignificant(rhoKl, 3) + ") " +
            formatSignificant(delta[1], 3) + ", Renyi (alpha " + formatSignificant(alpha, 3) + ", rho " +
            formatSignificant(rhoRe, 3) + ") " + formatSignificant(delta[2], 3) +
            "; threshold = KL drop / 2."));
    // ESS at matched clean validation AUROC: the Rényi ρ whose AUROC is closest to the tuned KL one.
    const double target = *std::max_element(aKl.begin(), aKl.end());
    size_t best = 0;
    for (size_t r = 0; r < aRe.size(); ++r)
        if (std::abs(aRe[r] - target) < std::abs(aRe[best] - target))
            best = r;
    ScoreOptions e = o;
    e.neglabel = e.kl = e.renyi = false;
    e.ess = true;
    e.rhoRenyi = kRhoGrid[best];
    const ScoreSet es = scoreImages(sub.idText, sub.negText, sub.images, e, m_ctx);
    const double essKl = mean(es.essKl), essRe = mean(es.essRenyi);
    m_doc.claims.push_back(
        claimOf(K::claim::kLessPessimistic,
                "At matched clean AUROC the Renyi worst case spreads its weight over more negatives (larger "
                "effective "
                "sample size 1/sum q^2) than the KL worst case.",
                essRe > essKl, essRe, essKl,
                "mean ESS over " + std::to_string(sub.images.rows()) + " clean test images: Renyi (rho " +
                    formatSignificant(kRhoGrid[best], 3) + ", validation AUROC " +
                    formatSignificant(aRe[best], 4) + ") " + formatSignificant(essRe, 4) + " vs KL (rho " +
                    formatSignificant(rhoKl, 3) + ", validation AUROC " + formatSignificant(target, 4) +
                    ") " + formatSignificant(essKl, 4) + "; threshold = the KL ESS."));
}

} // namespace pl::embedgeo
