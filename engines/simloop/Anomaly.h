#pragma once
/// The runtime perception vocabulary of the simulate-perceive-repair loop: what a monitor can
/// detect (Anomaly), one detection with its place in the run (Detection), what the reflective
/// decision maker does about it (Action) and the rule table that maps one to the other. Plain
/// data; any thread. No Qt.

#include <string>
#include <vector>

namespace pl::simloop {

/// What a monitor detected.
enum class Anomaly {
    None,
    NonFinite,       ///< NaN or Inf in the state
    StepCollapse,    ///< h below h_min without growth, or > 50 % of the window's steps rejected
    SolverFailure,   ///< the integrator gave up
    Divergence,      ///< oscillation envelope of the error grows (log-envelope slope > 0)
    Overshoot,       ///< output already above the overshoot spec
    SettlingMissed,  ///< error still above the 2 % band after the settling deadline
    EnergyDrift,     ///< relative energy change above the drift tolerance
    NegativeValue,   ///< a concentration below −atol·10 (constraint violation)
    ResidualBound,   ///< partial residual already above the best complete fit
    BudgetExhausted, ///< the step budget ran out during the run
};

/// The decision maker's repairs.
enum class Action {
    None,
    AbortDampGains,    ///< abort, Kp ×0.6 (and Ki, Kd ×0.8)
    AbortCutIntegral,  ///< abort, Ki ×0.6
    AbortPropose,      ///< abort, the planner proposes the next candidate
    SwitchImplicit,    ///< explicit → implicit (BDF), continue from the current state
    RestartSymplectic, ///< restart with velocity Verlet (fixed step)
    TightenTolerances, ///< rtol, atol ×0.1, continue from the current state
    Replan,            ///< abort and restart the plan from the initial guess
};

/// One detection: the anomaly, when (attempt step, cumulative episode step, simulated time), the
/// monitored value against its threshold and a one-line description.
struct Detection {
    Anomaly anomaly = Anomaly::None;
    long step = 0;    ///< steps into the attempt
    double t = 0;     ///< simulated time
    double value = 0; ///< monitored quantity
    double threshold = 0;
    std::string detail;
};

/// A rule: anomaly → action, with the text the agent log shows.
struct Rule {
    Anomaly anomaly;
    Action action;
    const char* text;
};

/// The fixed rule table (one row per anomaly).
const std::vector<Rule>& ruleTable();
/// The action for \a a (None for Anomaly::None).
Action actionFor(Anomaly a);
/// Short names ("step-size collapse", "switch to BDF", ...).
std::string anomalyName(Anomaly a);
std::string actionName(Action a);

} // namespace pl::simloop
