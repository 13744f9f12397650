#pragma once
/// One attempt of the simulate-perceive-repair loop: a plan is integrated step by step; every
/// `monitorPeriod` accepted steps the monitors look at the run (NaN/Inf, step-size collapse,
/// the task's own monitors on the output samples since the last look). Live (runtime agent): a
/// detection is acted on at once: a local repair (switch to BDF, tighten tolerances) continues
/// from the current state, any other action aborts the attempt. Post hoc (baseline, agent none):
/// the same monitors run but only the first detection is kept and the run goes on to the end.
/// The budget caps the attempt's steps in both modes. No Qt.

#include "simloop/Task.h"

#include "core/RunContext.h"

namespace pl::simloop {

/// A line of the agent log: cumulative step of the episode, simulated time, module
/// (0 plan, 1 code, 2 perception, 3 reflection) and text.
struct LogEvent {
    long step = 0;
    double t = 0;
    int module = 0;
    Anomaly anomaly = Anomaly::None;
    Action action = Action::None;
    std::string text;
};

struct AttemptOptions {
    bool live = true;
    long stepCap = 1000000;  ///< steps this attempt may take (the remaining budget)
    int monitorPeriod = 10;  ///< steps between monitor looks
    bool record = false;     ///< keep every step's (t, h) and the log
    long stepOffset = 0;     ///< cumulative steps of the episode before this attempt (for the log)
    double bestCost = 1e300; ///< best complete cost of the episode so far
    int maxLocalRepairs = 3; ///< live: local repairs per attempt before giving up
};

struct AttemptResult {
    Trajectory traj;
    bool completed = false;             ///< reached tEnd
    std::optional<Detection> detection; ///< live: the one that ended it; post hoc: the first
    long steps = 0;                     ///< accepted steps, all integrators of the attempt
    Plan finalPlan;                     ///< the plan after local repairs
    std::vector<double> stepT, stepH;   ///< every accepted step (record only)
    std::vector<LogEvent> log;          ///< perception and reflection events (record only)
    Eigen::VectorXd finalState;
    long firstDetectionStep = -1; ///< attempt step of the first detection (any mode)
};

/// Runs one attempt of \a plan on \a task. Throws Cancelled through \a ctx.
AttemptResult runAttempt(const Task& task, const Plan& plan, const AttemptOptions& opt, RunContext& ctx);

} // namespace pl::simloop
