// eefp-early-exit engine: AUROC (ties 1/2), ECE, the EEFP logistic model and the temperature fit
// against scikit-learn's roc_auc_score / LogisticRegression, numpy and scipy's minimize_scalar on
// stored .npy files; the O(NK + T) threshold sweep against a brute-force one; the manifest reader
// on bad files; determinism; the claims at fixed seeds.
#include "common/PythonOracle.h"
#include "smallnets/EarlyExitEngine.h"
#include "smallnets/EarlyExitKeys.h"
#include "smallnets/EarlyExitNet.h"
#include "smallnets/ExitAnalysis.h"
#include "smallnets/ExitManifest.h"
#include "smallnets/ExitMetrics.h"

#include "core/Errors.h"
#include "core/NpyReader.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::smallnets;
namespace keys = pl::smallnets::eefp::keys;

using pl::test::havePython;
using pl::test::pythonLines;

namespace {

void saveNpy(const QString& path, const std::vector<int64_t>& shape, const std::vector<double>& v) {
    std::ofstream(path.toStdString(), std::ios::binary) << pl::writeNpy(shape, v);
}

void saveText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

/// Random logits [N, K, C] with exits that get better with depth.
ExitLogits randomLogits(int N, int K, int C, uint64_t seed) {
    pl::Rng rng(seed);
    ExitLogits e;
    e.logits.assign(size_t(K), Eigen::MatrixXd(N, C));
    for (int i = 0; i < N; ++i) {
        const int y = int(rng.uniformInt(uint64_t(C)));
        e.labels.push_back(y);
        const double u = rng.uniform();
        for (int k = 0; k < K; ++k)
            for (int c = 0; c < C; ++c)
                e.logits[size_t(k)](i, c) = rng.normal() + (c == y ? (1.0 + k) * (1.2 - u) * 1.5 : 0.0);
    }
    for (int k = 0; k < K; ++k)
        e.flops.push_back(k + 1.0);
    return e;
}

} // namespace

class TestEefp : public QObject {
    Q_OBJECT
private slots:
    void aurocHandCases() {
        Eigen::VectorXd s(4);
        s << 0.1, 0.4, 0.35, 0.8;
        QCOMPARE(auroc(s, {0, 0, 1, 1}), 0.75);
        s << 0.5, 0.5, 0.5, 0.5;
        QCOMPARE(auroc(s, {0, 1, 0, 1}), 0.5); // all tied: 1/2
        QVERIFY(std::isnan(auroc(s, {1, 1, 1, 1})));
        Eigen::VectorXd c(4);
        c << 0.05, 0.95, 1.0, 0.5;
        // Bins of 10: 0 | 9 | 9 (1.0 clamps into the last) | 5.
        QVERIFY(std::abs(ece(c, {0, 1, 0, 1}, 10) - (0.05 + std::abs(1 - 0.95 - 1.0) + 0.5) / 4) < 1e-15);
    }

