#include "equicov/EquivariantCovarianceEngine.h"

#include "equicov/CovarianceModels.h"
#include "equicov/Densities.h"
#include "equicov/EquivariantCovarianceKeys.h"
#include "equicov/Features.h"
#include "equicov/ShapeGenerator.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/PathUtil.h"
#include "core/ResultBuilders.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace pl::equicov {

namespace {
namespace P = keys::param;
namespace M = keys::metric;
namespace S = keys::series;
namespace X = keys::matrix;
namespace V = keys::vector;
namespace C = keys::claim;

constexpr int kMaxRows = 200;
constexpr int kTrials = 100;

struct Settings {
    int samples = 1000;
    ShapeSettings shapes;
    TrainConfig train;
    bool fitOnInput = false, robustness = true;
    int shown = 0;
    double rotateDeg = 0;
};

Settings settingsFrom(const ParamSet& p) {
    Settings s;
    s.samples = int(p.getInt(P::kSamples));
    s.shapes.points = int(p.getInt(P::kPoints));
    s.shapes.occlusion = p.getDouble(P::kOcclusion);
    s.shapes.noise = p.getString(P::kNoise);
    s.shapes.dof = p.getDouble(P::kDof);
    s.train.epochs = int(p.getInt(P::kEpochs));
    s.train.hidden = int(p.getInt(P::kHidden));
    s.train.lr = p.getDouble(P::kLr);
    s.train.loss = p.getString(P::kLoss);
    s.fitOnInput = p.getString(P::kFitOn) == "input";
    s.shown = int(p.getInt(P::kShown));
    s.rotateDeg = p.getDouble(P::kRotateInput);
    s.robustness = p.getBool(P::kRobustnessCheck);
    return s;
}

/// The rows the result reports (input clouds, or ID test clouds) and the training pairs.
struct Data {
    std::vector<Sample> rows; ///< hasTarget where a tensor is known
    std::vector<Pair> train;
    std::vector<Sample> idTest, oodTest; ///< with targets (generator); idTest may be the rows
    bool fromInput = false;
};

std::vector<Pair> pairsOf(const std::vector<Sample>& s) {
    std::vector<Pair> p;
    for (const Sample& x : s)
        if (x.hasTarget)
            p.push_back({featuresOf(secondMoment(x.cloud)), x.target});
    return p;
}

/// Stage 1: input clouds and tensors, or the generator.
Data obtainData(const InputList& inputs, const Settings& s, const Rng& rng) {
    Data d;
    std::map<std::string, size_t> byId;
    const TensorSetInput* tensors = nullptr;
    for (const auto& in : inputs) {
        if (const auto* c = dynamic_cast<const CloudSetInput*>(in.get()))
            for (const Cloud& cl : c->clouds) {
                if (!byId.emplace(cl.id, d.rows.size()).second)
                    throw InputError(in->path, "cloud id '" + cl.id + "' given twice");
                d.rows.push_back({cl, Vec6::Zero(), Vec6::Zero(), false});
            }
        else if (const auto* t = dynamic_cast<const TensorSetInput*>(in.get())) {
            if (tensors)
                throw UsageError("equivariant-covariance takes one tensors.csv");
            tensors = t;
        }
    }
    d.fromInput = !inputs.empty();
    if (tensors) {
        if (d.rows.empty())
            throw InputError(tensors->path, "tensors without clouds: give clouds.csv or .ply files too");
        for (const TensorRow& r : tensors->rows) {
            const auto it = byId.find(r.id);
            if (it == byId.end())
                throw InputError(tensors->path, "id '" + r.id + "' has no cloud", r.line);
            d.rows[it->second].target = r.v;
            d.rows[it->second].hasTarget = true;
        }
    }
    const int test = std::max(50, s.samples / 4);
    if (s.fitOnInput) {
        if (!d.fromInput)
            throw UsageError("fit_on = input needs clouds with tensors");
        d.train = pairsOf(d.rows);
        if (d.train.size() < 8)
            throw InputError(tensors ? tensors->path : inputs.front()->path,
                             "fit_on = input needs at least 8 clouds with tensors, got " +
                                 std::to_string(d.train.size()));
    } else {
        d.train = pairsOf(generateShapes(s.shapes, s.samples, false, rng.fork("train")));
    }
    d.idTest = generateShapes(s.shapes, test, false, rng.fork("test"));
    d.oodTest = generateShapes(s.shapes, test, true, rng.fork("ood"));
    if (!d.fromInput)
        d.rows.assign(d.idTest.begin(), d.idTest.begin() + std::min<size_t>(kMaxRows, d.idTest.size()));
    return d;
}

std::vector<Features> featuresOfAll(const std::vector<Sample>& s) {
    std::vector<Features> f;
    for (const Sample& x : s)
        f.push_back(featuresOf(secondMoment(x.cloud)));
    return f;
}

double qOf(const Prediction& p, const Vec6& target) {
    const Vec6 r = target - p.mean;
    Eigen::SelfAdjointEigenSolver<Mat6> es(p.logCov);
    const Mat6 inv = es.eigenvectors() * (-es.eigenvalues()).array().exp().matrix().asDiagonal() *
                     es.eigenvectors().transpose();
    return r.dot(inv * r);
}

double rmse(const std::vector<Vec6>& pred, const std::vector<Sample>& s, bool clean) {
    double sum = 0;
    for (size_t i = 0; i < s.size(); ++i)
        sum += (pred[i] - (clean ? s[i].clean : s[i].target)).squaredNorm();
    return std::sqrt(sum / double(std::max<size_t>(s.size(), 1)) / 6);
}

std::vector<Vec6> meansOf(const std::vector<Prediction>& p) {
    std::vector<Vec6> m;
    for (const auto& x : p)
        m.push_back(x.mean);
    return m;
}

double auroc(const std::vector<double>& neg, const std::vector<double>& pos) {
    double wins = 0;
    for (double p : pos)
        for (double n : neg)
            wins += p > n ? 1.0 : p == n ? 0.5 : 0.0;
    return wins / double(std::max<size_t>(neg.size() * pos.size(), 1));
}

/// Models trained once per run.
struct Models {
    EquivariantModel main, gauss, iso;
    AugmentedMlp baseline;
    bool gaussIsMain = false;
};

/// Stage 2: training (progress 0 .. 0.7).
Models trainModels(const Data& d, const Settings& s, const Rng& rng, RunContext& ctx, ResultDocument& doc) {
    Models m;
    auto poll = [&ctx](double lo, double hi, const char* what) {
        return [&ctx, lo, hi, what](double f) {
            ctx.throwIfCancelled();
            ctx.progress(lo + (hi - lo) * f, what);
        };
    };
    auto curve = [](const std::vector<double>& y, const char* label) {
        Series c = emptySeries("epoch", label);
        for (size_t e = 0; e < y.size(); ++e)
            addPoint(c, double(e + 1), y[e]);
        return c;
    };
    doc.series[S::kTrainLoss] =
        curve(m.main.train(d.train, s.train, rng.fork("main"), poll(0, 0.3, "equivariant model")),
              "training loss (selected score)");
    TrainConfig g = s.train;
    g.loss = "gauss_nll";
    m.gaussIsMain = s.train.loss == "gauss_nll";
    if (m.gaussIsMain)
        m.gauss = m.main;
    else
        doc.series[S::kTrainLossGauss] =
            curve(m.gauss.train(d.train, g, rng.fork("main"), poll(0.3, 0.45, "Gaussian NLL model")),
                  "training loss (Gaussian NLL)");
    g.isotropic = true;
    m.iso.train(d.train, g, rng.fork("main"), poll(0.45, 0.55, "isotropic model"));
    doc.series[S::kTrainLossBaseline] =
        curve(m.baseline.train(d.train, g, rng.fork("baseline"), poll(0.55, 0.7, "augmented MLP")),
              "training loss (augmented MLP, Gaussian NLL)");
    return m;
}

/// Stage 3: the per-row results.
void packRows(const Data& d, const Models& m, ResultDocument& doc) {
    const std::vector<Features> f = featuresOfAll(d.rows);
    const std::vector<Prediction> p = m.main.predict(f);
    std::vector<Eigen::Matrix3d> mom;
    for (const auto& x : f)
        mom.push_back(x.m);
    const std::vector<Vec6> base = m.baseline.predict(mom);
    const Eigen::Index n = Eigen::Index(d.rows.size());
    Eigen::MatrixXd mean(n, 6), cov(n, 36), logcov(n, 36), bm(n, 6), irr(n, 3);
    std::vector<double> nllL, nllG;
    double minEig = INFINITY;
    const IrrepDecomposition& dec = irrepDecomposition();
    for (Eigen::Index i = 0; i < n; ++i) {
        const Prediction& q = p[size_t(i)];
        mean.row(i) = q.mean.transpose();
        bm.row(i) = base[size_t(i)].transpose();
        for (int a = 0; a < 6; ++a)
            for (int b = 0; b < 6; ++b) {
                cov(i, a * 6 + b) = q.cov(a, b);
                logcov(i, a * 6 + b) = q.logCov(a, b);
            }
        irr.row(i) = dec.power(q.logCov).transpose();
        minEig = std::min(minEig, Eigen::SelfAdjointEigenSolver<Mat6>(q.cov).eigenvalues()(0));
        const bool has = d.rows[size_t(i)].hasTarget;
        const double qq = has ? qOf(q, d.rows[size_t(i)].target) : kNaN, tr = q.logCov.trace();
        nllL.push_back(has ? negLogLaplace(qq, tr) : kNaN);
        nllG.push_back(has ? negLogGauss(qq, tr) : kNaN);
    }
    std::vector<std::string> ids;
    for (const Sample& s : d.rows)
        ids.push_back(s.cloud.id);
    const std::vector<std::string> km{"v1 (T11)",    "v2 (T22)",    "v3 (T33)",
                                      "v4 (√2 T23)", "v5 (√2 T13)", "v6 (√2 T12)"};
    doc.matrices[X::kPredMean] = matrixOf(mean, ids, km);
    doc.matrices[X::kPredCov] = matrixOf(cov, ids, {});
    doc.matrices[X::kPredLogCov] = matrixOf(logcov, ids, {});
    doc.matrices[X::kBaselineMean] = matrixOf(bm, ids, km);
    doc.matrices[X::kIrrepPower] = matrixOf(irr, ids, {"l = 0", "l = 2", "l = 4"});
    doc.vectors[V::kIrrepPowerMean] = toStd(irr.colwise().mean());
    doc.vectors[V::kNllLaplace] = nllL;
    doc.vectors[V::kNllGauss] = nllG;
    doc.metrics[M::kMinEigenvalue] = minEig;
    doc.metrics[M::kRows] = double(n);
}

/// Stage 4: test-set scores, coverage, OOD.
void evaluate(const Data& d, const Models& m, const Settings& s, ResultDocument& doc) {
    const std::vector<Features> f = featuresOfAll(d.idTest), fo = featuresOfAll(d.oodTest);
    const auto p = m.main.predict(f), pg = m.gauss.predict(f), pi = m.iso.predict(f), po = m.main.predict(fo);
    std::vector<Eigen::Matrix3d> mom;
    for (const auto& x : f)
        mom.push_back(x.m);
    doc.metrics[M::kRmseModel] = rmse(meansOf(p), d.idTest, true);
    doc.metrics[M::kRmseGauss] = rmse(meansOf(pg), d.idTest, true);
    doc.metrics[M::kRmseIsotropic] = rmse(meansOf(pi), d.idTest, true);
    doc.metrics[M::kRmseBaseline] = rmse(m.baseline.predict(mom), d.idTest, true);
    const char* family = s.train.loss.c_str();
    auto nll = [&](const std::vector<Prediction>& pr, const std::string& fam) {
        double sum = 0;
        for (size_t i = 0; i < pr.size(); ++i) {
            const double q = qOf(pr[i], d.idTest[i].target), tr = pr[i].logCov.trace();
            sum += fam == "gauss_nll"   ? negLogGauss(q, tr)
                   : fam == "power_exp" ? negLogPowerExp(q, tr)
                                        : negLogLaplace(q, tr);
        }
        return sum / double(pr.size());
    };
    doc.metrics[M::kNllModel] = nll(p, s.train.loss);
    doc.metrics[M::kNllIsotropic] = nll(pi, "gauss_nll");
    std::vector<double> qs;
    for (size_t i = 0; i < p.size(); ++i)
        qs.push_back(qOf(p[i], d.idTest[i].target));
    Series cov = emptySeries("nominal coverage", "observed coverage (ID test)");
    for (double level : {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}) {
        const double t = quantileOfQ(family, level);
        addPoint(cov, level,
                 double(std::count_if(qs.begin(), qs.end(), [&](double q) { return q <= t; })) /
                     double(qs.size()));
    }
    doc.series[S::kCoverage] = cov;
    doc.metrics[M::kCoverage90] = cov.y[8];
    std::vector<double> lid, lood;
    for (const auto& x : p)
        lid.push_back(x.logCov.trace());
    for (const auto& x : po)
        lood.push_back(x.logCov.trace());
    doc.vectors[V::kLogdetId] = lid;
    doc.vectors[V::kLogdetOod] = lood;
    doc.metrics[M::kOodAuroc] = auroc(lid, lood);
}

/// Stage 5: equivariance over random O(3) elements and translations.
void checkEquivariance(const Data& d, const Models& m, const Rng& rng, ResultDocument& doc) {
    Rng g = rng.fork("equivariance");
    std::vector<double> errs, base;
    for (int k = 0; k < kTrials; ++k) {
        const Cloud& c = d.idTest[size_t(k) % d.idTest.size()].cloud;
        const Eigen::Matrix3d r = randomOrthogonal(g, k % 2 == 1);
        const Eigen::RowVector3d t(g.uniform(-10, 10), g.uniform(-10, 10), g.uniform(-10, 10));
        Cloud moved = c;
        moved.points = (c.points * r.transpose()).rowwise() + t;
        const Features f0 = featuresOf(secondMoment(c)), f1 = featuresOf(secondMoment(moved));
        const auto p = m.main.predict({f0, f1});
        const Mat6 rh = rho(r);
        const double em = (p[1].mean - rh * p[0].mean).norm() / p[0].mean.norm();
        const double ec = (p[1].cov - rh * p[0].cov * rh.transpose()).norm() / p[0].cov.norm();
        errs.push_back(std::max(em, ec));
        const auto b = m.baseline.predict({f0.m, f1.m});
        base.push_back((b[1] - rh * b[0]).norm() / b[0].norm());
    }
    doc.vectors[V::kEquivarianceErrors] = errs;
    doc.vectors[V::kBaselineEquivarianceErrors] = base;
    const double e = *std::max_element(errs.begin(), errs.end());
    const double be = *std::min_element(base.begin(), base.end());
    doc.metrics[M::kEquivarianceError] = e;
    doc.metrics[M::kBaselineEquivarianceError] = *std::max_element(base.begin(), base.end());
    doc.claims.push_back(
        claimOf(C::kC1Equivariance,
                "Mean and covariance rotate exactly with the input (error < 1e-10 over 100 random "
                "rotations, reflections and translations); the augmented baseline's error exceeds 1e-3",
                e < 1e-10 && be > 1e-3, e, 1e-10,
                "max relative error of mu and Sigma over " + std::to_string(kTrials) +
                    " trials (half reflections); smallest baseline mean error " + formatSignificant(be, 3)));
}

/// Stage 6: the Casimir decomposition and SPD.
void checkIrreps(ResultDocument& doc) {
    const IrrepDecomposition& dec = irrepDecomposition();
    doc.metrics[M::kIrrepDim0] = dec.dims[0];
    doc.metrics[M::kIrrepDim2] = dec.dims[1];
    doc.metrics[M::kIrrepDim4] = dec.dims[2];
    const double minEig = doc.metrics[M::kMinEigenvalue];
    const bool ok = dec.dims[0] == 2 && dec.dims[1] == 10 && dec.dims[2] == 9 && minEig > 0;
    doc.claims.push_back(
        claimOf(C::kC2IrrepsSpd,
                "The Casimir eigenspaces of sym(6) have dimensions 2, 10, 9 (l = 0, 2, 4) and every "
                "predicted Sigma is positive definite",
                ok, minEig, 0.0,
                "dimensions " + std::to_string(dec.dims[0]) + "/" + std::to_string(dec.dims[1]) + "/" +
                    std::to_string(dec.dims[2]) + "; observed = smallest eigenvalue of the predicted Sigma"));
}

/// Stage 7: LE-ESO vs Gaussian NLL under Student-t (2 dof) noise (generator only).
void checkHeavyTails(const Settings& s, const Rng& rng, RunContext& ctx, ResultDocument& doc) {
    Settings t = s;
    t.shapes.noise = "student_t";
    t.shapes.dof = 2;
    const std::vector<Pair> train = pairsOf(generateShapes(t.shapes, s.samples, false, rng.fork("train")));
    const std::vector<Sample> test =
        generateShapes(t.shapes, std::max(50, s.samples / 4), false, rng.fork("test"));
    auto poll = [&ctx](double lo) {
        return [&ctx, lo](double f) {
            ctx.throwIfCancelled();
            ctx.progress(lo + 0.15 * f, "Student-t check");
        };
    };
    EquivariantModel le, ga;
    TrainConfig c = s.train;
    c.loss = "le_eso";
    const auto cl = le.train(train, c, rng.fork("main"), poll(0.7));
    c.loss = "gauss_nll";
    const auto cg = ga.train(train, c, rng.fork("main"), poll(0.85));
    const std::vector<Features> f = featuresOfAll(test);
    const double rl = rmse(meansOf(le.predict(f)), test, true), rg = rmse(meansOf(ga.predict(f)), test, true);
    bool finite = std::isfinite(rl) && std::isfinite(rg);
    for (double v : cl)
        finite = finite && std::isfinite(v);
    for (double v : cg)
        finite = finite && std::isfinite(v);
    doc.metrics[M::kRmseStudentLeEso] = rl;
    doc.metrics[M::kRmseStudentGauss] = rg;
    doc.claims.push_back(
        claimOf(C::kC3HeavyTails,
                "With Student-t noise (2 degrees of freedom) the mean RMSE under LE-ESO is at most that "
                "under Gaussian NLL, and training never diverges",
                finite && rl <= rg, rl / rg, 1.0,
                "RMSE against the noise-free tensors, LE-ESO " + formatSignificant(rl, 4) +
                    " / Gaussian NLL " + formatSignificant(rg, 4) + " (same clouds, seed and settings)"));
}

void checkCoverage(ResultDocument& doc) {
    const double c = doc.metrics[M::kCoverage90];
    doc.claims.push_back(
        claimOf(C::kC4Coverage, "The 90 % Mahalanobis ellipsoids cover 90 % +- 5 % of the test targets",
                std::abs(c - 0.9) <= 0.05, c, 0.9,
                "share of ID test targets with q below the 0.9 quantile of q under the selected "
                "family (report); OOD AUROC of log det Sigma: " +
                    formatFixed(doc.metrics[M::kOodAuroc], 3)));
}

/// The ellipsoid of a second-moment tensor: semi-axes sqrt(5 lambda) along its eigenvectors (a solid
/// ellipsoid with these axes has this second moment); centre + A row-major.
Eigen::Matrix<double, 1, 12> ellipsoidRow(const Eigen::Vector3d& centre, const Vec6& v) {
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(tensorOf(v));
    const Eigen::Matrix3d a =
        es.eigenvectors() * (5 * es.eigenvalues().cwiseMax(0.0)).cwiseSqrt().asDiagonal();
    Eigen::Matrix<double, 1, 12> row;
    row.head<3>() = centre.transpose();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            row(3 + i * 3 + j) = a(i, j);
    return row;
}

/// Stage 8: the 3D scene of the shown cloud (rotated about z by rotate_input).
void packScene(const Data& d, const Models& m, const Settings& s, const Rng& rng, ResultDocument& doc) {
    const int k = std::clamp(s.shown, 0, int(d.rows.size()) - 1);
    doc.metrics[M::kShown] = k;
    const double a = s.rotateDeg * std::numbers::pi / 180;
    const Eigen::Matrix3d r = Eigen::AngleAxisd(a, Eigen::Vector3d(1, 1, 1).normalized()).toRotationMatrix();
    Cloud c = d.rows[size_t(k)].cloud;
    const Eigen::RowVector3d centre = c.points.colwise().mean();
    c.points = ((c.points.rowwise() - centre) * r.transpose()).rowwise() + centre;
    doc.matrices[X::kScenePoints] = matrixOf(c.points, {}, {"x", "y", "z"});
    const Features f = featuresOf(secondMoment(c));
    const Prediction p = m.main.predict({f})[0];
    const Vec6 b = m.baseline.predict({f.m})[0];
    std::vector<Eigen::VectorXd> rows;
    rows.push_back(ellipsoidRow(centre.transpose(), p.mean).transpose());
    rows.push_back(ellipsoidRow(centre.transpose(), b).transpose());
    Eigen::SelfAdjointEigenSolver<Mat6> es(p.cov);
    const Mat6 half = es.eigenvectors() * es.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
    Rng g = rng.fork("scene");
    for (int i = 0; i < 8; ++i) {
        Vec6 z;
        for (int j = 0; j < 6; ++j)
            z(j) = g.normal();
        rows.push_back(ellipsoidRow(centre.transpose(), p.mean + half * z).transpose());
    }
    doc.matrices[X::kSceneEllipsoids] = matrixOfRows(rows);
}

} // namespace

