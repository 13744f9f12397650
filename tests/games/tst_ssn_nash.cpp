// Tests of the zero-sum game math and the ssn-nash engine: simplex projection, certificates,
// PRM+, the DRS operator and its Newton step, the solvers against LP / scipy / lrsnash
// references, determinism, claims and cancellation.
#include "core/DenseLu.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "games/DrsOperator.h"
#include "games/GameGenerators.h"
#include "games/GameLoader.h"
#include "games/LpReference.h"
#include "games/NashGap.h"
#include "games/NfgReader.h"
#include "games/PrmPlus.h"
#include "games/Simplex.h"
#include "games/SsnNash.h"
#include "games/SsnNashEngine.h"

#include <Eigen/Dense>
#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

using namespace pl::games;

namespace {

QString gamesDir() {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/games");
}

Eigen::VectorXd randomVector(pl::Rng& rng, int n, double scale = 1.0) {
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i)
        v[i] = scale * rng.normal();
    return v;
}

/// Projection onto the simplex by enumerating every support (exponential; n <= 8).
Eigen::VectorXd bruteForceProjection(const Eigen::VectorXd& v) {
    const int n = int(v.size());
    Eigen::VectorXd best;
    double bestDist = std::numeric_limits<double>::infinity();
    for (int mask = 1; mask < (1 << n); ++mask) {
        double sum = 0;
        int k = 0;
        for (int i = 0; i < n; ++i)
            if (mask & (1 << i)) {
                sum += v[i];
                ++k;
            }
        const double shift = (sum - 1.0) / k;
        Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
        bool feasible = true;
        for (int i = 0; i < n; ++i)
            if (mask & (1 << i)) {
                x[i] = v[i] - shift;
                feasible = feasible && x[i] >= -1e-15;
            }
        if (feasible && (x - v).squaredNorm() < bestDist) {
            bestDist = (x - v).squaredNorm();
            best = x;
        }
    }
    return best;
}

/// M = [[0, -A], [A^T, 0]] (row player maximises).
Eigen::MatrixXd skewOperator(const Eigen::MatrixXd& A) {
    const Eigen::Index n = A.rows(), m = A.cols();
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n + m, n + m);
    M.topRightCorner(n, m) = -A;
    M.bottomLeftCorner(m, n) = A.transpose();
    return M;
}

pl::ResultDocument runEngine(const pl::InputList& inputs, const std::map<std::string, std::string>& sets,
                             uint64_t seed = 42) {
    SsnNashEngine e;
    pl::ParamSet ps(e.params());
    for (const auto& [k, v] : sets)
        ps.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run(inputs, ps, ctx);
}

const pl::Claim* findClaim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

/// "3/5" or "-1" -> double.
double parseRational(const QString& t) {
    const int slash = int(t.indexOf('/'));
    return slash < 0 ? t.toDouble() : t.left(slash).toDouble() / t.mid(slash + 1).toDouble();
}

} // namespace

class TestSsnNash : public QObject {
    Q_OBJECT

private slots:
    void simplexProjection();
    void simplexJacobian();
    void certificatesAndGaps();
    void generators();
    void prmPlusAverages();
    void resolventAndResidual();
    void newtonDirectionMatchesDenseSolve();
    void autoGammaIsInverseNorm();
    void closedFormGames();
    void oneillThroughEngine();
    void hybridMatchesLp();
    void lpMatchesScipy();
    void lrsnashValues();
    void engineResultKeys();
    void engineInputs();
    void determinism();
    void claimsAtDefaultSeed();
    void cancellation();
    void factorisationIsCancellable();
};

