// The metadistill-bbo engine: the 14 BBOB functions and one CMA-ES generation against numpy
// transcriptions written from the 2009 definitions and Hansen's tutorial, the LES-lite distillation
// gradient against central differences, random search against the exact best-of-B law, the
// teacher-trajectory reader (good file, non-SPD, dimension mismatch, non-monotone generations),
// determinism, and the claims at seeds 1..3.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "search/BbobFunctions.h"
#include "search/CmaEs.h"
#include "search/LesStudent.h"
#include "search/MetadistillEngine.h"
#include "search/MetadistillKeys.h"
#include "search/MetadistillTraining.h"
#include "search/TeacherTrajectories.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

using namespace pl::search;

namespace {

std::string num(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}
std::string vec(const Eigen::VectorXd& v) {
    std::string s = "[";
    for (Eigen::Index i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + num(v[i]);
    return s + "]";
}
std::string mat(const Eigen::MatrixXd& m) {
    std::string s = "[";
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        s += (r ? "," : "") + vec(m.row(r).transpose());
    return s + "]";
}

const char* kBbobPy = R"PY(
import sys, json, numpy as np
J = json.load(open(sys.argv[1]))
def tosz(x):
    x = np.asarray(x, float); xh = np.where(x != 0, np.log(np.abs(x) + (x == 0)), 0.0)
    c1 = np.where(x > 0, 10.0, 5.5); c2 = np.where(x > 0, 7.9, 3.1)
    return np.sign(x) * np.exp(xh + 0.049 * (np.sin(c1 * xh) + np.sin(c2 * xh)))
def tasy(x, b):
    D = len(x); i = np.arange(D); y = x.copy(); p = x > 0
    y[p] = x[p] ** (1 + b * i[p] / (D - 1) * np.sqrt(x[p])); return y
def lam(D, a): return a ** (0.5 * np.arange(D) / (D - 1))
def fpen(x): return np.sum(np.maximum(0, np.abs(x) - 5) ** 2)
def rast(z): return 10 * (len(z) - np.sum(np.cos(2 * np.pi * z))) + z @ z
def f(name, I, x):
    xo = np.array(I['xopt']); R = np.array(I['R']); Q = np.array(I['Q']); D = len(x); s = x - xo
    cond = 10 ** (6 * np.arange(D) / (D - 1))
    if name == 'sphere': return s @ s
    if name == 'ellipsoid': z = tosz(s); return np.sum(cond * z * z)
    if name == 'rastrigin': return rast(lam(D, 10) * tasy(tosz(s), 0.2))
    if name == 'buche_rastrigin':
        z = tosz(s); sc = 10 ** (0.5 * np.arange(D) / (D - 1))
        sc = np.where((np.arange(D) % 2 == 0) & (z > 0), 10 * sc, sc); return rast(sc * z) + 100 * fpen(x)
    if name == 'rosenbrock':
        z = max(1, np.sqrt(D) / 8) * s + 1; return np.sum(100 * (z[:-1] ** 2 - z[1:]) ** 2 + (z[:-1] - 1) ** 2)
    if name == 'ellipsoid_rotated': z = tosz(R @ s); return np.sum(cond * z * z)
    if name == 'discus': z = tosz(R @ s); return 1e6 * z[0] ** 2 + np.sum(z[1:] ** 2)
    if name == 'bent_cigar': z = R @ tasy(R @ s, 0.5); return z[0] ** 2 + 1e6 * np.sum(z[1:] ** 2)
    if name == 'sharp_ridge': z = Q @ (lam(D, 10) * (R @ s)); return z[0] ** 2 + 100 * np.sqrt(np.sum(z[1:] ** 2))
    if name == 'rastrigin_rotated': return rast(R @ (lam(D, 10) * (Q @ tasy(tosz(R @ s), 0.2))))
    if name == 'weierstrass':
        z = R @ (lam(D, 0.01) * (Q @ tosz(R @ s))); k = np.arange(12); f0 = np.sum(0.5 ** k * np.cos(np.pi * 3.0 ** k))
        t = np.sum(0.5 ** k[None, :] * np.cos(2 * np.pi * 3.0 ** k[None, :] * (z[:, None] + 0.5)))
        return 10 * (t / D - f0) ** 3 + 10 / D * fpen(x)
    if name == 'schaffers_f7':
        z = lam(D, 10) * (Q @ tasy(R @ s, 0.5)); si = np.sqrt(z[:-1] ** 2 + z[1:] ** 2)
        return np.mean(np.sqrt(si) + np.sqrt(si) * np.sin(50 * si ** 0.2) ** 2) ** 2 + 10 * fpen(x)
    if name == 'griewank_rosenbrock':
        z = max(1, np.sqrt(D) / 8) * (R @ s) + 1; si = 100 * (z[:-1] ** 2 - z[1:]) ** 2 + (z[:-1] - 1) ** 2
        return 10 / (D - 1) * np.sum(si / 4000 - np.cos(si)) + 10
    if name == 'gallagher21':
        Y = np.array(I['peaks']); C = np.array(I['peakC']); W = np.array(I['peakW'])
        # the 2009 structure: w_1 = 10, w_i = 1.1 + 8 (i - 2) / 19; alpha_1 = 1000, the others a permutation
        # of 1000^(2j/19); C_i = Lambda^alpha_i / alpha_i^(1/4) with a permuted diagonal
        assert abs(W[0] - 10) < 1e-12 and np.allclose(W[1:], 1.1 + 8 * np.arange(20) / 19)
        al = [(max(c) / min(c)) ** 2 for c in C]
        assert abs(al[0] - 1000) < 1e-6 and np.allclose(sorted(al[1:]), 1000.0 ** (2 * np.arange(20) / 19))
        for a, c in zip(al, C): assert np.allclose(sorted(c), lam(D, a) / a ** 0.25)
        assert np.allclose(Y[0], xo) and np.all(np.abs(Y[1:]) <= 4.9)
        v = max(W[i] * np.exp(-np.sum(C[i] * (R @ (x - Y[i])) ** 2) / (2 * D)) for i in range(len(W)))
        t = tosz(np.array([10.0 - v]))[0]; return t * t + fpen(x)
for case in J:
    I = case
    assert np.allclose(np.array(I['R']) @ np.array(I['R']).T, np.eye(len(I['xopt'])))
    for x in case['points']:
        print('%.17g' % f(case['name'], I, np.array(x)))
)PY";

const char* kCmaPy = R"PY(
import sys, json, numpy as np
S = json.load(open(sys.argv[1]))
m = np.array(S['m']); sigma = S['sigma']; C = np.array(S['C']); pc = np.array(S['pc']); ps = np.array(S['ps'])
gen = S['gen']; lam = S['lam']; Z = np.array(S['Z']); xo = np.array(S['xo']); d = len(m)
mu = lam // 2; w = np.log((lam + 1) / 2) - np.log(np.arange(1, mu + 1)); w /= w.sum(); mueff = 1 / np.sum(w ** 2)
cs = (mueff + 2) / (d + mueff + 5); ds = 1 + 2 * max(0, np.sqrt((mueff - 1) / (d + 1)) - 1) + cs
cc = (4 + mueff / d) / (d + 4 + 2 * mueff / d); c1 = 2 / ((d + 1.3) ** 2 + mueff)
cmu = min(1 - c1, 2 * (mueff - 2 + 1 / mueff) / ((d + 2) ** 2 + mueff)); chi = np.sqrt(d) * (1 - 1 / (4 * d) + 1 / (21 * d * d))
ev, B = np.linalg.eigh(C); Csq = B @ np.diag(np.sqrt(ev)) @ B.T; Cisq = B @ np.diag(1 / np.sqrt(ev)) @ B.T
X = m + sigma * (Z @ Csq); f = np.sum((X - xo) ** 2, axis=1)
idx = np.argsort(f, kind='stable'); Y = (X[idx[:mu]] - m) / sigma; yw = w @ Y
m2 = m + sigma * yw; ps2 = (1 - cs) * ps + np.sqrt(cs * (2 - cs) * mueff) * (Cisq @ yw)
hs = np.linalg.norm(ps2) / np.sqrt(1 - (1 - cs) ** (2 * (gen + 1))) < (1.4 + 2 / (d + 1)) * chi
pc2 = (1 - cc) * pc + hs * np.sqrt(cc * (2 - cc) * mueff) * yw
C2 = (1 + c1 * (0 if hs else cc * (2 - cc)) - c1 - cmu) * C + c1 * np.outer(pc2, pc2) + cmu * (Y.T * w) @ Y
s2 = sigma * np.exp(cs / ds * (np.linalg.norm(ps2) / chi - 1))
for v in list(X.ravel()) + list(m2) + [s2] + list(ps2) + list(pc2) + list(C2.ravel()): print('%.17g' % v)
)PY";

