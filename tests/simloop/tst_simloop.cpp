// The integrators of engines/simloop against scipy: ARKODE's Dormand–Prince 5(4) and CVODE's BDF
// against solve_ivp (RK45, BDF, at matched tolerances, and DOP853 at tight ones) on small systems,
// Robertson's kinetics against Radau, velocity Verlet's second order and bounded energy error, the
// PID loop (no saturation) against scipy.signal.lsim of the closed-loop transfer function.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "simloop/PidTask.h"
#include "simloop/SimLoop.h"
#include "simloop/Stepper.h"
#include "simloop/Tasks.h"

#include <QtTest>

#include <cmath>

using namespace pl::simloop;

namespace {

OdeSystem vanDerPol(double mu) {
    OdeSystem s;
    s.dim = 2;
    s.rhs = [mu](double, const double* y, double* dy) {
        dy[0] = y[1];
        dy[1] = mu * (1 - y[0] * y[0]) * y[1] - y[0];
    };
    return s;
}

Eigen::VectorXd integrate(Integrator k, const OdeSystem& s, const Eigen::VectorXd& y0, double tEnd,
                          double rtol, double atol, long* steps = nullptr, double dt = 0.01) {
    StepOptions o;
    o.rtol = rtol;
    o.atol = atol;
    o.tStop = tEnd;
    o.dt = dt;
    auto st = makeStepper(k, s, 0.0, y0, o);
    while (st->t() < tEnd)
        if (!st->step())
            break;
    if (steps)
        *steps = st->steps();
    return st->y();
}

const char* kVdp = R"(
import sys
from scipy.integrate import solve_ivp
mu=float(sys.argv[1]); T=float(sys.argv[2])
f=lambda t,y:[y[1], mu*(1-y[0]**2)*y[1]-y[0]]
for m,rt,at in [('DOP853',1e-12,1e-14),('RK45',1e-6,1e-9),('BDF',1e-6,1e-9)]:
    s=solve_ivp(f,(0,T),[2.0,0.0],method=m,rtol=rt,atol=at)
    print(m, repr(s.y[0,-1]), repr(s.y[1,-1]), s.t.size-1)
)";

const char* kRobertson = R"(
from scipy.integrate import solve_ivp
def f(t,y): return [-0.04*y[0]+1e4*y[1]*y[2], 0.04*y[0]-1e4*y[1]*y[2]-3e7*y[1]**2, 3e7*y[1]**2]
for T in [40.0, 4e5]:
    s=solve_ivp(f,(0,T),[1,0,0],method='Radau',rtol=1e-10,atol=1e-14)
    print(repr(s.y[0,-1]), repr(s.y[1,-1]), repr(s.y[2,-1]))
)";

const char* kLsim = R"(
import sys, numpy as np
from scipy import signal
kp,ki,kd,tf=[float(a) for a in sys.argv[1:5]]
num=np.array([float(a) for a in sys.argv[5].split(',')]); den=np.array([float(a) for a in sys.argv[6].split(',')])
# C(s) = (kp s (tf s+1) + ki (tf s+1) + kd s^2) / (s (tf s+1))
cn=np.polyadd(np.polyadd(kp*np.array([tf,1,0]), ki*np.array([tf,1])), kd*np.array([1,0,0]))
cd=np.array([tf,1,0])
ln=np.polymul(cn,num); ld=np.polymul(cd,den)
T=signal.TransferFunction(ln, np.polyadd(ld,ln))
t=np.arange(0,20+1e-9,0.05)
_,y,_=signal.lsim(T,np.ones_like(t),t)
print(' '.join(repr(v) for v in y))
)";

} // namespace