void TestSsnNash::simplexProjection() {
    pl::Rng rng(1);
    for (int trial = 0; trial < 400; ++trial) {
        const int n = 1 + int(rng.uniformInt(7));
        const Eigen::VectorXd v = randomVector(rng, n, 1.0 + trial % 3);
        const Eigen::VectorXd p = projectSimplex(v);
        const Eigen::VectorXd b = bruteForceProjection(v);
        QVERIFY2((p - b).cwiseAbs().maxCoeff() < 1e-12, qPrintable(QString::number(trial)));
        QVERIFY(std::abs(p.sum() - 1.0) < 1e-12);
        QVERIFY(p.minCoeff() >= 0);
    }
    // Points of the simplex are fixed; ties and large shifts are handled.
    Eigen::VectorXd x(4);
    x << 0.1, 0.2, 0.3, 0.4;
    QVERIFY((projectSimplex(x) - x).norm() < 1e-15);
    QVERIFY((projectSimplex(Eigen::VectorXd::Constant(5, 1e6)) - Eigen::VectorXd::Constant(5, 0.2)).norm() <
            1e-9);
    Eigen::VectorXd one(1);
    one << -3.0;
    QCOMPARE(projectSimplex(one)[0], 1.0);
    Eigen::VectorXd out(4);
    projectSimplex(x * 3.0, out);
    QCOMPARE(int(supportOf(out).size()), int((out.array() > 0).count()));
}

void TestSsnNash::simplexJacobian() {
    pl::Rng rng(2);
    for (int trial = 0; trial < 50; ++trial) {
        const int n = 2 + int(rng.uniformInt(6));
        const Eigen::VectorXd v = randomVector(rng, n);
        const Eigen::VectorXd h = randomVector(rng, n);
        const double eps = 1e-7;
        const Eigen::VectorXd fd = (projectSimplex(Eigen::VectorXd(v + eps * h)) - projectSimplex(v)) / eps;
        QVERIFY((simplexProjectionJacobian(v) * h - fd).norm() < 1e-5 * (1 + h.norm()));
    }
}

void TestSsnNash::certificatesAndGaps() {
    // Prisoner's dilemma: (defect, defect) is the unique equilibrium.
    const NormalFormGame pd = NfgReader::readFile((gamesDir() + "/prisoners-dilemma.nfg").toStdString());
    const Eigen::MatrixXd A = pd.matrix(0), B = pd.matrix(1);
    Eigen::VectorXd d(2), c(2);
    d << 0, 1;
    c << 1, 0;
    QCOMPARE(bimatrixNashGap(A, B, d, d), 0.0);
    QCOMPARE(bimatrixNashGap(A, B, c, c), 4.0); // each player gains T - R = 5 - 3 by defecting
    QCOMPARE(nashGap(pd, {d, d}), 0.0);
    QCOMPARE(nashGap(pd, {c, c}), 4.0);
    QCOMPARE(bestResponses(A * c), std::vector<int>{1});
    // N-player expected payoffs against brute-force enumeration.
    pl::Rng rng(3);
    NormalFormGame g;
    g.numStrategies = {2, 3, 2};
    g.payoffs.assign(3, std::vector<double>(12));
    for (auto& p : g.payoffs)
        for (auto& u : p)
            u = rng.normal();
    std::vector<Eigen::VectorXd> sigma;
    for (int k : g.numStrategies)
        sigma.push_back(projectSimplex(randomVector(rng, k)));
    for (int p = 0; p < 3; ++p) {
        Eigen::VectorXd brute = Eigen::VectorXd::Zero(g.numStrategies[size_t(p)]);
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 3; ++b)
                for (int e = 0; e < 2; ++e) {
                    const std::vector<int> prof = {a, b, e};
                    double w = 1;
                    for (int q = 0; q < 3; ++q)
                        if (q != p)
                            w *= sigma[size_t(q)][prof[size_t(q)]];
                    brute[prof[size_t(p)]] += w * g.payoff(p, prof);
                }
        QVERIFY((purePayoffs(g, sigma, p) - brute).norm() < 1e-12);
    }
    QVERIFY(nashGap(g, sigma) >= 0);
    // Zero-sum certificate: lower <= value <= upper.
    const Eigen::MatrixXd Z = randomZeroSumGame(GameGenerator::Gaussian, 7, 5, rng);
    const Eigen::VectorXd zx = projectSimplex(randomVector(rng, 7));
    const ZeroSumCertificate zc = zeroSumCertificate(Z, zx, projectSimplex(randomVector(rng, 5)));
    QVERIFY(zc.lower <= zc.value && zc.value <= zc.upper && zc.gap() >= 0);
}