std::vector<ParamSpec> EquivariantCovarianceEngine::params() const {
    return {
        ParamSpec::integer(P::kSamples, "samples", 100, 50000, 1000,
                           "training clouds drawn by the generator"),
        ParamSpec::integer(P::kPoints, "points", 16, 2048, 128, "points per generated cloud"),
        ParamSpec::real(P::kOcclusion, "occlusion", 0, 0.5, 0.2,
                        "largest share of a cloud cut away by a random plane"),
        ParamSpec::choice(P::kNoise, "noise", {"laplace", "gaussian", "student_t"}, "laplace",
                          "noise family of the targets (true covariance exp(S*(M)))"),
        ParamSpec::real(P::kDof, "Student-t dof", 1.5, 30, 3, "degrees of freedom when noise = student_t"),
        ParamSpec::integer(P::kEpochs, "epochs", 1, 200, 20, "training epochs of every model"),
        ParamSpec::integer(P::kHidden, "hidden", 4, 128, 16,
                           "hidden units of the invariant MLP (baseline: twice)"),
        ParamSpec::real(P::kLr, "learning rate", 1e-4, 0.1, 0.01, "Adam step size", "", true),
        ParamSpec::choice(
            P::kLoss, "score", {"le_eso", "gauss_nll", "power_exp"}, "le_eso",
            "training objective: log-Euclidean Laplace score, Gaussian NLL or power exponential"),
        ParamSpec::choice(P::kFitOn, "fit on", {"synthetic", "input"}, "synthetic",
                          "train on the generator (and predict the input clouds) or on the input pairs"),
        ParamSpec::integer(P::kShown, "shown cloud", 0, 100000, 0, "row shown in the 3D view"),
        ParamSpec::real(P::kRotateInput, "rotate input", -180, 180, 0,
                        "rotates the shown cloud about (1,1,1) before prediction", "°"),
        ParamSpec::boolean(P::kRobustnessCheck, "Student-t check", true,
                           "train LE-ESO and Gaussian NLL again on Student-t (2 dof) targets (claim c3)"),
    };
}

