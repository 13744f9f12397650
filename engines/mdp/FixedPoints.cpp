#include "mdp/FixedPoints.h"

#include <algorithm>
#include <cmath>

namespace pl::mdp {

std::vector<char> controllableInvariant(const Mdp& m, const std::vector<char>& safe) {
    std::vector<char> x = safe;
    for (bool changed = true; changed;) {
        changed = false;
        for (int s = 0; s < m.states; ++s) {
            if (!x[size_t(s)])
                continue;
            bool someAction = false;
            for (int a = 0; a < m.actions && !someAction; ++a) {
                bool stays = true;
                for (const Transition& t : m.row(s, a))
                    stays = stays && (t.p <= 0 || x[size_t(t.next)]);
                someAction = stays;
            }
            if (!someAction) {
                x[size_t(s)] = 0;
                changed = true;
            }
        }
    }
    return x;
}

Eigen::VectorXd maxReachProbability(const Mdp& m, const std::vector<char>& goal, double tol,
                                    int* iterations) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(m.states), next(m.states);
    int it = 0;
    for (; it < 1000000; ++it) {
        double change = 0;
        for (int s = 0; s < m.states; ++s) {
            double best = 0;
            if (goal[size_t(s)]) {
                best = 1;
            } else {
                for (int a = 0; a < m.actions; ++a) {
                    double e = 0;
                    for (const Transition& t : m.row(s, a))
                        e += t.p * x(t.next);
                    best = std::max(best, e);
                }
            }
            next(s) = best;
            change = std::max(change, std::fabs(best - x(s)));
        }
        x.swap(next);
        if (change <= tol)
            break;
    }
    if (iterations)
        *iterations = it + 1;
    return x;
}

} // namespace pl::mdp
