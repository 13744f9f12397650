// Tests of the fair-linear-bandits side of the bandit engine: Sherman-Morrison against a direct
// inverse, the Frank-Wolfe G-optimal design against the multiplicative (Titterington) algorithm,
// the floor LP (CLP) against scipy.optimize.linprog, p-means against numpy, the engine's claims
// at fixed seeds (logged; the design claim asserted), determinism, cancellation and bad files.
#include "bandits/Design.h"
#include "bandits/FairLinearBanditsEngine.h"
#include "bandits/FairLinearBanditsKeys.h"
#include "bandits/InverseGram.h"
#include "bandits/PMean.h"
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/Rng.h"

#include <Eigen/Dense>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl;
using namespace pl::bandits;
namespace K = pl::bandits::fair::keys;

using pl::test::havePython;
using pl::test::runPython;

namespace {

Eigen::MatrixXd randomArms(Rng& rng, int K, int d) {
    Eigen::MatrixXd X(K, d);
    for (int i = 0; i < K; ++i) {
        for (int j = 0; j < d; ++j)
            X(i, j) = std::fabs(rng.normal());
        X.row(i).normalize();
    }
    return X;
}

/// The multiplicative algorithm for D-optimal designs: λ_i ← λ_i · x_iᵀV(λ)⁻¹x_i / d.
Eigen::VectorXd multiplicativeDesign(const Eigen::MatrixXd& X, int iterations) {
    const int K = int(X.rows()), d = int(X.cols());
    Eigen::VectorXd lam = Eigen::VectorXd::Constant(K, 1.0 / K);
    for (int it = 0; it < iterations; ++it) {
        const Eigen::MatrixXd V = X.transpose() * lam.asDiagonal() * X;
        const Eigen::MatrixXd Vinv = V.ldlt().solve(Eigen::MatrixXd::Identity(d, d));
        const Eigen::VectorXd g = (X * Vinv).cwiseProduct(X).rowwise().sum();
        lam = lam.cwiseProduct(g) / d;
    }
    return lam;
}

double logDet(const Eigen::MatrixXd& X, const Eigen::VectorXd& lam) {
    const Eigen::MatrixXd V = X.transpose() * lam.asDiagonal() * X;
    return std::log(V.determinant());
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

ResultDocument runEngine(const ParamSet& ps, uint64_t seed, const InputList& in = {}) {
    FairLinearBanditsEngine e;
    RunContext ctx(seed);
    return e.run(in, ps, ctx);
}

ParamSet fastParams() {
    FairLinearBanditsEngine e;
    ParamSet ps(e.params());
    ps.setText(K::param::kT, "1000");
    ps.setText(K::param::kRuns, "4");
    return ps;
}

} // namespace

class TestFairBandits : public QObject {
    Q_OBJECT
private slots:
    void shermanMorrisonMatchesDirectInverse() {
        Rng rng(3);
        const Eigen::MatrixXd X = randomArms(rng, 30, 6);
        InverseGram g(X, 1.0);
        Eigen::MatrixXd V = Eigen::MatrixXd::Identity(6, 6);
        for (int t = 0; t < 200; ++t) {
            const int a = int(rng.uniformInt(30));
            g.addArm(a);
            V += X.row(a).transpose() * X.row(a);
        }
        const Eigen::MatrixXd Vinv = V.inverse();
        QVERIFY((g.inverse() - Vinv).cwiseAbs().maxCoeff() < 1e-12);
        const Eigen::VectorXd norms = (X * Vinv).cwiseProduct(X).rowwise().sum();
        QVERIFY((g.norms() - norms).cwiseAbs().maxCoeff() < 1e-12);
    }