std::shared_ptr<const LoadedInput> EquivariantCovarianceEngine::load(const std::string& path) const {
    const std::string text = readFileChecked(path, 256ll << 20);
    if (lowerExtension(path) == "ply") {
        auto in = std::make_shared<CloudSetInput>();
        in->clouds = parsePly(text, path);
        in->path = path;
        in->kind = "ply";
        in->summary =
            baseName(path) + ": one cloud of " + std::to_string(in->clouds[0].points.rows()) + " points";
        return in;
    }
    if (looksLikeTensorCsv(text)) {
        auto in = std::make_shared<TensorSetInput>();
        in->rows = parseTensorCsv(text, path);
        in->path = path;
        in->kind = "tensors";
        in->summary = baseName(path) + ": " + std::to_string(in->rows.size()) + " tensors";
        return in;
    }
    auto in = std::make_shared<CloudSetInput>();
    in->clouds = parseCloudCsv(text, path);
    in->path = path;
    in->kind = "clouds";
    in->summary = baseName(path) + ": " + std::to_string(in->clouds.size()) + " clouds";
    return in;
}

ResultDocument EquivariantCovarianceEngine::run(const InputList& inputs, const ParamSet& p,
                                                RunContext& ctx) const {
    const Settings s = settingsFrom(p);
    const Rng rng(ctx.seed());
    ResultDocument doc;
    const Data d = obtainData(inputs, s, rng.fork("data"));
    const Models m = trainModels(d, s, rng.fork("models"), ctx, doc);
    packRows(d, m, doc);
    evaluate(d, m, s, doc);
    checkEquivariance(d, m, rng, doc);
    checkIrreps(doc);
    if (s.robustness && !s.fitOnInput)
        checkHeavyTails(s, rng.fork("data"), ctx, doc);
    else
        doc.notes.push_back("claim c3 needs fit_on = synthetic and the Student-t check");
    checkCoverage(doc);
    packScene(d, m, s, rng, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::equicov