class TestSimloop : public QObject {
    Q_OBJECT
private slots:
    void rk45AndBdfMatchSolveIvp() {
        if (!pl::test::havePython("scipy"))
            QSKIP("python3 with scipy not found");
        const QStringList lines = pl::test::pythonLines(kVdp, {"1.0", "10.0"});
        QCOMPARE(lines.size(), 3);
        const QStringList ref = lines[0].split(' ');
        const Eigen::Vector2d exact(ref[1].toDouble(), ref[2].toDouble());
        long nRk = 0, nBdf = 0;
        const Eigen::VectorXd rk =
            integrate(Integrator::Rk45, vanDerPol(1), Eigen::Vector2d(2, 0), 10, 1e-6, 1e-9, &nRk);
        const Eigen::VectorXd bdf =
            integrate(Integrator::Bdf, vanDerPol(1), Eigen::Vector2d(2, 0), 10, 1e-6, 1e-9, &nBdf);
        const double errRk = (rk - exact).norm(), errBdf = (bdf - exact).norm();
        const QStringList rkRef = lines[1].split(' '), bdfRef = lines[2].split(' ');
        const double errScipyRk = (Eigen::Vector2d(rkRef[1].toDouble(), rkRef[2].toDouble()) - exact).norm();
        const double errScipyBdf =
            (Eigen::Vector2d(bdfRef[1].toDouble(), bdfRef[2].toDouble()) - exact).norm();
        qInfo("vdp mu=1 T=10: rk45 err %.2e (%ld steps) vs scipy RK45 %.2e (%s steps); bdf err %.2e (%ld) vs "
              "scipy "
              "BDF %.2e (%s)",
              errRk, nRk, errScipyRk, qPrintable(rkRef[3]), errBdf, nBdf, errScipyBdf, qPrintable(bdfRef[3]));
        // Equal final-state accuracy at matched tolerances (within a factor 10 of scipy's error, and small).
        QVERIFY(errRk < 1e-4 && errRk < 10 * std::max(errScipyRk, 1e-8));
        QVERIFY(errBdf < 1e-3 && errBdf < 10 * std::max(errScipyBdf, 1e-7));
        // Tight tolerances converge to the DOP853 reference.
        const Eigen::VectorXd tight =
            integrate(Integrator::Rk45, vanDerPol(1), Eigen::Vector2d(2, 0), 10, 1e-11, 1e-13);
        QVERIFY2((tight - exact).norm() < 1e-8, qPrintable(QString::number((tight - exact).norm())));
    }
    void robertsonMatchesRadau() {
        if (!pl::test::havePython("scipy"))
            QSKIP("python3 with scipy not found");
        const QStringList lines = pl::test::pythonLines(kRobertson, {});
        QCOMPARE(lines.size(), 2);
        const RobertsonTask task;
        Plan p;
        int row = 0;
        for (double T : {40.0, 4e5}) {
            const Eigen::VectorXd y =
                integrate(Integrator::Bdf, task.system(p), task.initialState(p), T, 1e-9, 1e-14);
            const QStringList ref = lines[row++].split(' ');
            for (int i = 0; i < 3; ++i) {
                const double r = ref[i].toDouble();
                QVERIFY2(std::abs(y[i] - r) <= 1e-5 * std::abs(r) + 1e-13,
                         qPrintable(QStringLiteral("T=%1 y%2: %3 vs %4").arg(T).arg(i + 1).arg(y[i]).arg(r)));
            }
            QVERIFY(std::abs(y.sum() - 1) < 1e-8);
        }
    }
    void verletIsSecondOrderAndBounded() {
        const EnergyTask task(50, 0.5);
        Plan p;
        const OdeSystem s = task.system(p);
        const Eigen::VectorXd y0 = task.initialState(p);
        const Eigen::VectorXd ref = integrate(Integrator::Rk45, s, y0, 5, 1e-12, 1e-14);
        const double e1 = (integrate(Integrator::Verlet, s, y0, 5, 0, 0, nullptr, 0.01) - ref).norm();
        const double e2 = (integrate(Integrator::Verlet, s, y0, 5, 0, 0, nullptr, 0.005) - ref).norm();
        QVERIFY2(e1 / e2 > 3.5 && e1 / e2 < 4.5, qPrintable(QString::number(e1 / e2)));
        // Energy error bounded over a long run (no secular drift): max over the second half is no
        // more than twice the max over the first half.
        StepOptions o;
        o.dt = 0.02;
        o.tStop = 400;
        auto st = makeStepper(Integrator::Verlet, s, 0, y0, o);
        const double e0 = task.energy(y0);
        double first = 0, second = 0;
        while (st->step()) {
            const double d = std::abs(task.energy(st->y()) - e0) / e0;
            (st->t() < 200 ? first : second) = std::max(st->t() < 200 ? first : second, d);
        }
        QVERIFY2(second < 2 * first && first < 1e-3,
                 qPrintable(QStringLiteral("%1 %2").arg(first).arg(second)));
        // Verlet refuses a system without a position-only acceleration.
        QVERIFY_THROWS_EXCEPTION(pl::UsageError,
                                 makeStepper(Integrator::Verlet, vanDerPol(1), 0, y0.head(2), o));
    }
    void pidLoopMatchesLsim() {
        if (!pl::test::havePython("scipy"))
            QSKIP("python3 with scipy not found");
        struct Case {
            std::vector<double> num, den;
            double kp, ki, kd, tf;
        };
        for (const Case& c :
             {Case{{1}, {1, 3, 3, 1}, 2, 0.5, 1.5, 0.05}, Case{{2, 1}, {1, 4, 6, 4}, 1, 0.8, 0.2, 0.1},
              Case{{1}, {1, 2, 1}, 4.8, 2.65, 2.18, 0.05}}) {
            PidSpec spec;
            spec.num = c.num;
            spec.den = c.den;
            spec.uMax = 0;
            spec.tf = c.tf;
            const PidTask task(spec);
            Plan p;
            p.theta = {c.kp, c.ki, c.kd};
            p.rtol = 1e-10;
            p.atol = 1e-12;
            pl::RunContext ctx(1);
            AttemptOptions ao;
            ao.live = false;
            const AttemptResult r = runAttempt(task, p, ao, ctx);
            QVERIFY(r.completed);
            auto join = [](const std::vector<double>& v) {
                QStringList s;
                for (double x : v)
                    s << QString::number(x, 'g', 17);
                return s.join(',');
            };
            const QStringList out = pl::test::pythonLines(
                kLsim, {QString::number(c.kp), QString::number(c.ki), QString::number(c.kd),
                        QString::number(c.tf), join(c.num), join(c.den)});
            QCOMPARE(out.size(), 1);
            const QStringList ys = out[0].split(' ');
            QCOMPARE(ys.size(), int(r.traj.out.size()));
            double worst = 0;
            for (int i = 0; i < ys.size(); ++i)
                worst = std::max(worst, std::abs(ys[i].toDouble() - r.traj.out[size_t(i)]));
            QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
        }
    }
    void saturationLimitsTheControl() {
        PidSpec spec;
        spec.uMax = 0.5;
        const PidTask task(spec);
        Plan p;
        p.theta = {10, 1, 0};
        pl::RunContext ctx(1);
        AttemptOptions ao;
        ao.live = false;
        const AttemptResult r = runAttempt(task, p, ao, ctx);
        // With |u| ≤ 0.5 and a unit-DC-gain plant the output cannot exceed 0.5 + transient (≤ 0.5 here).
        QVERIFY(*std::max_element(r.traj.out.begin(), r.traj.out.end()) <= 0.5 + 1e-6);
    }
};

QTEST_APPLESS_MAIN(TestSimloop)
#include "tst_simloop.moc"