    void frankWolfeMatchesMultiplicative() {
        Rng rng(5);
        for (int trial = 0; trial < 5; ++trial) {
            const int d = 2 + int(rng.uniformInt(8)), Karms = d + 5 + int(rng.uniformInt(60));
            const Eigen::MatrixXd X = randomArms(rng, Karms, d);
            const DesignResult fw = gOptimalDesign(X, 1e-4);
            QVERIFY(fw.converged);
            QCOMPARE(fw.rank, d);
            QVERIFY(fw.gmax <= d * (1 + 1e-4));
            QVERIFY(std::fabs(fw.weights.sum() - 1) < 1e-12);
            QVERIFY(fw.weights.minCoeff() >= 0);
            QVERIFY(std::fabs(designGmax(X, fw.weights) - fw.gmax) < 1e-8 * d);
            const Eigen::VectorXd mult = multiplicativeDesign(X, 5000);
            // Kiefer-Wolfowitz: both maximise log det V(λ); FW's gap is at most log(1 + eps)·d.
            const double a = logDet(X, fw.weights), b = logDet(X, mult);
            QVERIFY2(std::fabs(a - b) < 1e-3, qPrintable(QString("log det FW %1 mult %2").arg(a).arg(b)));
            QVERIFY(designGmax(X, mult) < d * 1.01);
        }
    }

    void designOnRankDeficientSet() {
        Rng rng(9);
        Eigen::MatrixXd X = randomArms(rng, 20, 3);
        Eigen::MatrixXd Y(20, 5);
        Y << X, X.col(0) + X.col(1), Eigen::VectorXd::Zero(20); // rank 3 in R^5
        const DesignResult fw = gOptimalDesign(Y, 1e-3);
        QCOMPARE(fw.rank, 3);
        QVERIFY(fw.gmax <= 3 * (1 + 1e-3));
    }

    void floorLpMatchesScipy() {
        if (!havePython("numpy, scipy.optimize"))
            QSKIP("numpy/scipy not available to /usr/bin/python3");
        QTemporaryDir dir;
        Rng rng(13);
        QStringList files;
        std::vector<FloorDesign> ours;
        for (int k = 0; k < 6; ++k) {
            const int d = 2 + int(rng.uniformInt(10)), Karms = 5 + int(rng.uniformInt(80));
            Eigen::MatrixXd X = randomArms(rng, Karms, d);
            if (k % 2)
                X = X.array() * X.array(); // sparser, less symmetric arms
            std::string text;
            for (int i = 0; i < Karms; ++i) {
                for (int j = 0; j < d; ++j)
                    text += (j ? "," : "") + QString::number(X(i, j), 'g', 17).toStdString();
                text += "\n";
            }
            const QString f = dir.filePath(QString("x%1.csv").arg(k));
            writeText(f, text);
            files << f;
            ours.push_back(floorDesign(X));
            const Eigen::VectorXd mix = X.transpose() * ours.back().weights;
            QVERIFY(mix.minCoeff() >= ours.back().floor - 1e-9);
        }
        const char* script = R"(
import sys, numpy as np
from scipy.optimize import linprog
for f in sys.argv[1:]:
    X = np.loadtxt(f, delimiter=',', ndmin=2); K, d = X.shape
    c = np.zeros(K + 1); c[-1] = -1
    A_ub = np.hstack([-X.T, np.ones((d, 1))])
    A_eq = np.hstack([np.ones((1, K)), np.zeros((1, 1))])
    r = linprog(c, A_ub=A_ub, b_ub=np.zeros(d), A_eq=A_eq, b_eq=[1],
                bounds=[(0, None)] * K + [(None, None)], method='highs')
    print(repr(-r.fun))
)";
        const QStringList values = runPython(script, files).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(values.size(), files.size());
        for (int k = 0; k < values.size(); ++k)
            QVERIFY2(
                std::fabs(ours[size_t(k)].floor - values[k].toDouble()) < 1e-8,
                qPrintable(QString("%1: CLP %2 scipy %3").arg(k).arg(ours[size_t(k)].floor).arg(values[k])));
    }