void TestSsnNash::generators() {
    pl::Rng a(9), b(9);
    QVERIFY(randomZeroSumGame(GameGenerator::Gaussian, 6, 4, a) ==
            randomZeroSumGame(GameGenerator::Gaussian, 6, 4, b));
    const Eigen::MatrixXd rps = randomZeroSumGame(GameGenerator::Rps, 7, 3, a);
    QCOMPARE(rps.rows(), Eigen::Index(7));
    QVERIFY((rps + rps.transpose()).isZero(0));
    QVERIFY(rps(0, 1) > 0 && rps(0, 6) < 0); // 1 beats 2, 7 beats 1
    const Eigen::MatrixXd hs = randomZeroSumGame(GameGenerator::HideAndSeek, 5, 9, a);
    QVERIFY(hs.cols() == 5 && Eigen::MatrixXd(hs.diagonal().asDiagonal()) == hs && hs.minCoeff() >= 0);
    const Eigen::MatrixXd dg = randomZeroSumGame(GameGenerator::Degenerate, 9, 6, a);
    int repeated = 0;
    for (int i = 0; i < 9; ++i)
        for (int k = 0; k < i; ++k)
            repeated += dg.row(i) == dg.row(k) ? 1 : 0;
    QVERIFY(repeated >= 3);
    const Eigen::MatrixXd u = randomZeroSumGame(GameGenerator::Uniform, 30, 30, a);
    QVERIFY(u.maxCoeff() < 1 && u.minCoeff() >= -1);
    QCOMPARE(parseGameGenerator("hide_and_seek"), GameGenerator::HideAndSeek);
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, parseGameGenerator("blotto"));
}

void TestSsnNash::prmPlusAverages() {
    pl::Rng rng(4);
    const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, 12, 9, rng);
    for (bool alternating : {true, false}) {
        SolverWork work;
        work.rows = 12;
        work.cols = 9;
        PrmPlus prm(A, alternating, 1, work);
        double first = 0;
        for (int t = 1; t <= 3000; ++t) {
            prm.step();
            if (t == 10)
                first = prm.exactAverageCertificate().gap();
        }
        QCOMPARE(work.matvecs, int64_t(2 * 3000 + 2));
        const double estimate = prm.averageGapEstimate();
        const ZeroSumCertificate c = prm.exactAverageCertificate();
        QVERIFY(std::abs(estimate - c.gap()) < 1e-12);
        QVERIFY(c.gap() < first / 20);
        QVERIFY(std::abs(prm.averageX().sum() - 1) < 1e-12 && prm.averageX().minCoeff() >= 0);
        QVERIFY(std::abs(prm.lastIterateGap() - dualityGap(A, prm.lastX(), prm.lastY())) < 1e-12);
    }
}

void TestSsnNash::resolventAndResidual() {
    pl::Rng rng(5);
    for (auto [n, m] : {std::pair{6, 4}, std::pair{3, 8}}) {
        const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, n, m, rng);
        const double gamma = 0.7;
        SolverWork work;
        work.rows = n;
        work.cols = m;
        DrsOperator drs(A, gamma, work);
        const Eigen::MatrixXd J =
            pl::luInverse(Eigen::MatrixXd::Identity(n + m, n + m) + gamma * skewOperator(A));
        const Eigen::VectorXd v = randomVector(rng, n + m);
        Eigen::VectorXd out;
        drs.resolvent(v, out);
        QVERIFY((out - J * v).norm() < 1e-12);
        // At an equilibrium (from the LP), the lifted point is a zero of the residual.
        const LpGameSolution lp = solveZeroSumLp(A);
        Eigen::VectorXd z, R;
        QVERIFY(drs.residual(drs.lift(lp.x, lp.y), z, R) < 1e-10);
        QVERIFY((z.head(n) - lp.x).norm() < 1e-10);
    }
}

