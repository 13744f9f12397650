#include "mdp/Mdp.h"

#include "core/Errors.h"

#include <Eigen/LU>

#include <algorithm>

namespace pl::mdp {

std::vector<char> Mdp::labelSet(const std::string& n) const {
    auto it = labels.find(n);
    return it == labels.end() ? std::vector<char>(size_t(states), 0) : it->second;
}

Eigen::MatrixXd Mdp::transitionMatrix(int a) const {
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(states, states);
    for (int s = 0; s < states; ++s)
        for (const Transition& t : row(s, a))
            P(s, t.next) += t.p;
    return P;
}

Eigen::MatrixXd Mdp::behaviourChain(const Eigen::MatrixXd& beta) const {
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(states, states);
    for (int s = 0; s < states; ++s)
        for (int a = 0; a < actions; ++a)
            for (const Transition& t : row(s, a))
                P(s, t.next) += beta(s, a) * t.p;
    return P;
}

void Mdp::normalise() {
    for (auto& r : rows) {
        std::sort(r.begin(), r.end(),
                  [](const Transition& x, const Transition& y) { return x.next < y.next; });
        std::vector<Transition> merged;
        for (const Transition& t : r) {
            if (!merged.empty() && merged.back().next == t.next)
                merged.back().p += t.p;
            else if (t.p > 0)
                merged.push_back(t);
        }
        r.swap(merged);
    }
}

double qValue(const Mdp& m, const Eigen::VectorXd& v, int s, int a, double gamma) {
    double e = 0;
    for (const Transition& t : m.row(s, a))
        e += t.p * v(t.next);
    return m.reward(s, a) + gamma * e;
}

Eigen::VectorXd evaluatePolicy(const Mdp& m, const std::vector<int>& policy, double gamma) {
    const int n = m.states;
    Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd r(n);
    for (int s = 0; s < n; ++s) {
        const int a = policy[size_t(s)];
        r(s) = m.reward(s, a);
        for (const Transition& t : m.row(s, a))
            A(s, t.next) -= gamma * t.p;
    }
    return A.partialPivLu().solve(r);
}

ValueSolution solveOptimalValue(const Mdp& m, double gamma) {
    if (!(gamma >= 0 && gamma < 1))
        throw EngineError("policy iteration needs 0 <= gamma < 1");
    ValueSolution out;
    out.policy.assign(size_t(m.states), 0);
    for (int it = 0; it < 10000; ++it) {
        out.value = evaluatePolicy(m, out.policy, gamma);
        out.iterations = it + 1;
        bool changed = false;
        for (int s = 0; s < m.states; ++s) {
            int& cur = out.policy[size_t(s)];
            double best = qValue(m, out.value, s, cur, gamma);
            for (int a = 0; a < m.actions; ++a) {
                const double q = qValue(m, out.value, s, a, gamma);
                if (q > best + 1e-12) {
                    best = q;
                    cur = a;
                    changed = true;
                }
            }
        }
        if (!changed)
            return out;
    }
    throw EngineError("policy iteration did not converge in 10000 iterations");
}

} // namespace pl::mdp