    void pMeansMatchNumpy() {
        if (!havePython("numpy"))
            QSKIP("numpy not available to /usr/bin/python3");
        Rng rng(17);
        std::vector<double> y(500);
        QString csv;
        for (size_t i = 0; i < y.size(); ++i) {
            y[i] = 0.01 + rng.uniform();
            csv += (i ? "," : "") + QString::number(y[i], 'g', 17);
        }
        const std::vector<double> ps{-3, -1, -0.5, 0, 0.5, 1, 2};
        const char* script = R"(
import sys, numpy as np
y = np.array([float(v) for v in sys.argv[1].split(',')])
for p in [-3, -1, -0.5, 0, 0.5, 1, 2]:
    print(repr(float(np.exp(np.mean(np.log(y)))) if p == 0 else float(np.mean(y ** p) ** (1 / p))))
)";
        const QStringList values = runPython(script, {csv}).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(values.size(), int(ps.size()));
        for (size_t k = 0; k < ps.size(); ++k) {
            const double ours = pMean(y, ps[k]), ref = values[int(k)].toDouble();
            QVERIFY2(std::fabs(ours - ref) < 1e-12 * ref,
                     qPrintable(QString("p %1: %2 vs %3").arg(ps[k]).arg(ours).arg(ref)));
        }
        QCOMPARE(pMean({0.5, 0.0, 0.7}, 0), 0.0);
        QCOMPARE(pMean({0.5, 0.0, 0.7}, -1), 0.0);
        QVERIFY(std::fabs(pMean({0.5, 0.0, 0.7}, 1) - 0.4) < 1e-15);
        QVERIFY(std::fabs(logLogSlope({1, 10, 100}, {2, 20, 200}) - 1) < 1e-12);
    }

    void claimsAtFixedSeeds() {
        FairLinearBanditsEngine e;
        for (uint64_t seed : {1, 2, 3}) {
            const ResultDocument d = runEngine(ParamSet(e.params()), seed);
            const double muStar = d.metrics.at(K::metric::kMuStar);
            QVERIFY(std::fabs(d.metrics.at(K::key(K::metric::kRegretPrefix, "oracle"))) < 1e-12);
            // Uniform play: E[μ(x_t)] is the mean arm for every t up to sampling noise.
            const std::vector<double>& mu = d.vectors.at(K::vector::kArmMu);
            double avg = 0;
            for (double m : mu)
                avg += m / double(mu.size());
            QVERIFY(std::fabs(d.metrics.at(K::key(K::metric::kRegretPrefix, "uniform")) - (muStar - avg)) <
                    0.02);
            // R_p is non-increasing in p for algorithms whose runs do not depend on p.
            for (const char* alg : {"linucb", "linpe", "linnash", "uniform"}) {
                const Series& s = d.series.at(K::key(K::series::kRegretVsPPrefix, alg));
                for (size_t i = 1; i < s.y.size(); ++i)
                    QVERIFY2(s.y[i] <= s.y[i - 1] + 1e-12, alg);
            }
            QVERIFY(d.metrics.at(K::key(K::metric::kRegretPrefix, "linucb")) <
                    d.metrics.at(K::key(K::metric::kRegretPrefix, "uniform")));
            QVERIFY(d.metrics.at(K::metric::kFairFloor) > 0);
            for (const Claim& c : d.claims) {
                qInfo("seed %llu claim %s holds=%d observed=%.4g threshold=%.4g: %s",
                      (unsigned long long)seed, c.id.c_str(), int(c.holds), c.observed, c.threshold,
                      c.detail.c_str());
                QCOMPARE(c.holds, c.observed <= c.threshold);
                if (c.id == K::claim::kDesignOptimal)
                    QVERIFY(c.holds);
            }
            QCOMPARE(int(d.claims.size()), 4);
        }
    }

    void deterministicFromSeed() {
        const ParamSet ps = fastParams();
        const ResultDocument a = runEngine(ps, 7), b = runEngine(ps, 7), c = runEngine(ps, 8);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        QCOMPARE(a.series.at(K::key(K::series::kExpectedRewardPrefix, "linucb")).x.size(), size_t(1000));
    }

    void betaRewardsAndMuMin() {
        ParamSet ps = fastParams();
        ps.setText(K::param::kReward, "beta");
        ps.setText(K::param::kMuMin, "0.02");
        const ResultDocument d = runEngine(ps, 1);
        const std::vector<double>& mu = d.vectors.at(K::vector::kArmMu);
        QCOMPARE(
            int(std::count_if(mu.begin(), mu.end(), [](double m) { return std::fabs(m - 0.02) < 1e-12; })),
            10);
    }

    void cancels() {
        FairLinearBanditsEngine e;
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, ParamSet(e.params()), ctx));
    }

    void badFiles_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("p");
        QTest::addColumn<QString>("message");
        QTest::newRow("nan") << "a,b\n0.1,0.2\nnan,0.3\n"
                             << "0"
                             << ":3:1";
        QTest::newRow("ragged") << "a,b\n0.1,0.2\n0.3\n"
                                << "0"
                                << ":3";
        QTest::newRow("text") << "a,b\n0.1,0.2\n0.3,x\n"
                              << "0"
                              << ":3:2";
        QTest::newRow("mu out of range") << "a,b,mu\n0.1,0.2,0.5\n0.3,0.3,1.5\n"
                                         << "0"
                                         << ":3";
        QTest::newRow("mu zero at p=0") << "a,b,mu\n0.1,0.2,0.5\n0.3,0.3,0\n0.2,0.2,0\n"
                                        << "0"
                                        << "arms with mean 0: 2 (line 3), 3 (line 4)";
        QTest::newRow("mu zero at p=-1") << "a,b,mu\n0.1,0.2,0.5\n0.3,0.3,0\n"
                                         << "-1"
                                         << "Nash/p <= 0";
        QTest::newRow("empty") << "a,b\n"
                               << "0"
                               << "no data rows";
    }

    void badFiles() {
        QFETCH(QString, text);
        QFETCH(QString, p);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString f = dir.filePath("arms.csv");
        writeText(f, text.toStdString());
        FairLinearBanditsEngine e;
        ParamSet ps = fastParams();
        ps.setText(K::param::kP, p.toStdString());
        try {
            const auto in = e.load(f.toStdString());
            runEngine(ps, 1, {in});
            QFAIL("no error");
        } catch (const InputError& err) {
            const QString what = QString::fromStdString(err.what());
            QVERIFY2(what.contains("arms.csv"), qPrintable(what));
            QVERIFY2(what.contains(message, Qt::CaseInsensitive), qPrintable(what));
        }
    }

    void thetaFileAndZeroMeanAtPositiveP() {
        QTemporaryDir dir;
        const QString arms = dir.filePath("arms.csv"), theta = dir.filePath("theta.csv");
        writeText(arms, "x1,x2,x3\n1,0,0\n0,1,0\n0,0,1\n0.5,0.5,0\n");
        writeText(theta, "t1,t2,t3\n0.6,0.3,0.1\n");
        FairLinearBanditsEngine e;
        ParamSet ps = fastParams();
        const ResultDocument d = runEngine(ps, 1, {e.load(arms.toStdString()), e.load(theta.toStdString())});
        const std::vector<double>& mu = d.vectors.at(K::vector::kArmMu);
        QCOMPARE(mu.size(), size_t(4));
        QVERIFY(std::fabs(mu[3] - 0.45) < 1e-15);
        QVERIFY(std::fabs(d.metrics.at(K::metric::kMuStar) - 0.6) < 1e-15);
        // Wrong θ* length.
        writeText(theta, "t1,t2\n0.6,0.3\n");
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 runEngine(ps, 1, {e.load(arms.toStdString()), e.load(theta.toStdString())}));
        // A zero mean is fine at p > 0.
        writeText(arms, "a,b,mu\n0.1,0.2,0.5\n0.3,0.3,0\n");
        ps.setText(K::param::kP, "1");
        QVERIFY(runEngine(ps, 1, {e.load(arms.toStdString())}).metrics.count(K::metric::kMuStar));
    }

    void rankDeficientIsProjected() {
        QTemporaryDir dir;
        const QString arms = dir.filePath("flat.csv");
        writeText(arms, "x1,x2,x3\n0.5,0.5,0\n0.2,0.8,0\n0.9,0.1,0\n0.4,0.4,0\n");
        FairLinearBanditsEngine e;
        const ResultDocument d = runEngine(fastParams(), 1, {e.load(arms.toStdString())});
        bool warned = false;
        for (const auto& n : d.notes)
            warned |= n.find("span only 2 of 3") != std::string::npos;
        QVERIFY(warned);
        QVERIFY(d.metrics.at(K::metric::kDesignGmax) <= 2 * 1.01 + 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestFairBandits)
#include "tst_fair_bandits.moc"
