#include "simloop/Task.h"

#include <algorithm>
#include <cmath>

namespace pl::simloop {

std::vector<double> uniformGrid(double tEnd, double dt) {
    std::vector<double> g;
    const long n = long(std::floor(tEnd / dt + 1e-9));
    for (long i = 0; i <= n; ++i)
        g.push_back(double(i) * dt);
    if (g.back() < tEnd - 1e-12 * std::max(1.0, tEnd))
        g.push_back(tEnd);
    return g;
}

Plan Task::repair(const Plan& p, Action a) const {
    Plan q = p;
    switch (a) {
    case Action::AbortDampGains:
        for (size_t i = 0; i < q.theta.size(); ++i)
            q.theta[i] *= i == 0 ? 0.6 : 0.8;
        break;
    case Action::AbortCutIntegral:
        if (q.theta.size() > 1)
            q.theta[1] *= 0.6;
        break;
    case Action::SwitchImplicit:
        q.integrator = Integrator::Bdf;
        break;
    case Action::RestartSymplectic:
        if (q.integrator == Integrator::Verlet)
            q.dt *= 0.5; // already symplectic: reduce the step
        q.integrator = Integrator::Verlet;
        break;
    case Action::TightenTolerances:
        q.rtol = std::max(1e-12, q.rtol * 0.1);
        q.atol = std::max(1e-14, q.atol * 0.1);
        break;
    default:
        break;
    }
    return q;
}

} // namespace pl::simloop
