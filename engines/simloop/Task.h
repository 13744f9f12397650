#pragma once
/// A task of the simulate-perceive-repair loop: the simulated system for a plan (tunable
/// parameters θ and integrator settings), its task-specific monitors on the output grid, the
/// judgement of a (complete or partial) run and how each repair action changes a plan. The four
/// tasks of embodied-act (PID design, Robertson kinetics, long-horizon energy, identification) are
/// in PidTask.h and Tasks.h. Immutable after construction; one object may serve several threads.

#include "simloop/Anomaly.h"
#include "simloop/Stepper.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace pl::simloop {

/// What the agent decides before a run: tunables θ (gains, model parameters; may be empty) and the
/// integrator with its settings.
struct Plan {
    std::vector<double> theta;
    Integrator integrator = Integrator::Rk45;
    double rtol = 1e-6, atol = 1e-9;
    double dt = 0.01; ///< Verlet step
};

/// The output grid of one attempt so far: times, the displayed output and the full states.
struct Trajectory {
    std::vector<double> t, out;
    std::vector<long> step; ///< accepted steps of the attempt when the sample was taken
    std::vector<Eigen::VectorXd> y;
};

/// Outcome of a (complete or partial) run as the task judges it.
struct Judgement {
    bool meetsSpec = false; ///< the sub-goals hold (only meaningful for complete runs)
    double cost = 0;        ///< planner's objective (lower is better); partial runs: a lower bound
};

/// 0, dt, 2·dt, …, with tEnd as the last point.
std::vector<double> uniformGrid(double tEnd, double dt);

class Task {
public:
    virtual ~Task() = default;
    virtual std::string name() const = 0;
    /// The system simulated under \a p.
    virtual OdeSystem system(const Plan& p) const = 0;
    virtual Eigen::VectorXd initialState(const Plan& p) const = 0;
    virtual double tEnd() const = 0;
    /// The output grid (increasing, first 0, last tEnd()).
    virtual std::vector<double> outputTimes() const = 0;
    /// The displayed scalar output of a state (PID: y; Robertson: y₂·10⁴; energy: q₁; identify: x).
    virtual double output(const Eigen::VectorXd& y) const = 0;
    /// Task-specific monitors on the output samples from index \a from on (live, or post hoc for
    /// the baseline); \a bestCost is the best complete run's cost so far in this episode.
    virtual std::optional<Detection> check(const Plan& p, const Trajectory& traj, size_t from,
                                           double bestCost) const = 0;
    /// Judges \a traj; \a complete says whether the run reached tEnd.
    virtual Judgement judge(const Plan& p, const Trajectory& traj, bool complete) const = 0;
    /// The planner's first plan, from \a initial (integrator and tolerances chosen by the user).
    virtual Plan initialPlan(const Plan& initial) const = 0;
    /// \a p changed by \a a (AbortDampGains, RestartSymplectic, TightenTolerances, SwitchImplicit).
    virtual Plan repair(const Plan& p, Action a) const;
    /// Positive lower bounds of θ (the proposer keeps θ above them).
    virtual std::vector<double> thetaFloor() const { return {}; }
    /// Minimum step as a fraction of the time span (step-size collapse monitor).
    virtual double hMinFraction() const { return 1e-5; }
};

} // namespace pl::simloop
