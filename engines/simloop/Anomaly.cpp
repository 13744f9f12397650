#include "simloop/Anomaly.h"

namespace pl::simloop {

const std::vector<Rule>& ruleTable() {
    static const std::vector<Rule> table{
        {Anomaly::NonFinite, Action::AbortDampGains, "NaN/Inf in the state → abort, damp the gains"},
        {Anomaly::StepCollapse, Action::SwitchImplicit,
         "step-size collapse → switch explicit → implicit (BDF)"},
        {Anomaly::SolverFailure, Action::SwitchImplicit, "integrator failure → switch to BDF"},
        {Anomaly::Divergence, Action::AbortDampGains, "growing oscillation envelope → abort, Kp ×0.6"},
        {Anomaly::Overshoot, Action::AbortCutIntegral, "overshoot above spec → abort, Ki ×0.6"},
        {Anomaly::SettlingMissed, Action::AbortPropose, "settling deadline missed → abort, next proposal"},
        {Anomaly::EnergyDrift, Action::RestartSymplectic, "energy drift → restart with velocity Verlet"},
        {Anomaly::NegativeValue, Action::TightenTolerances,
         "negative concentration → tighten tolerances ×0.1"},
        {Anomaly::ResidualBound, Action::AbortPropose, "residual above best fit → abort, next proposal"},
        {Anomaly::BudgetExhausted, Action::None, "budget exhausted → stop"},
    };
    return table;
}

Action actionFor(Anomaly a) {
    for (const Rule& r : ruleTable())
        if (r.anomaly == a)
            return r.action;
    return Action::None;
}

std::string anomalyName(Anomaly a) {
    switch (a) {
    case Anomaly::None:
        return "none";
    case Anomaly::NonFinite:
        return "NaN/Inf";
    case Anomaly::StepCollapse:
        return "step-size collapse";
    case Anomaly::SolverFailure:
        return "solver failure";
    case Anomaly::Divergence:
        return "growing oscillation";
    case Anomaly::Overshoot:
        return "overshoot";
    case Anomaly::SettlingMissed:
        return "settling missed";
    case Anomaly::EnergyDrift:
        return "energy drift";
    case Anomaly::NegativeValue:
        return "negative concentration";
    case Anomaly::ResidualBound:
        return "residual bound";
    case Anomaly::BudgetExhausted:
        return "budget exhausted";
    }
    return "?";
}

std::string actionName(Action a) {
    switch (a) {
    case Action::None:
        return "none";
    case Action::AbortDampGains:
        return "abort, damp gains";
    case Action::AbortCutIntegral:
        return "abort, Ki ×0.6";
    case Action::AbortPropose:
        return "abort, propose";
    case Action::SwitchImplicit:
        return "switch to BDF";
    case Action::RestartSymplectic:
        return "restart with Verlet";
    case Action::TightenTolerances:
        return "tighten tolerances";
    case Action::Replan:
        return "re-plan";
    }
    return "?";
}

} // namespace pl::simloop
