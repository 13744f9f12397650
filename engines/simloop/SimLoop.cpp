#include "simloop/SimLoop.h"

#include "core/Numeric.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace pl::simloop {

namespace {

struct Spectrum {
    double radius = 0; ///< ρ(J) = max |λ|
    double ratio = 1;  ///< |λ_max / λ_min| over eigenvalues with |λ| > 1e-12
};

/// Eigenvalues of a forward-difference Jacobian of \a sys at (t, y).
Spectrum spectrum(const OdeSystem& sys, double t, const Eigen::VectorXd& y) {
    const int n = sys.dim;
    Eigen::MatrixXd J(n, n);
    Eigen::VectorXd f0(n), f1(n), yp = y;
    sys.rhs(t, y.data(), f0.data());
    for (int j = 0; j < n; ++j) {
        const double e = 1e-7 * std::max(1e-6, std::abs(y[j]));
        yp[j] = y[j] + e;
        sys.rhs(t, yp.data(), f1.data());
        J.col(j) = (f1 - f0) / e;
        yp[j] = y[j];
    }
    if (!J.allFinite())
        return {};
    const Eigen::VectorXcd ev = Eigen::EigenSolver<Eigen::MatrixXd>(J, false).eigenvalues();
    double lo = 1e300, hi = 0;
    for (const auto& l : ev) {
        const double a = std::abs(l);
        if (a > 1e-12) {
            lo = std::min(lo, a);
            hi = std::max(hi, a);
        }
    }
    return {hi, hi > 0 && lo < 1e300 ? hi / lo : 1.0};
}

StepOptions optionsOf(const Plan& p, double tStop) {
    StepOptions o;
    o.rtol = p.rtol;
    o.atol = p.atol;
    o.dt = p.dt;
    o.tStop = tStop;
    return o;
}

/// The generic monitors: step-size collapse (adaptive methods only): more than half of the
/// window's steps rejected, or h below h_min while h·ρ(J) sits at an explicit method's stability
/// limit (between 1 and 6: the step is held by stability, not accuracy; an implicit method's
/// h·ρ(J) grows far past it).
std::optional<Detection> genericCheck(const Task& task, const OdeSystem& sys, const Stepper& st,
                                      std::vector<double>& hHist, long& lastSteps, long& lastRej,
                                      int period) {
    if (st.kind() == Integrator::Verlet)
        return std::nullopt;
    const double h = st.lastStep();
    hHist.push_back(h);
    const long dSteps = st.steps() - lastSteps, dRej = st.rejected() - lastRej;
    lastSteps = st.steps();
    lastRej = st.rejected();
    if (dSteps + dRej >= period && dRej > dSteps)
        return Detection{Anomaly::StepCollapse,
                         0,
                         st.t(),
                         double(dRej) / double(dSteps + dRej),
                         0.5,
                         "rejection rate " + formatSignificant(double(dRej) / double(dSteps + dRej)) +
                             " > 0.5"};
    const double hMin = task.hMinFraction() * task.tEnd();
    if (h < hMin && hHist.size() >= 3 && h < 2 * hHist[hHist.size() - 3]) {
        const Spectrum sp = spectrum(sys, st.t(), st.y());
        const double hr = h * sp.radius;
        if (hr > 1 && hr < 6)
            return Detection{Anomaly::StepCollapse,
                             0,
                             st.t(),
                             h,
                             hMin,
                             "h = " + formatSignificant(h) + " < h_min = " + formatSignificant(hMin) +
                                 ", held at the stability limit (h·ρ(J) = " + formatSignificant(hr) +
                                 "), stiffness ratio ≈ " + formatSignificant(sp.ratio)};
    }
    return std::nullopt;
}

} // namespace