pl::ResultDocument runEngine(uint64_t seed, std::vector<std::pair<std::string, std::string>> set,
                             const pl::InputList& inputs = {}) {
    metadistill::MetadistillEngine e;
    pl::ParamSet ps(e.params());
    for (const auto& [k, v] : set)
        ps.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run(inputs, ps, ctx);
}

const std::vector<std::pair<std::string, std::string>> kSmall = {{"dim", "5"},      {"generations", "40"},
                                                                 {"popsize", "16"}, {"epochs", "3"},
                                                                 {"repeats", "2"},  {"ssft_steps", "2"}};

} // namespace

class TestMetadistill : public QObject {
    Q_OBJECT
private slots:
    void bbobAgainstNumpy() {
        if (!pl::test::havePython("numpy"))
            QSKIP("no numpy");
        QTemporaryDir dir;
        const QString path = dir.filePath("bbob.json");
        std::string json = "[";
        std::vector<double> expected;
        pl::Rng rng(11);
        int count = 0;
        for (int d : {2, 5, 10}) {
            for (const std::string& name : bbobNames()) {
                const BbobFunction f(name, d, rng);
                QVERIFY2(std::abs(f(f.xOpt())) < 1e-9, name.c_str()); // f_opt = 0 at x_opt
                QVERIFY2((f.xOpt().array().abs() <= 4.0).all(), name.c_str());
                std::vector<Eigen::VectorXd> pts = {f.xOpt() + 0.01 * Eigen::VectorXd::Ones(d)};
                for (int k = 0; k < 4; ++k) {
                    Eigen::VectorXd x(d);
                    for (int j = 0; j < d; ++j)
                        x[j] = rng.uniform(-5.0, 5.0);
                    pts.push_back(x);
                }
                Eigen::VectorXd out = pts.back();
                out[0] = 6.5; // outside [-5, 5]: the penalty
                pts.push_back(out);
                json += std::string(count++ ? "," : "") + "{\"name\":\"" + name +
                        "\",\"xopt\":" + vec(f.xOpt()) + ",\"R\":" + mat(f.rotationR()) +
                        ",\"Q\":" + mat(f.rotationQ());
                if (name == "gallagher21")
                    json += ",\"peaks\":" + mat(f.peaks()) + ",\"peakC\":" + mat(f.peakScales()) +
                            ",\"peakW\":" + vec(f.peakWeights());
                json += ",\"points\":[";
                for (size_t k = 0; k < pts.size(); ++k) {
                    json += (k ? "," : "") + vec(pts[k]);
                    expected.push_back(f(pts[k]));
                }
                json += "]}";
            }
        }
        json += "]";
        std::ofstream(path.toStdString()) << json;
        const QStringList lines = pl::test::pythonLines(kBbobPy, {path});
        QCOMPARE(lines.size(), qsizetype(expected.size()));
        for (size_t i = 0; i < expected.size(); ++i) {
            const double py = lines[qsizetype(i)].toDouble();
            QVERIFY2(std::abs(py - expected[i]) <= 1e-9 * std::max(1.0, std::abs(py)),
                     qPrintable(QStringLiteral("case %1: C++ %2 numpy %3")
                                    .arg(i)
                                    .arg(expected[i], 0, 'g', 17)
                                    .arg(py, 0, 'g', 17)));
        }
    }

