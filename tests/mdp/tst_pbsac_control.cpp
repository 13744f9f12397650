// The control lab of pac-bayes-sac: pendulum dynamics against the closed form, the tanh-Gaussian
// actor's density (integrates to 1 over the torque range), the batch-means autocorrelation time
// against an AR(1) process's exact value, the complexity term's slope 1/λ*, SAC learning to swing
// up (seeds 1, 2), determinism, paired warm-up, cancellation and the refusal of an MDP file.
#include "core/Errors.h"
#include "core/Rng.h"
#include "mdp/ControlLab.h"
#include "mdp/PacBayesBound.h"
#include "mdp/PacBayesSacEngine.h"
#include "mdp/PacBayesSacKeys.h"
#include "mdp/Pendulum.h"
#include "mdp/SacAgent.h"
#include "mdp/SacNetworks.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace pl::mdp;
namespace keys = pl::pbsac::keys;

namespace {

pl::ResultDocument runControl(uint64_t seed, int steps = 1000) {
    pl::pbsac::PacBayesSacEngine e;
    pl::ParamSet p(e.params());
    p.setText(keys::param::kLab, "control");
    p.setText(keys::param::kSteps, std::to_string(steps));
    p.setText(keys::param::kHidden, "16");
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

} // namespace

class TestPbsacControl : public QObject {
    Q_OBJECT
private slots:
    void pendulumFollowsTheClosedForm() {
        Pendulum env;
        env.resetTo(0.5, -1.0);
        const double r = env.step(3.0); // clipped to 2
        const double thetaDot = -1.0 + (15.0 * std::sin(0.5) + 3.0 * 2.0) * 0.05;
        QCOMPARE(r, -(0.25 + 0.1 * 1.0 + 0.001 * 4.0));
        QVERIFY(std::fabs(env.thetaDot() - thetaDot) < 1e-15);
        QVERIFY(std::fabs(env.theta() - (0.5 + thetaDot * 0.05)) < 1e-15);
        env.resetTo(3.0, 7.9);
        for (int k = 0; k < 50; ++k)
            QVERIFY(env.step(2.0) >= -Pendulum::maxCost() && std::fabs(env.thetaDot()) <= 8.0);
        QVERIFY(std::fabs(Pendulum::wrap(3 * std::numbers::pi) + std::numbers::pi) < 1e-12);
        QVERIFY(std::fabs(Pendulum::wrap(-0.25) + 0.25) < 1e-15);
    }
    void actorDensityIntegratesToOne() {
        pl::Rng rng(4);
        Actor actor(16, rng);
        for (const Eigen::RowVector3d& o : {Eigen::RowVector3d(1, 0, 0), Eigen::RowVector3d(-0.6, 0.8, 5)}) {
            // Integrate exp(log π(a)) over a = 2 tanh(μ + σε) on a fine ε grid (trapezoid in a).
            const int n = 20001;
            Mat eps(n, 1), obs = o.replicate(n, 1);
            for (int i = 0; i < n; ++i)
                eps(i, 0) = -9 + 18.0 * i / (n - 1);
            pl::nn::Tape t;
            const Actor::Sample s = actor.sample(t, t.constant(obs), eps, false);
            double integral = 0;
            for (int i = 1; i < n; ++i) {
                const double da = s.action.value()(i, 0) - s.action.value()(i - 1, 0);
                integral +=
                    0.5 * da * (std::exp(s.logProb.value()(i, 0)) + std::exp(s.logProb.value()(i - 1, 0)));
            }
            QVERIFY2(std::fabs(integral - 1) < 1e-4, qPrintable(QString::number(integral, 'g', 10)));
            QVERIFY(s.action.value().cwiseAbs().maxCoeff() <= 2.0);
        }
    }
    void batchMeansMatchAr1() {
        // AR(1) with ρ = 0.8: τ_int = (1 + ρ)/(1 − ρ) = 9.
        pl::Rng rng(9);
        std::vector<double> x(400000);
        double v = 0;
        for (double& xi : x)
            xi = v = 0.8 * v + rng.normal();
        const double tau = batchMeansAutocorrelation(x.data(), int(x.size()), 400);
        QVERIFY2(std::fabs(tau - 9) < 0.8, qPrintable(QString::number(tau)));
        QCOMPARE(batchMeansAutocorrelation(x.data(), 450, 50), 0.0); // fewer than ten batches
        const std::vector<double> flat(1000, 2.0);
        QCOMPARE(batchMeansAutocorrelation(flat.data(), 1000, 50), 0.0);
    }
    void complexitySlopeIsInverseLambda() {
        for (double kl : {0.5, 7.0, 120.0}) {
            const Complexity c = complexityAt(kl, 0.05, 99, 5000);
            QCOMPARE(c.value, complexityTerm(kl, 0.05, 99, 5000));
            const double h = 1e-6;
            const double slope =
                (complexityTerm(kl + h, 0.05, 99, 5000) - complexityTerm(kl - h, 0.05, 99, 5000)) / (2 * h);
            QVERIFY2(std::fabs(slope - 1 / c.lambda) < 1e-6,
                     qPrintable(QString("%1 vs %2").arg(slope).arg(1 / c.lambda)));
        }
    }
    void sacLearnsToSwingUp() {
        // A random-torque policy scores about −1200; a swing-up and balance about −150.
        for (uint64_t seed : {1, 2}) {
            ControlSettings s;
            s.steps = 4000;
            s.startSteps = 800;
            pl::RunContext ctx(seed);
            const ControlRun run = trainPendulum(s, false, seed, ctx, 0, 1);
            QCOMPARE(int(run.episodeReturn.size()), 20);
            QVERIFY2(run.evalReturn > -400, qPrintable(QString::number(run.evalReturn)));
            // Upright and at rest, the learnt torque is small; the policy map spans both signs.
            QVERIFY(std::fabs(run.policy(kPolicyGrid / 2, kPolicyGrid / 2)) < 1.0);
            QVERIFY(run.policy.maxCoeff() > 1.0 && run.policy.minCoeff() < -1.0);
        }
    }
    void controlLabIsDeterministicAndPaired() {
        const pl::ResultDocument a = runControl(3), b = runControl(3), c = runControl(4);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        const auto& rs = a.series.at(keys::series::kReturnSac).y;
        const auto& rp = a.series.at(keys::series::kReturnPbsac).y;
        QCOMPARE(int(rs.size()), 5);
        QCOMPARE(rs[0], rp[0]); // same start state and the same random warm-up torques (first 200 steps)
        QVERIFY(rs[4] != rp[4]);
        const pl::Matrix& pol = a.matrices.at(keys::matrix::kPolicyPbsac);
        QCOMPARE(pol.rows, int64_t(kPolicyGrid));
        QCOMPARE(pol.cols, int64_t(kPolicyGrid));
        const double bound = a.metrics.at(keys::metric::kCertificate);
        const double risk = a.metrics.at(keys::metric::kCertificateRisk);
        QVERIFY(risk >= 0 && risk <= 1 && bound > risk);
        QCOMPARE(a.metrics.at(keys::metric::kCertifiedTransitions), 1000.0);
        QCOMPARE(int(a.series.at(keys::series::kCertificateVsSteps).y.size()), 5);
        QCOMPARE(int(a.claims.size()), 2);
    }
    void cancelAndFileRefused() {
        pl::pbsac::PacBayesSacEngine e;
        pl::ParamSet p(e.params());
        p.setText(keys::param::kLab, "control");
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, p, ctx));
        const std::string path = PAPERLAB_SOURCE_DIR "/resources/examples/pac-bayes-sac/sticky-ring.json";
        pl::RunContext ok(1);
        QVERIFY_THROWS_EXCEPTION(pl::UsageError, e.run({e.load(path)}, p, ok));
    }
};

QTEST_GUILESS_MAIN(TestPbsacControl)
#include "tst_pbsac_control.moc"