    void metricsMatchSklearnAndScipy() {
        if (!havePython("numpy, scipy.optimize, sklearn.linear_model, sklearn.metrics"))
            QSKIP("/usr/bin/python3 with numpy, scipy and scikit-learn not available");
        QTemporaryDir dir;
        const ExitLogits e = randomLogits(600, 3, 5, 21);
        const Eigen::MatrixXd& L = e.logits[1];
        const Eigen::MatrixXd p = softmaxRows(L);
        std::vector<double> lv, yv, sv, wv;
        // Scores rounded to 2 decimals so that there are ties.
        const Eigen::VectorXd conf = confidence(p, ConfidenceKind::MaxProb);
        Eigen::VectorXd rounded = (conf * 100).array().round() / 100;
        const std::vector<int> pred = argmaxRows(p);
        std::vector<char> correct;
        for (int i = 0; i < 600; ++i) {
            for (int c = 0; c < 5; ++c)
                lv.push_back(L(i, c));
            yv.push_back(e.labels[size_t(i)]);
            sv.push_back(rounded(i));
            correct.push_back(char(pred[size_t(i)] == e.labels[size_t(i)]));
            wv.push_back(correct.back());
        }
        saveNpy(dir.filePath("logits.npy"), {600, 5}, lv);
        saveNpy(dir.filePath("labels.npy"), {600}, yv);
        saveNpy(dir.filePath("score.npy"), {600}, sv);
        saveNpy(dir.filePath("correct.npy"), {600}, wv);
        const std::vector<double> feat = [&] {
            const Eigen::MatrixXd F = eefpFeatures({softmaxRows(e.logits[0]), p}, 1);
            std::vector<double> f;
            for (Eigen::Index i = 0; i < F.rows(); ++i)
                for (Eigen::Index j = 0; j < F.cols(); ++j)
                    f.push_back(F(i, j));
            return f;
        }();
        saveNpy(dir.filePath("features.npy"), {600, 5}, feat);
        const char* script = R"(
import sys, numpy as np
from sklearn.metrics import roc_auc_score
from sklearn.linear_model import LogisticRegression
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp
d = sys.argv[1]
L = np.load(d + '/logits.npy'); y = np.load(d + '/labels.npy').astype(int)
s = np.load(d + '/score.npy'); c = np.load(d + '/correct.npy').astype(int)
F = np.load(d + '/features.npy')
print(repr(roc_auc_score(c, s)))
P = np.exp(L - logsumexp(L, axis=1, keepdims=True)); conf = P.max(1)
b = np.minimum(np.floor(conf * 15).astype(int), 14)
print(repr(sum(abs((c - conf)[b == k].sum()) for k in range(15)) / len(c)))
m = LogisticRegression(C=1.0, tol=1e-10, max_iter=10000).fit(F, c)
print(' '.join(repr(v) for v in m.predict_proba(F)[:5, 1]))
nll = lambda u: np.mean(logsumexp(L / np.exp(u), axis=1) - (L / np.exp(u))[np.arange(len(y)), y])
r = minimize_scalar(nll, bounds=(np.log(0.05), np.log(20)), method='bounded', options={'xatol': 1e-10})
print(repr(float(np.exp(r.x))))
)";
        const QStringList out = pythonLines(script, {dir.path()});
        QCOMPARE(out.size(), 4);
        QVERIFY2(std::abs(auroc(rounded, correct) - out[0].toDouble()) < 1e-12, qPrintable(out[0]));
        QVERIFY2(std::abs(ece(conf, correct, 15) - out[1].toDouble()) < 1e-12, qPrintable(out[1]));
        const Logistic lr = fitLogistic(
            Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(feat.data(), 600, 5), correct);
        const Eigen::VectorXd pr =
            lr.predict(Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(feat.data(), 600, 5));
        const QStringList sk = out[2].split(' ');
        for (int i = 0; i < 5; ++i)
            QVERIFY2(std::abs(pr(i) - sk[i].toDouble()) < 1e-5,
                     qPrintable(sk[i] + " vs " + QString::number(pr(i), 'g', 12)));
        const double T = fitTemperature(L, e.labels);
        QVERIFY2(std::abs(T - out[3].toDouble()) < 1e-6 * T,
                 qPrintable(out[3] + " vs " + QString::number(T, 'g', 12)));
    }

    void sweepMatchesBruteForce() {
        const ExitLogits e = randomLogits(300, 4, 6, 5);
        std::vector<Eigen::VectorXd> score;
        std::vector<std::vector<char>> correct;
        for (const auto& L : e.logits) {
            const Eigen::MatrixXd p = softmaxRows(L);
            score.push_back((confidence(p, ConfidenceKind::MaxProb) * 20).array().round() /
                            20); // ties with t_i
            const std::vector<int> pred = argmaxRows(p);
            std::vector<char> c;
            for (size_t i = 0; i < pred.size(); ++i)
                c.push_back(char(pred[i] == e.labels[i]));
            correct.push_back(c);
        }
        const int T = 40;
        const SweepCurve s = thresholdSweep(score, correct, e.flops, T);
        QCOMPARE(int(s.cost.size()), T + 1);
        for (int i = 0; i <= T; ++i) {
            const double t = double(i) / T;
            double acc = 0, cost = 0;
            for (int n = 0; n < 300; ++n) {
                size_t k = 0;
                while (k + 1 < score.size() && score[k](n) < t)
                    ++k;
                acc += correct[k][size_t(n)];
                cost += e.flops[k] / e.flops.back();
            }
            QVERIFY2(std::abs(s.accuracy[size_t(i)] - acc / 300) < 1e-12, qPrintable(QString::number(i)));
            QVERIFY(std::abs(s.cost[size_t(i)] - cost / 300) < 1e-12);
        }
        QCOMPARE(s.cost.front(), 0.25); // t = 0: everyone leaves at the first exit
    }

    void manifestBadFiles_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("blame");
        QTest::newRow("shape") << "shape"
                               << "labels.npy";
        QTest::newRow("label") << "label"
                               << "labels.npy";
        QTest::newRow("flops") << "flops"
                               << "m.eenn.json";
        QTest::newRow("nan") << "nan"
                             << "logits.npy";
        QTest::newRow("k") << "k"
                           << "m.eenn.json";
        QTest::newRow("syntax") << "syntax"
                                << "m.eenn.json";
        QTest::newRow("mask") << "mask"
                              << "cal.npy";
    }
    void manifestBadFiles() {
        QFETCH(QString, what);
        QFETCH(QString, blame);
        QTemporaryDir dir;
        std::vector<double> L(20 * 2 * 3, 0.5), y(20, 1), cal(20, 0);
        if (what == "nan")
            L[7] = std::nan("");
        if (what == "label")
            y[3] = 3;
        if (what == "mask")
            cal[2] = 0.5;
        saveNpy(dir.filePath("logits.npy"), {20, 2, 3}, L);
        saveNpy(dir.filePath("labels.npy"), {what == "shape" ? 19 : 20},
                std::vector<double>(what == "shape" ? 19 : 20, 1));
        if (what != "shape")
            saveNpy(dir.filePath("labels.npy"), {20}, y);
        saveNpy(dir.filePath("cal.npy"), {20}, cal);
        const std::string flops = what == "flops" ? "[2, 2]" : what == "k" ? "[1, 2, 3]" : "[1, 2]";
        std::string m = "{\"logits\": \"logits.npy\", \"labels\": \"labels.npy\", \"flops\": " + flops +
                        (what == "mask" ? ", \"calibration\": \"cal.npy\"" : "") + "}";
        if (what == "syntax")
            m.pop_back();
        saveText(dir.filePath("m.eenn.json"), m);
        try {
            readExitManifest(dir.filePath("m.eenn.json").toStdString());
            QFAIL("accepted");
        } catch (const pl::InputError& err) {
            QVERIFY2(QString::fromStdString(err.file()).endsWith(blame), err.what());
        }
    }

    void npyInputsMustBeNamed() {
        QTemporaryDir dir;
        const ExitLogits e = randomLogits(50, 2, 3, 2);
        std::vector<double> L, y;
        for (int i = 0; i < 50; ++i) {
            for (int k = 0; k < 2; ++k)
                for (int c = 0; c < 3; ++c)
                    L.push_back(e.logits[size_t(k)](i, c));
            y.push_back(e.labels[size_t(i)]);
        }
        saveNpy(dir.filePath("logits.npy"), {50, 2, 3}, L);
        saveNpy(dir.filePath("labels.npy"), {50}, y);
        saveNpy(dir.filePath("other.npy"), {50}, y);
        saveText(dir.filePath("m.eenn.json"),
                 R"({"logits": "logits.npy", "labels": "labels.npy", "flops": [1, 3]})");
        EarlyExitEngine eng;
        auto in = [&](const char* f) { return eng.load(dir.filePath(f).toStdString()); };
        pl::ParamSet p(eng.params());
        pl::RunContext ctx(1);
        const auto d = pl::runEngine(eng, {in("m.eenn.json"), in("labels.npy"), in("logits.npy")}, p, ctx);
        QCOMPARE(d.vectors.at(keys::vector::kAccuracy).size(), size_t(2));
        QCOMPARE(d.vectors.at(keys::vector::kEefp).size(), size_t(1));
        QCOMPARE(d.metrics.at(keys::metric::kCalibrationRows), 5.0); // ceil(0.1 * 50)
        QCOMPARE(int(d.series.at("acc_vs_flops_raw").x.size()), 101);
        pl::RunContext ctx2(1);
        QVERIFY_THROWS_EXCEPTION(pl::InputError,
                                 pl::runEngine(eng, {in("m.eenn.json"), in("other.npy")}, p, ctx2));
        pl::RunContext ctx3(1);
        QVERIFY_THROWS_EXCEPTION(pl::InputError, pl::runEngine(eng, {in("labels.npy")}, p, ctx3));
    }

    void deterministic() {
        EarlyExitEngine e;
        pl::ParamSet p(e.params());
        p.set(keys::param::kSamples, int64_t(2000));
        p.set(keys::param::kEvalSamples, int64_t(1000));
        p.set(keys::param::kEpochs, int64_t(2));
        auto run = [&](uint64_t seed) {
            pl::RunContext ctx(seed);
            pl::ResultDocument d = pl::runEngine(e, {}, p, ctx);
            d.elapsedMs = 0;
            return d.toJson();
        };
        QCOMPARE(run(3), run(3));
        QVERIFY(run(3) != run(4));
    }

    void jointLossGradientMatchesFiniteDifferences() {
        // The whole early-exit MLP (3 exits, ReLU blocks, heads, summed cross-entropies): the tape's
        // gradient against central differences along random directions and single coordinates.
        MixtureSpec spec;
        spec.classes = 4;
        spec.dim = 6;
        const MixtureData batch = sampleMixture(spec, 40, pl::Rng(8), pl::Rng(9));
        EarlyExitConfig c;
        c.exits = 3;
        c.width = 7;
        Eigen::VectorXd g;
        const double L0 = earlyExitJointLoss(batch, spec.classes, c, pl::Rng(10), {}, &g);
        QVERIFY(std::isfinite(L0) && L0 > 0);
        const Eigen::Index P = g.size();
        QCOMPARE(P, Eigen::Index(6 * 7 + 2 * 7 * 7 + 3 * 7 + 3 * 7 * 4 + 3 * 4));
        const double h = 1e-6;
        pl::Rng rng(11);
        auto fd = [&](const Eigen::VectorXd& v) {
            return (earlyExitJointLoss(batch, spec.classes, c, pl::Rng(10), h * v, nullptr) -
                    earlyExitJointLoss(batch, spec.classes, c, pl::Rng(10), -h * v, nullptr)) /
                   (2 * h);
        };
        for (int trial = 0; trial < 8; ++trial) {
            Eigen::VectorXd v(P);
            for (Eigen::Index i = 0; i < P; ++i)
                v(i) = rng.normal();
            v /= v.norm();
            const double a = g.dot(v), b = fd(v);
            QVERIFY2(std::abs(a - b) < 1e-6 * std::max(1.0, std::abs(a)),
                     qPrintable(QString("%1 vs %2").arg(a, 0, 'g', 12).arg(b, 0, 'g', 12)));
        }
        for (Eigen::Index i : {Eigen::Index(0), P / 3, P / 2, P - 1}) {
            const Eigen::VectorXd e = Eigen::VectorXd::Unit(P, i);
            QVERIFY2(std::abs(g(i) - fd(e)) < 1e-6 * std::max(1.0, std::abs(g(i))),
                     qPrintable(QString("coordinate %1: %2 vs %3").arg(i).arg(g(i)).arg(fd(e))));
        }
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            earlyExitJointLoss(batch, spec.classes, c, pl::Rng(10), Eigen::VectorXd::Zero(3), nullptr));
    }

    void cancels() {
        EarlyExitEngine e;
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, pl::ParamSet(e.params()), ctx));
    }

    void claimsAtFixedSeeds_data() {
        QTest::addColumn<uint64_t>("seed");
        for (uint64_t s : {1u, 2u, 3u})
            QTest::newRow(qPrintable(QString::number(s))) << s;
    }
    void claimsAtFixedSeeds() {
        QFETCH(uint64_t, seed);
        EarlyExitEngine e;
        pl::RunContext ctx(seed);
        const auto d = pl::runEngine(e, {}, pl::ParamSet(e.params()), ctx);
        QCOMPARE(d.claims.size(), size_t(3));
        for (const auto& c : d.claims)
            qInfo("seed %llu %s holds=%d observed=%g: %s", (unsigned long long)seed, c.id.c_str(),
                  int(c.holds), c.observed, c.detail.c_str());
        auto holds = [&](const char* id) {
            for (const auto& c : d.claims)
                if (c.id == id)
                    return c.holds;
            return false;
        };
        QVERIFY(holds(keys::claim::kCounterExample));
        QVERIFY(holds(keys::claim::kProcedure));
        // C2 (rho >= 0.8 and 0.2 above |rho(-ECE)|) holds at seeds 1 and 2 but not at seed 3
        // (rho = 0.59): the engine reports holds = false there. At every seed EEFP tracks the area
        // better than -ECE does.
        QVERIFY(d.metrics.at(keys::metric::kSpearmanEefpArea) >
                std::abs(d.metrics.at(keys::metric::kSpearmanEceArea)));
        // Deeper exits are better on this workload (the premise of early exiting).
        const auto& acc = d.vectors.at(keys::vector::kAccuracy);
        QVERIFY(acc.back() > acc.front());
    }
};

QTEST_GUILESS_MAIN(TestEefp)
#include "tst_eefp.moc"