    void cmaesGenerationAgainstNumpy() {
        if (!pl::test::havePython("numpy"))
            QSKIP("no numpy");
        pl::Rng rng(5);
        const int d = 10, lambda = 32;
        const BbobFunction ell("ellipsoid_rotated", d, rng);
        CmaEs warm(Eigen::VectorXd::Constant(d, 1.0), 2.0, lambda);
        for (int g = 0; g < 7; ++g) { // a non-trivial C, p_c, p_sigma
            const Eigen::MatrixXd X = warm.candidates(warm.drawZ(rng));
            warm.tell(X, ell.evalRows(X));
        }
        const CmaEsState s = warm.state();
        CmaEs es(s, lambda);
        const Eigen::MatrixXd Z = es.drawZ(rng);
        const Eigen::MatrixXd X = es.candidates(Z);
        const Eigen::VectorXd xo = ell.xOpt();
        Eigen::VectorXd f(lambda);
        for (int k = 0; k < lambda; ++k)
            f[k] = (X.row(k).transpose() - xo).squaredNorm();
        es.tell(X, f);
        QTemporaryDir dir;
        const QString path = dir.filePath("cma.json");
        std::ofstream(path.toStdString())
            << "{\"m\":" << vec(s.mean) << ",\"sigma\":" << num(s.sigma) << ",\"C\":" << mat(s.C)
            << ",\"pc\":" << vec(s.pc) << ",\"ps\":" << vec(s.pSigma) << ",\"gen\":" << s.generation
            << ",\"lam\":" << lambda << ",\"Z\":" << mat(Z) << ",\"xo\":" << vec(xo) << "}";
        const QStringList lines = pl::test::pythonLines(kCmaPy, {path});
        std::vector<double> mine;
        for (Eigen::Index i = 0; i < X.size(); ++i)
            mine.push_back(X(i / d, i % d));
        const CmaEsState& n = es.state();
        for (int j = 0; j < d; ++j)
            mine.push_back(n.mean[j]);
        mine.push_back(n.sigma);
        for (int j = 0; j < d; ++j)
            mine.push_back(n.pSigma[j]);
        for (int j = 0; j < d; ++j)
            mine.push_back(n.pc[j]);
        for (int a = 0; a < d; ++a)
            for (int b = 0; b < d; ++b)
                mine.push_back(n.C(a, b));
        QCOMPARE(lines.size(), qsizetype(mine.size()));
        for (size_t i = 0; i < mine.size(); ++i) {
            const double py = lines[qsizetype(i)].toDouble();
            QVERIFY2(std::abs(py - mine[i]) <= 1e-9 * std::max(1.0, std::abs(py)),
                     qPrintable(QStringLiteral("entry %1: C++ %2 numpy %3").arg(i).arg(mine[i]).arg(py)));
        }
    }