void TestSsnNash::newtonDirectionMatchesDenseSolve() {
    // The structured step (support reduction + Schur complements) against a dense solve of
    // (V + mu J) d = -R with V = D - J(2D - I) formed explicitly. luMaxSize 0 forces the
    // normal-equation path with iterative refinement.
    pl::Rng rng(6);
    int checkedLu = 0, checkedNormal = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int n = 2 + int(rng.uniformInt(7)), m = 2 + int(rng.uniformInt(7));
        const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, n, m, rng);
        const double gamma = 0.2 + 2 * rng.uniform();
        const double mu = std::pow(10.0, -1 - 6 * rng.uniform());
        const Eigen::VectorXd w = randomVector(rng, n + m, 0.6);
        const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n + m, n + m);
        const Eigen::MatrixXd J = pl::luInverse(I + gamma * skewOperator(A));
        Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n + m, n + m);
        D.topLeftCorner(n, n) = simplexProjectionJacobian(w.head(n));
        D.bottomRightCorner(m, m) = simplexProjectionJacobian(w.tail(m));
        const Eigen::MatrixXd K = D - J * (2 * D - I) + mu * J;
        const Eigen::VectorXd sv = K.jacobiSvd().singularValues();
        const double cond = sv.maxCoeff() / sv.minCoeff();
        for (int luMax : {1200, 0}) {
            SolverWork work;
            work.rows = n;
            work.cols = m;
            DrsOperator drs(A, gamma, work, {}, luMax);
            Eigen::VectorXd z, R, d;
            drs.residual(w, z, R);
            QVERIFY(drs.newtonDirection(z, R, mu, d));
            const Eigen::VectorXd dense = K.fullPivLu().solve(-R);
            const double err = (d - dense).norm() / (1 + dense.norm());
            if (luMax > 0) {
                QVERIFY2(err <= 1e-14 * cond,
                         qPrintable(QString("trial %1: error %2, cond %3").arg(trial).arg(err).arg(cond)));
                ++checkedLu;
            } else if (cond < 1e5) {
                QVERIFY2(err <= 1e-10,
                         qPrintable(QString("trial %1: error %2, cond %3").arg(trial).arg(err).arg(cond)));
                ++checkedNormal;
            }
        }
    }
    QCOMPARE(checkedLu, 60);
    QVERIFY(checkedNormal >= 20);
}

void TestSsnNash::autoGammaIsInverseNorm() {
    pl::Rng rng(7);
    const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, 15, 11, rng);
    const double s = A.jacobiSvd().singularValues()[0];
    QVERIFY(std::abs(autoGamma(A) * s - 1) < 1e-6);
    QCOMPARE(autoGamma(Eigen::MatrixXd::Zero(3, 3)), 1.0);
}

