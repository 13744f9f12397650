// FTRL / MWU / fictitious-play dynamics: convergence to approximate equilibria of potential
// games, the known equivalences (constant-rate MWU = entropic FTRL; double-precision FP on
// integer-valued payoffs = exact FP), the N-player tensor version against the two-player one,
// the log-spaced recording grid, the diagnostics' definitions, and cancellation.
#include "core/Errors.h"
#include "core/Rng.h"
#include "core/RunContext.h"
#include "games/FictitiousPlay.h"
#include "games/FtrlDynamics.h"
#include "games/FtrlTensorDynamics.h"
#include "games/PotentialCheck.h"
#include "games/PotentialGenerators.h"
#include "games/SnakeGame.h"

#include <QtTest>
#include <cmath>
#include <thread>

using namespace pl::games;

class TstFtrlDynamics : public QObject {
    Q_OBJECT
private slots:
    void nashGapDefinition();
    void entropicConvergesOnRandomPotentialGames();
    void otherRulesConverge_data();
    void otherRulesConverge();
    void mwuEqualsEntropicForConstantEta();
    void mwuDiffersForVanishingEta();
    void fictitiousPlayMatchesExact();
    void snakeFtrlSpecPilot();
    void recordingGrid();
    void trajectoryProjection();
    void tensorMatchesBimatrix_data();
    void tensorMatchesBimatrix();
    void tensorThreePlayerPotential();
    void cancellation();
    void badConfig();
};

void TstFtrlDynamics::nashGapDefinition() {
    Eigen::MatrixXd A(2, 2), B(2, 2);
    A << 3, 0, 5, 1;
    B << 3, 5, 0, 1;
    Eigen::VectorXd x(2), y(2);
    x << 1, 0;
    y << 1, 0;
    // (1,1): row gains 5 - 3 = 2 by deviating, column gains 5 - 3 = 2.
    QCOMPARE(nashGapFromProducts(x, y, A * y, B.transpose() * x), 2.0);
    x << 0, 1;
    y << 0, 1;
    QCOMPARE(nashGapFromProducts(x, y, A * y, B.transpose() * x), 0.0);
}

void TstFtrlDynamics::entropicConvergesOnRandomPotentialGames() {
    pl::Rng rng(17);
    for (int trial = 0; trial < 12; ++trial) {
        const int n = 3 + trial % 4;
        const FtrlGame g = makeRandomPotentialGame(n, n, rng);
        const PotentialReport pot = checkPotential(g.A, g.B);
        FtrlConfig c;
        c.eta = 3.0;
        c.maxSteps = 100000;
        c.epsilon = 1e-3;
        const FtrlTrace tr = runFtrl(g, c, &pot.phi);
        QVERIFY2(tr.finalGap <= 1e-3, qPrintable(QString("trial %1 gap %2").arg(trial).arg(tr.finalGap)));
        QVERIFY(tr.firstEpsilonStep >= 0);
        // The potential does not decrease much along the recorded iterates once near the end.
        QVERIFY(tr.potential.back() >= tr.potential.front() - 1e-12);
    }
}

void TstFtrlDynamics::otherRulesConverge_data() {
    QTest::addColumn<int>("dynamics");
    QTest::addColumn<int>("update");
    QTest::addColumn<int>("schedule");
    QTest::newRow("euclidean simultaneous") << int(FtrlDynamicsKind::Euclidean) << 0 << 0;
    QTest::newRow("euclidean alternating") << int(FtrlDynamicsKind::Euclidean) << 1 << 0;
    QTest::newRow("entropic alternating") << int(FtrlDynamicsKind::Entropic) << 1 << 0;
    QTest::newRow("entropic vanishing") << int(FtrlDynamicsKind::Entropic) << 0 << 1;
    QTest::newRow("mwu vanishing") << int(FtrlDynamicsKind::Mwu) << 0 << 1;
    QTest::newRow("fictitious play") << int(FtrlDynamicsKind::FictitiousPlay) << 0 << 0;
    QTest::newRow("fictitious play alternating") << int(FtrlDynamicsKind::FictitiousPlay) << 1 << 0;
}