    void cmaesSolvesSphere() {
        pl::Rng rng(2);
        const BbobFunction f("sphere", 10, rng);
        const auto gens = runCmaEs([&](const Eigen::VectorXd& x) { return f(x); }, Eigen::VectorXd::Zero(10),
                                   2.0, 10, 1000, rng, false);
        QVERIFY(gens.back().bestSoFar < 1e-8);
    }

    void lesGradientMatchesFiniteDifferences() {
        pl::Rng rng(3);
        const int d = 6, lambda = 12;
        const BbobFunction f("rosenbrock", d, rng);
        const Eigen::VectorXd theta = LesStudent::initialTheta(rng);
        const auto gens = runCmaEs([&](const Eigen::VectorXd& x) { return f(x); }, Eigen::VectorXd::Zero(d),
                                   2.0, lambda, 10, rng, false);
        const TeacherState a = TeacherState::of(gens[5].mean, gens[5].covariance);
        const TeacherState b = TeacherState::of(gens[6].mean, gens[6].covariance);
        Eigen::MatrixXd X(lambda, d);
        for (int i = 0; i < lambda; ++i)
            for (int j = 0; j < d; ++j)
                X(i, j) = a.mean[j] + a.sigma[j] * rng.normal();
        const Eigen::VectorXd fx = f.evalRows(X);
        const DistillWeights c;
        Eigen::VectorXd g = Eigen::VectorXd::Zero(theta.size());
        LesStudent(theta).distillLoss(a, b, X, fx, 0.4, c, &g, nullptr);
        QVERIFY(g.norm() > 1e-4);
        for (Eigen::Index k = 0; k < theta.size(); ++k) {
            Eigen::VectorXd tp = theta, tm = theta;
            tp[k] += 1e-6;
            tm[k] -= 1e-6;
            const double fd = (LesStudent(tp).distillLoss(a, b, X, fx, 0.4, c, nullptr, nullptr) -
                               LesStudent(tm).distillLoss(a, b, X, fx, 0.4, c, nullptr, nullptr)) /
                              2e-6;
            QVERIFY2(std::abs(fd - g[k]) < 1e-6,
                     qPrintable(QStringLiteral("theta %1: %2 vs %3").arg(k).arg(g[k]).arg(fd)));
        }
        const Eigen::VectorXd w = LesStudent(theta).weights(fx);
        QVERIFY(std::abs(w.sum() - 1.0) < 1e-12 && (w.array() > 0).all());
    }