void TestSsnNash::closedFormGames() {
    pl::Rng rng(8);
    ZeroSumSolverOptions opt;
    SolveMonitor mon;
    // Hide-and-seek: value 1 / sum(1/p), x = y proportional to 1/p.
    const Eigen::MatrixXd H = randomZeroSumGame(GameGenerator::HideAndSeek, 9, 9, rng);
    const Eigen::VectorXd inv = H.diagonal().cwiseInverse();
    for (const auto& sol : {solveHybrid(H, opt, mon), solveSsn(H, opt, mon)}) {
        QVERIFY(sol.converged);
        QVERIFY(std::abs(sol.certificate.value - 1.0 / inv.sum()) < 1e-10);
        QVERIFY((sol.x - inv / inv.sum()).norm() < 1e-8);
        QVERIFY((sol.y - inv / inv.sum()).norm() < 1e-8);
    }
    // Rock-paper-scissors: value 0.
    const Eigen::MatrixXd P = randomZeroSumGame(GameGenerator::Rps, 7, 7, rng);
    const ZeroSumSolution r = solveHybrid(P, opt, mon);
    QVERIFY(r.converged && std::abs(r.certificate.value) < 1e-10);
    // A saddle point in pure strategies.
    Eigen::MatrixXd S(3, 3);
    S << 3, 1, 4, 2, 0, 1, 5, 2, 6; // row 3 dominates; column 2 is the best reply: value 2
    const ZeroSumSolution s = solveHybrid(S, opt, mon);
    QVERIFY(s.converged && std::abs(s.certificate.value - 2) < 1e-10);
    // PRM+'s linear average keeps the weight of its early iterates: only a looser gap here.
    const ZeroSumSolution sp = solvePrmPlus(S, opt, mon);
    QVERIFY(sp.certificate.gap() < 1e-6 && std::abs(sp.certificate.value - 2) <= sp.certificate.gap());
}

void TestSsnNash::oneillThroughEngine() {
    SsnNashEngine e;
    const auto in = e.load((gamesDir() + "/oneill.nfg").toStdString());
    for (const char* solver : {"hybrid", "ssn"}) {
        const pl::ResultDocument d = runEngine({in}, {{"solver", solver}, {"claim_games", "0"}});
        const double want[] = {0.4, 0.2, 0.2, 0.2};
        for (int i = 0; i < 4; ++i) {
            QVERIFY(std::abs(d.vectors.at("x")[size_t(i)] - want[i]) < 1e-9);
            QVERIFY(std::abs(d.vectors.at("y")[size_t(i)] - want[i]) < 1e-9);
        }
        // Player 1 wins 1 when both show the Joker or different number cards, else loses 1;
        // player 1 loses 0.2 on average: value -0.2 for the row (maximising) player.
        QVERIFY(std::abs(d.metrics.at("value") + 0.2) < 1e-10);
        QVERIFY(std::abs(d.metrics.at("lp_value") + 0.2) < 1e-12);
        QVERIFY(d.metrics.at("duality_gap") <= 1e-10);
        QVERIFY(findClaim(d, "lp-agreement") && findClaim(d, "lp-agreement")->holds);
    }
}

void TestSsnNash::hybridMatchesLp() {
    pl::Rng rng(10);
    ZeroSumSolverOptions opt;
    SolveMonitor mon;
    const struct {
        GameGenerator g;
        int n, m;
    } cases[] = {{GameGenerator::Gaussian, 30, 20}, {GameGenerator::Gaussian, 15, 40},
                 {GameGenerator::Uniform, 25, 25},  {GameGenerator::Gaussian, 60, 60},
                 {GameGenerator::Rps, 11, 11},      {GameGenerator::Degenerate, 20, 20}};
    for (const auto& c : cases) {
        for (int rep = 0; rep < 2; ++rep) {
            const Eigen::MatrixXd A = randomZeroSumGame(c.g, c.n, c.m, rng);
            const LpGameSolution lp = solveZeroSumLp(A);
            QVERIFY(lp.gap < 1e-9);
            QVERIFY(std::abs(lp.value - lp.columnValue) < 1e-9);
            const ZeroSumSolution h = solveHybrid(A, opt, mon);
            QVERIFY2(h.converged,
                     qPrintable(QString("%1x%2 gap %3").arg(c.n).arg(c.m).arg(h.certificate.gap())));
            QVERIFY(std::abs(h.certificate.value - lp.value) < 1e-9);
            QVERIFY(std::abs(dualityGap(A, h.x, h.y) - h.certificate.gap()) < 1e-15);
            QVERIFY(h.matvecEquivalents >= double(h.matvecs));
            QVERIFY(h.iterationsToTarget >= 0 && h.iterationsToTarget <= h.iterations);
        }
    }
}

