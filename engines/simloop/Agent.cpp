#include "simloop/Agent.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <algorithm>
#include <cmath>

namespace pl::simloop {

AgentKind agentFromName(const std::string& name) {
    if (name == "runtime")
        return AgentKind::Runtime;
    if (name == "baseline")
        return AgentKind::Baseline;
    if (name == "none")
        return AgentKind::None;
    throw UsageError("unknown agent '" + name + "' (runtime, baseline, none)");
}

PatternSearch::PatternSearch(std::vector<double> start, std::vector<double> floor, double step)
    : m_centre(std::move(start)), m_floor(std::move(floor)), m_step(step) {
    m_floor.resize(m_centre.size(), 0.0);
}

void PatternSearch::report(const std::vector<double>& theta, double cost) {
    if (theta.size() == m_centre.size() && cost < m_centreCost) {
        m_centre = theta;
        m_centreCost = cost;
        m_sinceImprove = 0;
    }
}

void PatternSearch::moveTo(const std::vector<double>& theta) {
    if (theta.size() != m_centre.size())
        return;
    m_centre = theta;
    m_centreCost = 1e300;
    m_sinceImprove = 0;
}

std::vector<double> PatternSearch::next() {
    std::vector<double> p = m_centre;
    if (p.empty())
        return p;
    const int d = int(p.size());
    if (m_sinceImprove >= 2 * d) {
        m_step *= 0.5;
        m_sinceImprove = 0;
    }
    const int i = (m_dir / 2) % d;
    const double sign = m_dir % 2 == 0 ? 1.0 : -1.0;
    p[size_t(i)] = std::max(m_floor[size_t(i)], std::max(p[size_t(i)], 1e-3) * std::exp(sign * m_step));
    m_dir = (m_dir + 1) % (2 * d);
    ++m_sinceImprove;
    return p;
}

namespace {

/// A short description for the agent log: θ when the plan has one (and the integrator unless it
/// is rk45), else the integrator with its tolerance or step.
std::string describe(const Plan& p) {
    std::string s;
    if (p.theta.empty() || p.integrator != Integrator::Rk45) {
        s = integratorName(p.integrator);
        s += p.integrator == Integrator::Verlet ? " dt " + formatSignificant(p.dt)
                                                : " rtol " + formatSignificant(p.rtol);
    }
    if (!p.theta.empty()) {
        s += s.empty() ? "θ = (" : ", θ = (";
        for (size_t i = 0; i < p.theta.size(); ++i)
            s += (i ? ", " : "") + formatSignificant(p.theta[i]);
        s += ")";
    }
    return s;
}

/// The noisy proposer: with probability \a noise the proposal is corrupted.
Plan noisy(Plan p, const std::vector<double>& floor, double noise, Rng& rng, bool& corrupted) {
    const double u = rng.uniform();
    const double g = rng.normal(), pick = rng.uniform(); // drawn every time: aligned streams
    corrupted = u < noise;
    if (!corrupted)
        return p;
    if (!p.theta.empty()) {
        for (size_t i = 0; i < p.theta.size(); ++i) {
            const double f = i < floor.size() ? floor[i] : 0.0;
            const double z = i == 0 ? g : rng.normal();
            p.theta[i] = std::max(f, std::max(p.theta[i], 1e-3) * std::exp(0.7 * z));
        }
    } else if (pick < 0.5) {
        p.rtol = std::min(1e-2, p.rtol * 10);
        p.atol = std::min(1e-4, p.atol * 10);
    } else {
        p.integrator = Integrator::Rk45;
    }
    return p;
}

bool isRepair(Action a) {
    return a == Action::AbortDampGains || a == Action::AbortCutIntegral || a == Action::SwitchImplicit ||
           a == Action::RestartSymplectic || a == Action::TightenTolerances;
}

} // namespace

EpisodeResult runEpisode(const Task& task, AgentKind agent, const Plan& initial, const AgentOptions& opt,
                         Rng rng, RunContext& ctx) {
    EpisodeResult e;
    const Plan first = task.initialPlan(initial);
    const std::vector<double> floor = task.thetaFloor();
    PatternSearch ps(first.theta, floor);
    bool corrupted = false;
    Plan plan = noisy(first, floor, opt.noise, rng, corrupted);
    double best = 1e300;
    int repairsInRow = 0;
    auto log = [&](long step, double t, int module, Anomaly a, Action act, std::string text) {
        if (opt.record)
            e.log.push_back({step, t, module, a, act, std::move(text)});
    };
    log(0, 0, 0, Anomaly::None, Action::None, "initial " + describe(first));
    int attemptNo = 0;
    while (e.used < opt.budget) {
        ctx.throwIfCancelled();
        ++attemptNo;
        log(e.used, 0, 1, Anomaly::None, Action::None,
            "run " + std::to_string(attemptNo) + ": " + describe(plan) + (corrupted ? " (noisy)" : ""));
        AttemptOptions ao;
        ao.live = agent == AgentKind::Runtime;
        ao.stepCap = opt.budget - e.used;
        ao.monitorPeriod = opt.monitorPeriod;
        ao.record = opt.record;
        ao.stepOffset = e.used;
        ao.bestCost = best;
        AttemptResult a = runAttempt(task, plan, ao, ctx);
        const Judgement j = task.judge(a.finalPlan, a.traj, a.completed);
        AttemptSummary s{a.finalPlan, e.used, a.steps, a.completed, false, Anomaly::None, -1, j.cost};
        if (a.detection)
            s.anomaly = a.detection->anomaly;
        if (a.firstDetectionStep >= 0) {
            s.detectStep = e.used + a.firstDetectionStep;
            if (e.firstDetection < 0)
                e.firstDetection = s.detectStep;
        }
        if (opt.record) {
            for (size_t i = 0; i < a.traj.t.size(); ++i) {
                e.timelineStep.push_back(double(e.used + a.traj.step[i]));
                e.timelineOut.push_back(a.traj.out[i]);
            }
            e.timelineStep.push_back(kNaN); // a gap between attempts
            e.timelineOut.push_back(kNaN);
            e.stepH.insert(e.stepH.end(), a.stepH.begin(), a.stepH.end());
            e.stepAttempt.insert(e.stepAttempt.end(), a.stepH.size(), attemptNo);
            e.log.insert(e.log.end(), a.log.begin(), a.log.end());
        }
        e.used += a.steps;
        const bool accepted = a.completed && j.meetsSpec;
        s.accepted = accepted;
        e.attempts.push_back(s);
        if (accepted) {
            e.success = true;
            e.wasted = e.used - a.steps;
            log(e.used, a.traj.t.back(), 3, Anomaly::None, Action::None,
                "accept run " + std::to_string(attemptNo) + ": sub-goals met");
            e.last = std::move(a);
            return e;
        }
        if (a.completed)
            best = std::min(best, j.cost);
        if (a.completed) // an aborted run's cost is only a lower bound: not used to move the centre
            ps.report(a.finalPlan.theta, j.cost);
        const Anomaly an = a.detection ? a.detection->anomaly : Anomaly::None;
        Action act = actionFor(an);
        if (act == Action::SwitchImplicit && a.finalPlan.integrator == Integrator::Bdf)
            act = Action::TightenTolerances;
        if (agent == AgentKind::Baseline && an != Anomaly::None) {
            log(e.used, a.detection->t, 2, an, Action::None,
                "after run: " + anomalyName(an) + ": " + a.detection->detail);
            log(e.used, a.detection->t, 3, an, act, actionName(act) + " (next run)");
        } else if (an == Anomaly::None) {
            log(e.used, a.traj.t.back(), 3, Anomaly::None, Action::None,
                "missed (cost " + formatSignificant(j.cost) + "): propose");
        }
        Plan nextPlan = a.finalPlan;
        if (an == Anomaly::BudgetExhausted) {
            e.last = std::move(a);
            break;
        }
        if (isRepair(act)) {
            nextPlan = task.repair(a.finalPlan, act);
            ++repairsInRow;
        } else {
            if (!nextPlan.theta.empty())
                nextPlan.theta = ps.next();
            else
                nextPlan = task.repair(nextPlan, Action::TightenTolerances);
            repairsInRow = 0;
        }
        if (repairsInRow >= 6) {
            nextPlan = first;
            ps.moveTo(first.theta);
            repairsInRow = 0;
            log(e.used, 0, 3, an, Action::Replan, "6 repairs in a row: re-plan");
        }
        plan = noisy(nextPlan, floor, opt.noise, rng, corrupted);
        e.last = std::move(a);
    }
    e.wasted = e.used;
    return e;
}

} // namespace pl::simloop