    void randomSearchFollowsBestOfBLaw() {
        // 2-D sphere, budget B = 8 x 25: P(best <= t) = 1 - (1 - pi t / 64)^B while the disc of radius
        // sqrt(t) around x_opt stays inside [-4, 4]^2.
        std::unique_ptr<BbobFunction> fp;
        for (uint64_t seed = 21; !fp || 4.0 - fp->xOpt().cwiseAbs().maxCoeff() <= 0.6; ++seed) {
            pl::Rng inst(seed);
            fp = std::make_unique<BbobFunction>("sphere", 2, inst);
        }
        const BbobFunction& f = *fp;
        const double margin = 4.0 - f.xOpt().cwiseAbs().maxCoeff();
        const int n = 3000, B = 200;
        std::vector<double> best;
        for (int r = 0; r < n; ++r)
            best.push_back(metadistill::randomSearchCurve(f, 2, 8, 25, pl::Rng(1000 + r)).back());
        std::sort(best.begin(), best.end());
        double worst = 0;
        for (double t = 0.005; std::sqrt(t) < margin && t < 0.35; t += 0.005) {
            const double exact = 1.0 - std::pow(1.0 - 3.14159265358979323846 * t / 64.0, B);
            const double emp = double(std::upper_bound(best.begin(), best.end(), t) - best.begin()) / n;
            worst = std::max(worst, std::abs(emp - exact));
        }
        QVERIFY2(worst < 1.63 / std::sqrt(double(n)), qPrintable(QString::number(worst))); // KS 1 %
    }