void TestSsnNash::lpMatchesScipy() {
    const QString python = QStringLiteral("/usr/bin/python3");
    if (!QFile::exists(python))
        QSKIP("/usr/bin/python3 not found");
    QProcess probe;
    probe.start(python, {"-c", "import numpy, scipy.optimize"});
    if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
        QSKIP("numpy/scipy not available to /usr/bin/python3");
    QTemporaryDir dir;
    pl::Rng rng(11);
    QStringList files;
    std::vector<LpGameSolution> ours;
    for (int k = 0; k < 6; ++k) {
        const int n = 3 + int(rng.uniformInt(40)), m = 3 + int(rng.uniformInt(40));
        const Eigen::MatrixXd A =
            randomZeroSumGame(k % 2 ? GameGenerator::Uniform : GameGenerator::Gaussian, n, m, rng);
        std::vector<double> data;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j)
                data.push_back(A(i, j));
        const QString f = dir.filePath(QString("g%1.npy").arg(k));
        std::ofstream(f.toStdString(), std::ios::binary) << pl::writeNpy({n, m}, data);
        files << f;
        ours.push_back(solveZeroSumLp(A));
    }
    const char* script = R"(
import sys, numpy as np
from scipy.optimize import linprog
for f in sys.argv[1:]:
    A = np.load(f); n, m = A.shape
    # variables (x, v): maximise v s.t. A^T x >= v, sum x = 1, x >= 0
    c = np.zeros(n + 1); c[-1] = -1
    r = linprog(c, A_ub=np.hstack([-A.T, np.ones((m, 1))]), b_ub=np.zeros(m),
                A_eq=np.hstack([np.ones((1, n)), np.zeros((1, 1))]), b_eq=[1],
                bounds=[(0, None)] * n + [(None, None)], method='highs')
    print(repr(-r.fun))
)";
    QProcess py;
    py.start(python, QStringList{"-c", script} + files);
    QVERIFY(py.waitForFinished(120000));
    QCOMPARE(py.exitCode(), 0);
    const QStringList values = QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(values.size(), files.size());
    for (int k = 0; k < values.size(); ++k) {
        const double scipyValue = values[k].toDouble();
        QVERIFY2(
            std::abs(ours[size_t(k)].value - scipyValue) < 1e-9,
            qPrintable(QString("%1: CLP %2 scipy %3").arg(k).arg(ours[size_t(k)].value).arg(scipyValue)));
    }
}

void TestSsnNash::lrsnashValues() {
    const QString lrs = QStandardPaths::findExecutable(QStringLiteral("lrsnash"));
    if (lrs.isEmpty())
        QSKIP("lrsnash (Debian lrslib) not installed");
    QTemporaryDir dir;
    int compared = 0;
    for (const QString& f : QDir(gamesDir()).entryList({"*.nfg"}, QDir::Files)) {
        const NormalFormGame g = NfgReader::readFile((gamesDir() + "/" + f).toStdString());
        if (!isConstantSum(g))
            continue;
        const Eigen::MatrixXd A = g.matrix(0), B = g.matrix(1);
        // lrsnash input: "m n", then player 1's matrix, then player 2's, as integers/rationals.
        const auto rational = [](double v) {
            const long long num = std::llround(v * 1e6);
            return QString("%1/1000000").arg(num);
        };
        QString text = QString("%1 %2\n\n").arg(A.rows()).arg(A.cols());
        for (const Eigen::MatrixXd* M : {&A, &B}) {
            for (Eigen::Index i = 0; i < M->rows(); ++i) {
                for (Eigen::Index j = 0; j < M->cols(); ++j)
                    text += rational((*M)(i, j)) + " ";
                text += "\n";
            }
            text += "\n";
        }
        const QString path = dir.filePath(f + ".lrs");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        QProcess p;
        p.start(lrs, {path});
        QVERIFY(p.waitForFinished(60000));
        // Lines "2 y_1 .. y_m u1" give player 2's strategy and player 1's payoff.
        std::vector<double> values;
        for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split('\n')) {
            const QStringList tok = line.simplified().split(' ', Qt::SkipEmptyParts);
            if (tok.size() == A.cols() + 2 && tok.first() == "2")
                values.push_back(parseRational(tok.last()));
        }
        QVERIFY2(!values.empty(), qPrintable(f));
        SsnNashEngine e;
        const pl::ResultDocument d = runEngine({e.load((gamesDir() + "/" + f).toStdString())},
                                               {{"claim_games", "0"}, {"compare_solvers", "false"}});
        for (double v : values) // every equilibrium of a zero-sum game has the same value
            QVERIFY2(
                std::abs(d.metrics.at("value") - v) < 1e-9,
                qPrintable(QString("%1: engine %2 lrsnash %3").arg(f).arg(d.metrics.at("value")).arg(v)));
        ++compared;
    }
    QVERIFY(compared >= 5); // oneill, rock-paper-scissors, zero-sum-4x4, constant-sum-2x2, zero-2x2
}

