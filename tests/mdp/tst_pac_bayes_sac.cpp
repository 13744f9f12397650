// The PAC-Bayes bound lab of pac-bayes-sac: stationary law and exact t_mix against numpy matrix
// powers, the closed-form posterior loss against Monte Carlo, the mean and variance of L̂ over
// chains against the exact autocovariance sum, the λ grid, determinism and the claims at fixed
// seeds. The control lab is tested in tst_pbsac_control.
#include "core/Errors.h"
#include "core/Rng.h"
#include "mdp/MarkovChain.h"
#include "mdp/MdpWorlds.h"
#include "mdp/PacBayesBound.h"
#include "mdp/PacBayesSacEngine.h"
#include "mdp/PacBayesSacKeys.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::mdp;
namespace keys = pl::pbsac::keys;

namespace {

pl::ResultDocument runEngine(uint64_t seed, const std::map<std::string, std::string>& set) {
    pl::pbsac::PacBayesSacEngine e;
    pl::ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

const pl::Claim* claim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace

class TestPacBayesSac : public QObject {
    Q_OBJECT
private slots:
    void mixingMatchesNumpyMatrixPowers() {
        if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
            QSKIP("/usr/bin/python3 not found");
        QTemporaryDir dir;
        QStringList files;
        std::vector<std::pair<int, Eigen::VectorXd>> ours;
        int k = 0;
        for (const auto& [size, actions, kappa] : std::vector<std::tuple<int, int, double>>{
                 {30, 3, 0.8}, {17, 2, 0.95}, {40, 4, 0.5}, {9, 3, 0.99}}) {
            const Mdp m = ringWorld(size, actions, kappa);
            const Eigen::MatrixXd P = m.behaviourChain(m.policy);
            const Eigen::VectorXd pi = stationaryLaw(P);
            const MixingProfile mp = mixingProfile(P, pi, 0, 100000);
            ours.emplace_back(mp.tMix, pi);
            const QString f = dir.filePath(QString("p%1.txt").arg(k++));
            std::ofstream o(f.toStdString());
            o.precision(17);
            o << P << "\n";
            files << f;
        }
        const char* script = R"(
import sys, numpy as np
for f in sys.argv[1:]:
    P = np.loadtxt(f); n = len(P)
    w, v = np.linalg.eig(P.T); pi = np.real(v[:, np.argmin(abs(w - 1))]); pi /= pi.sum()
    Q = np.eye(n); t = 0
    while 0.5 * np.abs(Q - pi).sum(1).max() > 0.25:
        Q = Q @ P; t += 1
    print(t, ' '.join(repr(x) for x in pi))
)";
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"), QStringList{"-c", script} + files);
        QVERIFY(py.waitForFinished(120000));
        if (py.exitCode() != 0 && py.readAllStandardError().contains("No module named 'numpy'"))
            QSKIP("numpy not available to /usr/bin/python3");
        QCOMPARE(py.exitCode(), 0);
        const QStringList rows =
            QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), int(ours.size()));
        for (int r = 0; r < rows.size(); ++r) {
            const QStringList v = rows[r].split(' ');
            QCOMPARE(v[0].toInt(), ours[size_t(r)].first);
            for (int s = 1; s < v.size(); ++s)
                QVERIFY(std::fabs(v[s].toDouble() - ours[size_t(r)].second(s - 1)) < 1e-10);
        }
    }
    void posteriorLossMatchesMonteCarlo() {
        pl::Rng rng(4);
        const Eigen::VectorXd mu = (Eigen::VectorXd(3) << 0.3, -0.2, 1.1).finished();
        for (const auto& [s, next, r, sigma, c] :
             std::vector<std::tuple<int, int, double, double, double>>{{0, 1, 0.5, 0.3, 1.0},
                                                                       {1, 1, 0.2, 0.8, 0.5},
                                                                       {2, 0, 0.9, 0.05, 2.0},
                                                                       {0, 2, 0.0, 1.5, 1.0}}) {
            TransitionTable::Entry e{s, 0, next, 1.0, r};
            const double exact = posteriorLoss(e, mu, sigma, 0.7, c);
            const int draws = 400000;
            double acc = 0, acc2 = 0;
            for (int k = 0; k < draws; ++k) {
                Eigen::VectorXd h = mu;
                for (int i = 0; i < 3; ++i)
                    h(i) += sigma * rng.normal();
                const double td = r + 0.7 * h(next) - h(s);
                const double l = std::min(1.0, td * td / (c * c));
                acc += l;
                acc2 += l * l;
            }
            const double m = acc / draws, se = std::sqrt((acc2 / draws - m * m) / draws);
            QVERIFY2(std::fabs(m - exact) < 5 * se + 1e-12,
                     qPrintable(QString("MC %1 ± %2, exact %3").arg(m).arg(se).arg(exact)));
        }
        QCOMPARE(expectedClippedSquare(0.5, 0.0, 1.0), 0.25);
        QVERIFY(std::fabs(expectedClippedSquare(0.0, 1e-12, 1.0) - 1e-12) < 1e-15);
    }
    void empiricalRiskMomentsMatchAutocovariance() {
        // Fixed posterior (prior): L̂ = (1/n) Σ g(Z_t); E L̂ = E_π g and
        // Var L̂ = (1/n²)[n γ₀ + 2 Σ_{k≥1} (n − k) γ_k] with γ_k the exact lag-k autocovariance.
        const Mdp m = ringWorld(10, 2, 0.9);
        const Eigen::MatrixXd P = m.behaviourChain(m.policy);
        const Eigen::VectorXd pi = stationaryLaw(P);
        const TransitionTable t = transitionTable(m, m.policy);
        const Eigen::VectorXd mu = Eigen::VectorXd::Constant(10, 0.4);
        const double sigma = 0.3, gamma = 0.5, c = 1.0;
        std::vector<double> g;
        Eigen::VectorXd gbar = Eigen::VectorXd::Zero(10); // E[g(Z_t) | s_t = s]
        double eg = 0, eg2 = 0;
        for (const auto& e : t.entries) {
            g.push_back(posteriorLoss(e, mu, sigma, gamma, c));
            gbar(e.s) += e.p * g.back();
            eg += pi(e.s) * e.p * g.back();
            eg2 += pi(e.s) * e.p * g.back() * g.back();
        }
        const int64_t n = 200;
        double var = double(n) * (eg2 - eg * eg);
        Eigen::VectorXd h = gbar; // P^{k-1} ḡ
        for (int64_t k = 1; k < n; ++k) {
            double cross = 0;
            for (size_t i = 0; i < t.entries.size(); ++i)
                cross += pi(t.entries[i].s) * t.entries[i].p * g[i] * h(t.entries[i].next);
            var += 2.0 * double(n - k) * (cross - eg * eg);
            h = P * h;
        }
        var /= double(n) * double(n);
        pl::Rng rng(8);
        const int reps = 20000;
        double s1 = 0, s2 = 0;
        for (int r = 0; r < reps; ++r) {
            const double l = risk(t, sampleChainCounts(t, pi, n, rng), n, pi, mu, sigma, gamma, c);
            s1 += l;
            s2 += l * l;
        }
        const double mean = s1 / reps, v = s2 / reps - mean * mean;
        QVERIFY2(std::fabs(mean - eg) < 4 * std::sqrt(var / reps),
                 qPrintable(QString("%1 vs %2").arg(mean).arg(eg)));
        QVERIFY(std::fabs(risk(t, {}, n, pi, mu, sigma, gamma, c) - eg) < 1e-14);
        // Sample variance of 20000 draws: relative standard error about √(2/20000) ≈ 1%.
        QVERIFY2(std::fabs(v / var - 1) < 0.06, qPrintable(QString("var %1 vs exact %2").arg(v).arg(var)));
        // Dependence matters: the i.i.d. variance would be several times smaller.
        QVERIFY(var > 2 * (eg2 - eg * eg) / double(n));
    }
    void complexityTermGrid() {
        // The grid minimum is within a factor √2-ish of the continuous optimum √(τ(KL + ln(41/δ))/(2n)).
        for (double tau : {1.0, 54.0, 900.0}) {
            const double opt = std::sqrt(tau * (3 + std::log(41 / 0.05)) / (2 * 5000.0));
            const double g = complexityTerm(3, 0.05, tau, 5000);
            QVERIFY(g >= opt - 1e-12 && g <= 1.07 * opt);
        }
        QVERIFY(gaussianKl(Eigen::VectorXd::Zero(4), 1.0, Eigen::VectorXd::Zero(4), 1.0) == 0);
        QVERIFY(std::fabs(gaussianKl(Eigen::VectorXd::Ones(2), 1.0, Eigen::VectorXd::Zero(2), 2.0) -
                          0.5 * (2 * 0.25 + 0.5 - 2 - 2 * std::log(0.25))) < 1e-14);
    }
    void claimsAtFixedSeeds() {
        for (uint64_t seed : {1, 2, 3}) {
            const pl::ResultDocument d = runEngine(seed, {});
            QCOMPARE(d.metrics.at(keys::metric::kTMix), 5.0);
            QVERIFY(claim(d, keys::claim::kMarkovCoverage)->holds);
            QVERIFY(claim(d, keys::claim::kNonVacuous)->holds);
            // Reported, not asserted either way: the i.i.d. bound is Hoeffding-loose and still covers.
            QVERIFY(claim(d, keys::claim::kIidUndercovers));
            QCOMPARE(int(d.vectors.at(keys::vector::kMarkovBound).size()), 200);
            for (size_t r = 0; r < 200; ++r)
                QVERIFY(d.vectors.at(keys::vector::kMarkovBound)[r] >=
                        d.vectors.at(keys::vector::kIidBound)[r]);
        }
    }
    void deterministic() {
        const auto a = runEngine(5, {{"repetitions", "20"}, {"n", "500"}});
        const auto b = runEngine(5, {{"repetitions", "20"}, {"n", "500"}});
        QCOMPARE(a.toJson(), b.toJson());
    }
};

QTEST_GUILESS_MAIN(TestPacBayesSac)
#include "tst_pac_bayes_sac.moc"