void TstFtrlDynamics::otherRulesConverge() {
    QFETCH(int, dynamics);
    QFETCH(int, update);
    QFETCH(int, schedule);
    pl::Rng rng(23);
    int converged = 0;
    for (int trial = 0; trial < 8; ++trial) {
        const FtrlGame g = makeRandomPotentialGame(4, 4, rng);
        FtrlConfig c;
        c.dynamics = FtrlDynamicsKind(dynamics);
        c.update = FtrlUpdate(update);
        c.schedule = FtrlSchedule(schedule);
        c.eta = schedule == 1 ? 30.0 : 3.0;
        c.maxSteps = 200000;
        const FtrlTrace tr = runFtrl(g, c);
        converged += tr.finalGap <= 1e-3 ? 1 : 0;
        QVERIFY(std::abs(tr.x.sum() - 1) < 1e-12 && tr.x.minCoeff() >= 0);
        QVERIFY(std::abs(tr.y.sum() - 1) < 1e-12 && tr.y.minCoeff() >= 0);
    }
    // Fictitious play's own iterates may keep cycling between ties in rare games; all others converge.
    QVERIFY2(converged >= 7, qPrintable(QString::number(converged)));
}

void TstFtrlDynamics::mwuEqualsEntropicForConstantEta() {
    pl::Rng rng(4);
    const FtrlGame g = makeRandomIdenticalGame(5, 5, rng);
    FtrlConfig c;
    c.eta = 0.7;
    c.maxSteps = 2000;
    c.startPure = false;
    const FtrlTrace ftrl = runFtrl(g, c);
    c.dynamics = FtrlDynamicsKind::Mwu;
    const FtrlTrace mwu = runFtrl(g, c);
    QVERIFY((ftrl.x - mwu.x).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY((ftrl.y - mwu.y).cwiseAbs().maxCoeff() < 1e-9);
    QCOMPARE(ftrl.step, mwu.step);
}

void TstFtrlDynamics::mwuDiffersForVanishingEta() {
    pl::Rng rng(4);
    const FtrlGame g = makeRandomIdenticalGame(5, 5, rng);
    FtrlConfig c;
    c.eta = 0.7;
    c.maxSteps = 50;
    c.schedule = FtrlSchedule::Vanishing;
    const FtrlTrace ftrl = runFtrl(g, c);
    c.dynamics = FtrlDynamicsKind::Mwu;
    const FtrlTrace mwu = runFtrl(g, c);
    QVERIFY((ftrl.x - mwu.x).cwiseAbs().maxCoeff() > 1e-6);
}

void TstFtrlDynamics::fictitiousPlayMatchesExact() {
    // Integer-valued utilities in doubles are exact, so the double FP reproduces the exact count.
    for (int n = 2; n <= 5; ++n) {
        const FtrlGame g = makeLinearSnake(n);
        FpOptions o;
        o.targetRow = o.targetCol = n - 1;
        o.maxSteps = UInt128(1) << 40;
        const FpResult exact = runFictitiousPlayEvents(*g.exact, o);
        FtrlConfig c;
        c.dynamics = FtrlDynamicsKind::FictitiousPlay;
        c.maxSteps = 200000000;
        c.stopAtTarget = true;
        c.record = n <= 4;
        const FtrlTrace tr = runFtrl(g, c);
        QCOMPARE(double(tr.firstTargetStep), toDouble(exact.steps));
        if (c.record) { // recorded periods follow the snake's path
            int64_t last = -2;
            int distinct = 0;
            for (int64_t p : tr.period)
                if (p != last) {
                    last = p;
                    ++distinct;
                }
            QVERIFY(distinct <= 2 * n - 1);
        }
    }
    // Random potential games: same for every tie rule (with exact ties from coarse levels).
    pl::Rng rng(8);
    for (int trial = 0; trial < 10; ++trial) {
        FtrlGame g = makeRandomPotentialGame(4, 4, rng);
        for (auto& v : g.exact->a)
            v /= 200;
        for (auto& v : g.exact->b)
            v /= 200;
        g.exact->denominator = 5;
        fillFromExact(g);
        for (TieBreak tb : {TieBreak::Lowest, TieBreak::Adversarial, TieBreak::Random}) {
            FpOptions o;
            o.tieBreak = tb;
            o.seed = 77;
            o.targetRow = g.targetRow;
            o.targetCol = g.targetCol;
            o.maxSteps = 3000;
            const FpResult exact = runFictitiousPlayStep(*g.exact, o);
            FtrlConfig c;
            c.dynamics = FtrlDynamicsKind::FictitiousPlay;
            c.tieBreak = tb;
            c.seed = 77;
            c.maxSteps = 3000;
            c.record = false;
            const FtrlTrace tr = runFtrl(g, c);
            QCOMPARE(tr.firstTargetStep, exact.reached ? int64_t(exact.steps) : int64_t(-1));
        }
    }
}

void TstFtrlDynamics::snakeFtrlSpecPilot() {
    // The spec's float pilot (entropic, simultaneous, first play (1,1), >= 0.99 mass on (n,n)) counts
    // the first play as step 1; our iterate index starts at 0, so its numbers are ours + 1:
    // n = 4: 858 (eta 0.3), 67 112 (eta 1), 389 236 (eta 3), 159 900 (eta 1000).
    const FtrlGame g = makeLinearSnake(4);
    const std::pair<double, int64_t> cases[] = {{0.3, 857}, {1.0, 67111}, {3.0, 389235}, {1000.0, 159899}};
    for (const auto& [eta, steps] : cases) {
        FtrlConfig c;
        c.eta = eta;
        c.maxSteps = 1000000;
        c.stopAtTarget = true;
        c.record = false;
        QCOMPARE(runFtrl(g, c).firstTargetStep, steps);
    }
}

void TstFtrlDynamics::recordingGrid() {
    const FtrlGame g = makeLinearSnake(3);
    FtrlConfig c;
    c.maxSteps = 123456;
    c.pointsPerDecade = 10;
    const FtrlTrace tr = runFtrl(g, c);
    QCOMPARE(tr.step.front(), 0.0);
    QCOMPARE(tr.step.back(), 123456.0);
    for (int k = 0; k <= 10; ++k)
        QCOMPARE(tr.step[size_t(k)], double(k));
    for (size_t k = 1; k < tr.step.size(); ++k)
        QVERIFY(tr.step[k] > tr.step[k - 1]);
    QVERIFY(tr.step.size() < 70); // ~10 per decade over 5 decades, plus the first ten
    const size_t len = tr.step.size();
    QCOMPARE(tr.gap.size(), len);
    QCOMPARE(tr.gapAverage.size(), len);
    QCOMPARE(tr.potential.size(), len);
    QCOMPARE(tr.period.size(), len);
    QCOMPARE(tr.xs.size(), len);
    QVERIFY(std::isnan(tr.potential[0]));    // no potential given
    QCOMPARE(tr.period.front(), int64_t(0)); // pure (1,1)
    QCOMPARE(tr.period.back(), int64_t(8));  // pure (3,3) = 2*3 + 2
    QCOMPARE(tr.stepsRun, int64_t(123456));
}

void TstFtrlDynamics::trajectoryProjection() {
    Eigen::MatrixXd A(2, 2);
    A << 1, 0, 0, 2;
    FtrlGame g;
    g.A = A;
    g.B = A;
    FtrlConfig c;
    c.eta = 0.5;
    c.maxSteps = 30;
    c.startPure = false;
    const FtrlTrace tr = runFtrl(g, c);
    for (size_t k = 0; k < tr.step.size(); ++k) {
        QVERIFY(std::abs(tr.trajX[k] - tr.xs[k](0)) < 1e-14); // 1 - x_2 = x_1 up to rounding
        QVERIFY(std::abs(tr.trajY[k] - tr.ys[k](0)) < 1e-14);
    }
}

void TstFtrlDynamics::tensorMatchesBimatrix_data() {
    QTest::addColumn<int>("dynamics");
    QTest::addColumn<int>("update");
    QTest::newRow("entropic") << int(FtrlDynamicsKind::Entropic) << 0;
    QTest::newRow("euclidean alternating") << int(FtrlDynamicsKind::Euclidean) << 1;
    QTest::newRow("mwu") << int(FtrlDynamicsKind::Mwu) << 0;
    QTest::newRow("fictitious play") << int(FtrlDynamicsKind::FictitiousPlay) << 0;
}

void TstFtrlDynamics::tensorMatchesBimatrix() {
    QFETCH(int, dynamics);
    QFETCH(int, update);
    pl::Rng rng(31);
    const FtrlGame g = makeRandomPotentialGame(3, 4, rng);
    const NormalFormGame nfg = NormalFormGame::fromBimatrix(g.A, g.B);
    FtrlConfig c;
    c.dynamics = FtrlDynamicsKind(dynamics);
    c.update = FtrlUpdate(update);
    c.maxSteps = 500;
    const FtrlTrace two = runFtrl(g, c);
    const FtrlTensorTrace many = runFtrlTensor(nfg, c);
    QVERIFY((two.x - many.final[0]).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY((two.y - many.final[1]).cwiseAbs().maxCoeff() < 1e-9);
    QCOMPARE(two.step, many.step);
    for (size_t k = 0; k < two.gap.size(); ++k)
        QVERIFY(std::abs(two.gap[k] - many.gap[k]) < 1e-9);
}

void TstFtrlDynamics::tensorThreePlayerPotential() {
    // Identical interest 2x2x2: u = 1 at (1,1,1), 3 at (2,2,2), 0 elsewhere.
    NormalFormGame g;
    g.numStrategies = {2, 2, 2};
    std::vector<double> u(8, 0.0);
    u[0] = 1;
    u[7] = 3;
    g.payoffs = {u, u, u};
    const PotentialReport pot = checkPotential(g.numStrategies, g.payoffs);
    QVERIFY(pot.isPotential);
    FtrlConfig c;
    c.maxSteps = 20000;
    c.startPure = false;
    const std::vector<int> target{1, 1, 1};
    const FtrlTensorTrace tr = runFtrlTensor(g, c, &pot.phiFlat, &target);
    QVERIFY(tr.finalGap < 1e-6);
    QVERIFY(tr.firstTargetStep > 0);
    QCOMPARE(tr.period.back(), int64_t(7));
    QVERIFY(std::abs(tr.potential.back() - 3.0) < 1e-6);
    QCOMPARE(tr.projected.size(), size_t(3));
    QCOMPARE(bestPureNashTensor(g), target);
}

void TstFtrlDynamics::cancellation() {
    const FtrlGame g = makeLinearSnake(4);
    FtrlConfig c;
    c.maxSteps = 1000000000;
    pl::RunContext ctx;
    std::thread stopper([&ctx] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ctx.requestStop();
    });
    QElapsedTimer timer;
    timer.start();
    bool cancelled = false;
    try {
        runFtrl(g, c, nullptr, &ctx);
    } catch (const pl::Cancelled&) {
        cancelled = true;
    }
    stopper.join();
    QVERIFY(cancelled);
    QVERIFY(timer.elapsed() < 2000);
}

void TstFtrlDynamics::badConfig() {
    const FtrlGame g = makeLinearSnake(3);
    FtrlConfig c;
    c.eta = 0;
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, runFtrl(g, c));
    c.eta = 1;
    c.firstRow = 3;
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, runFtrl(g, c));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, parseFtrlDynamics("log_barrier"));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, parseTieBreak("first"));
}

QTEST_APPLESS_MAIN(TstFtrlDynamics)
#include "tst_ftrl_dynamics.moc"