void TestSsnNash::engineResultKeys() {
    const pl::ResultDocument d = runEngine({}, {{"rows", "20"}, {"cols", "15"}, {"claim_games", "1"}});
    QCOMPARE(d.vectors.at("x").size(), size_t(20));
    QCOMPARE(d.vectors.at("y").size(), size_t(15));
    for (const char* k :
         {"value", "duality_gap", "iterations", "matvecs", "switch_iteration", "lp_value", "lp_error",
          "iterations_prm_plus", "iterations_ssn", "iterations_hybrid", "matvec_equivalents"})
        QVERIFY2(d.metrics.count(k), k);
    for (const char* k : {"gap_vs_iteration", "gap_prm_plus", "gap_ssn", "gap_hybrid", "gap_prm_plus_last",
                          "gap_ratio", "residual_ratio", "gap_vs_work_hybrid"}) {
        QVERIFY2(d.series.count(k), k);
        QCOMPARE(d.series.at(k).x.size(), d.series.at(k).y.size());
        QVERIFY(!d.series.at(k).x.empty());
    }
    const pl::Series& s = d.series.at("gap_vs_iteration");
    QVERIFY(std::is_sorted(s.x.begin(), s.x.end()));
    QCOMPARE(s.x.back(), d.metrics.at("iterations"));
    QCOMPARE(s.y.back(), d.metrics.at("duality_gap"));
    QCOMPARE(d.matrices.at("payoff").rows, int64_t(20));
    QCOMPARE(d.matrices.at("payoff").colLabels.size(), size_t(15));
    QVERIFY(d.labels.count("support_x") && d.labels.count("support_y"));
    QCOMPARE(d.claims.size(), size_t(3));
    for (const char* id : {"hybrid-10x-fewer-iterations", "superlinear-tail", "lp-agreement"})
        QVERIFY2(findClaim(d, id), id);
    // Only the selected solver when comparison is off.
    const pl::ResultDocument p = runEngine({}, {{"rows", "8"},
                                                {"cols", "6"},
                                                {"solver", "prm_plus"},
                                                {"compare_solvers", "false"},
                                                {"claim_games", "0"}});
    QVERIFY(p.series.count("gap_prm_plus") && !p.series.count("gap_hybrid"));
}