AttemptResult runAttempt(const Task& task, const Plan& plan, const AttemptOptions& opt, RunContext& ctx) {
    AttemptResult r;
    r.finalPlan = plan;
    const std::vector<double> grid = task.outputTimes();
    const double tEnd = task.tEnd();
    const OdeSystem sys = task.system(plan);
    const Eigen::VectorXd y0 = task.initialState(plan);
    std::unique_ptr<Stepper> st = makeStepper(plan.integrator, sys, 0.0, y0, optionsOf(plan, tEnd));
    r.traj.t.push_back(grid[0]);
    r.traj.out.push_back(task.output(y0));
    r.traj.y.push_back(y0);
    r.traj.step.push_back(0);
    size_t next = 1, checkedFrom = 0;
    long base = 0, lastSteps = 0, lastRej = 0;
    int localRepairs = 0;
    std::vector<double> hHist;
    Eigen::VectorXd buf(sys.dim);
    auto logEvent = [&](long step, double t, int module, Anomaly a, Action act, std::string text) {
        if (opt.record)
            r.log.push_back({opt.stepOffset + step, t, module, a, act, std::move(text)});
    };
    while (true) {
        if (base + st->steps() >= opt.stepCap) {
            Detection d{Anomaly::BudgetExhausted,
                        base + st->steps(),
                        st->t(),
                        double(opt.stepCap),
                        double(opt.stepCap),
                        "step budget exhausted at t = " + formatSignificant(st->t())};
            if (!r.detection)
                r.detection = d;
            logEvent(d.step, d.t, 2, d.anomaly, Action::None, d.detail);
            break;
        }
        const bool ok = st->step();
        const long total = base + st->steps();
        if (ok)
            for (; next < grid.size() && grid[next] <= st->t() * (1 + 1e-12); ++next) {
                st->interpolate(grid[next], buf.data());
                r.traj.t.push_back(grid[next]);
                r.traj.out.push_back(task.output(buf));
                r.traj.y.push_back(buf);
                r.traj.step.push_back(total);
            }
        if (opt.record && ok) {
            r.stepT.push_back(st->t());
            r.stepH.push_back(st->lastStep());
        }
        if (total % 2000 == 0)
            ctx.throwIfCancelled();
        const bool finished = ok && next >= grid.size();
        if (ok && !finished && total % opt.monitorPeriod != 0)
            continue;
        std::optional<Detection> d;
        if (!ok || !st->y().allFinite()) {
            const bool finite = st->y().allFinite();
            d.emplace();
            d->anomaly = finite ? Anomaly::SolverFailure : Anomaly::NonFinite;
            d->t = st->t();
            d->detail = finite ? "integrator gave up" : "NaN/Inf in the state";
        } else if (!opt.live && r.detection)
            d.reset(); // post hoc: the first detection is all the baseline reads
        else if (auto g = genericCheck(task, sys, *st, hHist, lastSteps, lastRej, opt.monitorPeriod))
            d = g;
        else
            d = task.check(r.finalPlan, r.traj, checkedFrom, opt.bestCost);
        checkedFrom = r.traj.t.size();
        if (d) {
            d->step = total;
            if (r.firstDetectionStep < 0)
                r.firstDetectionStep = total;
            if (opt.live) {
                const Action act = actionFor(d->anomaly);
                logEvent(total, d->t, 2, d->anomaly, Action::None,
                         anomalyName(d->anomaly) + ": " + d->detail);
                const bool local =
                    (act == Action::SwitchImplicit && r.finalPlan.integrator != Integrator::Bdf) ||
                    act == Action::TightenTolerances;
                if (local && localRepairs < opt.maxLocalRepairs && st->y().allFinite()) {
                    ++localRepairs;
                    r.finalPlan = task.repair(r.finalPlan, act);
                    logEvent(total, d->t, 3, d->anomaly, act, actionName(act) + " in place");
                    base += st->steps();
                    const double t0 = st->t();
                    const Eigen::VectorXd yc = st->y();
                    st = makeStepper(r.finalPlan.integrator, sys, t0, yc, optionsOf(r.finalPlan, tEnd));
                    hHist.clear();
                    lastSteps = lastRej = 0;
                    continue;
                }
                r.detection = d;
                logEvent(total, d->t, 3, d->anomaly, act, actionName(act));
                break;
            }
            if (!r.detection)
                r.detection = d;
            if (!ok)
                break;
        }
        if (!ok)
            break;
        if (finished) {
            r.completed = true;
            break;
        }
    }
    r.steps = base + st->steps();
    r.finalState = st->y();
    return r;
}

} // namespace pl::simloop