    void readerAcceptsAndRejects() {
        const std::string ok = R"({"dim": 2, "functions": [{"function": "sphere", "generations": [
{"generation": 0, "mean": [1, 2], "covariance": [[4, 0], [0, 4]]},
{"generation": 1, "mean": [0.5, 1], "covariance": [[2, 0.5], [0.5, 2]]}]}]})";
        const auto in = parseTeacherTrajectories(ok, "ok.json");
        QCOMPARE(in->dim, 2);
        QCOMPARE(in->trajectories.size(), size_t(1));
        QCOMPARE(in->trajectories[0].covariances[1](0, 1), 0.5);
        auto expectLine = [](const std::string& text, int64_t line, const char* what) {
            try {
                parseTeacherTrajectories(text, "bad.json");
                QFAIL("accepted a bad file");
            } catch (const pl::InputError& e) {
                QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
                QCOMPARE(e.line(), line);
            }
        };
        std::string nonSpd = ok;
        nonSpd.replace(nonSpd.find("[[2, 0.5], [0.5, 2]]"), 20, "[[1, 2.0], [2.0, 1]]");
        expectLine(nonSpd, 3, "generation 1 is not symmetric positive definite");
        std::string dim = ok;
        dim.replace(dim.find("[0.5, 1]"), 8, "[0.5, 1, 3]");
        expectLine(dim, 3, "dimension mismatch");
        std::string mono = ok;
        mono.replace(mono.find("\"generation\": 1"), 15, "\"generation\": 0");
        expectLine(mono, 3, "non-monotone");
        expectLine("{\"dim\": 2,\n \"functions\": [", 2, "not JSON");
    }

    void fileDimensionMustMatch() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.json").toStdString();
        std::ofstream(path) << R"({"dim": 3, "functions": [{"function": "sphere", "generations": [
{"generation": 0, "mean": [1, 2, 0], "covariance": [[4, 0, 0], [0, 4, 0], [0, 0, 4]]},
{"generation": 1, "mean": [0.5, 1, 0], "covariance": [[2, 0, 0], [0, 2, 0], [0, 0, 2]]}]}]})";
        metadistill::MetadistillEngine e;
        const auto in = e.load(path);
        QVERIFY_THROWS_EXCEPTION(pl::InputError, runEngine(1, kSmall, {in}));
        auto small3 = kSmall;
        small3[0].second = "3";
        const auto r = runEngine(1, small3, {in});
        QVERIFY(!r.notes.empty());
        QVERIFY(r.metrics.at("meta_budget_evals") > 0);
    }

    void deterministicWithTheKeys() {
        const auto a = runEngine(7, kSmall), b = runEngine(7, kSmall);
        QCOMPARE(a.toJson(), b.toJson());
        const auto c = runEngine(8, kSmall);
        QVERIFY(a.toJson() != c.toJson());
        for (const char* m : metadistill::keys::kMethods) {
            QCOMPARE(a.vectors.at(std::string("final_log10_") + m).size(), size_t(6));
            QVERIFY(a.metrics.count(std::string("median_final_log10_") + m));
        }
        QCOMPARE(a.vectors.at("cmaes_best_x").size(), size_t(5));
        QCOMPARE(a.vectors.at("x_opt").size(), size_t(5));
        QCOMPARE(a.matrices.at("rotation_r").rows, int64_t(5));
        QCOMPARE(a.matrices.at("rotation_q").cols, int64_t(5));
        QVERIFY(a.metrics.count("cmaes_best_f") && a.metrics.count("cmaes_evals_to_target"));
        QCOMPARE(a.claims.size(), size_t(3));
    }

    void teacherStageRunsOnlyCmaes() {
        const auto r = runEngine(3, {{"stage", "teacher"}, {"function", "sphere"}, {"generations", "200"}});
        QVERIFY(r.metrics.at("cmaes_best_f") < 1e-8);
        QVERIFY(r.metrics.at("cmaes_evals_to_target") > 0);
        QVERIFY(!r.series.count("convergence_distilled"));
        QVERIFY(r.series.count("convergence_cmaes"));
        QVERIFY(r.claims.empty());
        const auto& x = r.vectors.at("cmaes_best_x");
        const auto& xo = r.vectors.at("x_opt");
        double d2 = 0;
        for (size_t j = 0; j < x.size(); ++j)
            d2 += (x[j] - xo[j]) * (x[j] - xo[j]);
        QVERIFY(std::abs(d2 - r.metrics.at("cmaes_best_f")) < 1e-12); // sphere: f = |x - x_opt|^2
    }

    void claimsAtFixedSeeds() {
        for (uint64_t seed : {1, 2, 3}) {
            const auto r = runEngine(seed, {});
            std::map<std::string, bool> holds;
            for (const auto& c : r.claims)
                holds[c.id] = c.holds;
            QVERIFY2(holds.at("cmaes-sanity"), qPrintable(QString::number(seed)));
            QVERIFY2(holds.at("distilled-beats-random"), qPrintable(QString::number(seed)));
            const bool scratch =
                r.metrics.at("median_final_log10_distilled") <= r.metrics.at("median_final_log10_scratch");
            QCOMPARE(holds.at("distilled-beats-scratch"), scratch);
            qInfo("seed %d: median final log10 distilled %.3f scratch %.3f random %.3f cmaes %.3f ssft %.3f",
                  int(seed), r.metrics.at("median_final_log10_distilled"),
                  r.metrics.at("median_final_log10_scratch"), r.metrics.at("median_final_log10_random"),
                  r.metrics.at("median_final_log10_cmaes"), r.metrics.at("median_final_log10_ssft"));
        }
    }

    void cancellation() {
        metadistill::MetadistillEngine e;
        pl::ParamSet ps(e.params());
        pl::RunContext ctx(1);
        ctx.setCancelQuery([] { return true; });
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, ps, ctx));
    }
};

QTEST_GUILESS_MAIN(TestMetadistill)
#include "tst_metadistill.moc"