void TestSsnNash::engineInputs() {
    SsnNashEngine e;
    QVERIFY_THROWS_EXCEPTION(pl::InputError, e.load(PAPERLAB_SOURCE_DIR "/tests/data/bad/threeplayers.nfg"));
    const auto pd = e.load((gamesDir() + "/prisoners-dilemma.nfg").toStdString());
    try {
        runEngine({pd}, {{"claim_games", "0"}});
        QFAIL("prisoners-dilemma.nfg accepted");
    } catch (const pl::InputError& err) {
        QVERIFY2(std::string(err.what()).find("not zero-sum") != std::string::npos, err.what());
        QVERIFY(err.file().find("prisoners-dilemma.nfg") != std::string::npos);
    }
    // With player 1's payoffs A = [[3, 0], [5, 1]] the dilemma is a zero-sum game with the
    // saddle point (defect, defect): value 1.
    const pl::ResultDocument d = runEngine({pd}, {{"claim_games", "0"}, {"use_player1_payoffs", "true"}});
    QVERIFY(std::abs(d.metrics.at("value") - 1) < 1e-10);
    QVERIFY(d.vectors.at("x")[1] > 1 - 1e-10 && d.vectors.at("y")[1] > 1 - 1e-10);
}

void TestSsnNash::determinism() {
    const std::map<std::string, std::string> sets = {{"rows", "25"}, {"cols", "30"}, {"claim_games", "2"}};
    const std::string a = runEngine({}, sets, 7).toJson();
    const std::string b = runEngine({}, sets, 7).toJson();
    QVERIFY(a == b);
    QVERIFY(a != runEngine({}, sets, 8).toJson());
}

void TestSsnNash::claimsAtDefaultSeed() {
    // The CLI's default seed is 42; all three claims hold there with the default parameters.
    const pl::ResultDocument d = runEngine({}, {});
    for (const auto& c : d.claims)
        QVERIFY2(c.holds, qPrintable(QString::fromStdString(c.id + ": " + c.detail)));
    QVERIFY(findClaim(d, "hybrid-10x-fewer-iterations")->observed >= 10);
    QVERIFY(findClaim(d, "superlinear-tail")->observed < 0.01);
    QVERIFY(d.metrics.at("duality_gap") <= 1e-10);
    QVERIFY(d.metrics.at("iterations_hybrid") * 10 < d.metrics.at("iterations_prm_plus"));
}

void TestSsnNash::cancellation() {
    SsnNashEngine e;
    pl::ParamSet ps(e.params());
    ps.setText("rows", "400");
    ps.setText("cols", "400");
    ps.setText("max_iterations", "10000000");
    pl::RunContext ctx(1);
    std::atomic<int> outcome{0}; // 1 cancelled, 2 finished, 3 other error
    std::chrono::steady_clock::time_point stopped;
    std::thread worker([&] {
        try {
            e.run({}, ps, ctx);
            outcome = 2;
        } catch (const pl::Cancelled&) {
            outcome = 1;
        } catch (...) {
            outcome = 3;
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stopped = std::chrono::steady_clock::now();
    ctx.requestStop();
    worker.join();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - stopped).count();
    QCOMPARE(outcome.load(), 1);
    QVERIFY2(ms < 1000, qPrintable(QString("took %1 ms to stop").arg(ms))); // typically about 1 ms
}

void TestSsnNash::factorisationIsCancellable() {
    pl::Rng rng(12);
    const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, 700, 600, rng);
    SolverWork work;
    work.rows = 700;
    work.cols = 600;
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(pl::Cancelled, DrsOperator(A, 1.0, work, [&calls] {
                                 if (++calls == 5)
                                     throw pl::Cancelled();
                             }));
    QCOMPARE(calls, 5);
    // The LP reference stops between simplex iterations.
    const Eigen::MatrixXd B = randomZeroSumGame(GameGenerator::Gaussian, 150, 150, rng);
    calls = 0;
    QVERIFY_THROWS_EXCEPTION(pl::Cancelled, solveZeroSumLp(B, [&calls] {
                                 if (++calls == 20)
                                     throw pl::Cancelled();
                             }));
    QCOMPARE(calls, 20);
}

QTEST_APPLESS_MAIN(TestSsnNash)
#include "tst_ssn_nash.moc"
