#include "mdp/PacBayesBound.h"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::mdp {

namespace {

double phi(double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
}
double Phi(double z) {
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

/// Vose's alias method per state group (probabilities renormalised within the group).
void buildAliasTables(TransitionTable& t) {
    t.aliasProb.assign(t.entries.size(), 1.0);
    t.alias.resize(t.entries.size());
    for (size_t s = 0; s + 1 < t.first.size(); ++s) {
        const int lo = t.first[s], hi = t.first[s + 1], k = hi - lo;
        if (k == 0)
            continue;
        const double total = t.cumulative[size_t(hi - 1)];
        std::vector<double> q(static_cast<size_t>(k), 0.0);
        std::vector<int> small, large;
        for (int i = 0; i < k; ++i) {
            q[size_t(i)] = t.entries[size_t(lo + i)].p / total * k;
            t.alias[size_t(lo + i)] = lo + i;
            (q[size_t(i)] < 1 ? small : large).push_back(i);
        }
        while (!small.empty() && !large.empty()) {
            const int a = small.back(), b = large.back();
            small.pop_back();
            t.aliasProb[size_t(lo + a)] = q[size_t(a)];
            t.alias[size_t(lo + a)] = lo + b;
            q[size_t(b)] -= 1 - q[size_t(a)];
            if (q[size_t(b)] < 1) {
                large.pop_back();
                small.push_back(b);
            }
        }
    }
}

} // namespace

double expectedClippedSquare(double mean, double var, double c) {
    if (var <= 0) {
        const double x = mean / c;
        return std::min(1.0, x * x);
    }
    const double sd = std::sqrt(var);
    const double a = (-c - mean) / sd, b = (c - mean) / sd;
    const double inside = Phi(b) - Phi(a);
    // E[X² 1{a < Z < b}] with X = mean + sd·Z.
    const double m2 =
        mean * mean * inside + 2 * mean * sd * (phi(a) - phi(b)) + var * (inside + a * phi(a) - b * phi(b));
    return std::clamp((1 - inside) + m2 / (c * c), 0.0, 1.0);
}

double gaussianKl(const Eigen::VectorXd& mu, double sigma, const Eigen::VectorXd& h0, double sigmaP) {
    const double k = double(mu.size()), ratio = sigma * sigma / (sigmaP * sigmaP);
    return 0.5 * (k * ratio + (mu - h0).squaredNorm() / (sigmaP * sigmaP) - k - k * std::log(ratio));
}

double complexityTerm(double kl, double delta, double tau, double n) {
    return complexityAt(kl, delta, tau, n).value;
}

Complexity complexityAt(double kl, double delta, double tau, double n) {
    Complexity best{1e300, 1};
    for (int k = 0; k <= 40; ++k) {
        const double lambda = std::ldexp(1.0, k);
        const double v = (kl + std::log(41.0 / delta)) / lambda + tau * lambda / (8 * n);
        if (v < best.value)
            best = {v, lambda};
    }
    return best;
}

TransitionTable transitionTable(const Mdp& m, const Eigen::MatrixXd& beta) {
    TransitionTable t;
    for (int s = 0; s < m.states; ++s) {
        t.first.push_back(int(t.entries.size()));
        double acc = 0;
        for (int a = 0; a < m.actions; ++a) {
            if (beta(s, a) <= 0)
                continue;
            for (const Transition& tr : m.row(s, a)) {
                acc += beta(s, a) * tr.p;
                t.entries.push_back({s, a, tr.next, beta(s, a) * tr.p, m.reward(s, a)});
                t.cumulative.push_back(acc);
            }
        }
    }
    t.first.push_back(int(t.entries.size()));
    buildAliasTables(t);
    return t;
}

std::vector<int> sampleChainCounts(const TransitionTable& t, const Eigen::VectorXd& pi, int64_t n, Rng& rng) {
    std::vector<int> counts(t.entries.size(), 0);
    double u = rng.uniform(), acc = 0;
    int s = int(pi.size()) - 1;
    for (int i = 0; i < pi.size(); ++i) {
        acc += pi(i);
        if (u < acc) {
            s = i;
            break;
        }
    }
    for (int64_t k = 0; k < n; ++k) {
        const int lo = t.first[size_t(s)], size = t.first[size_t(s) + 1] - lo;
        const double u = rng.uniform() * size;
        const int i = std::min(size - 1, int(u));
        int e = lo + i;
        if (u - i >= t.aliasProb[size_t(e)])
            e = t.alias[size_t(e)];
        ++counts[size_t(e)];
        s = t.entries[size_t(e)].next;
    }
    return counts;
}

double posteriorLoss(const TransitionTable::Entry& e, const Eigen::VectorXd& mu, double sigma, double gamma,
                     double c) {
    const double mean = e.r + gamma * mu(e.next) - mu(e.s);
    // δ = r + γh(s′) − h(s) is Gaussian under Q: coefficients γ on h(s′) and −1 on h(s).
    const double coef2 = e.next == e.s ? (gamma - 1) * (gamma - 1) : gamma * gamma + 1;
    return expectedClippedSquare(mean, sigma * sigma * coef2, c);
}

double risk(const TransitionTable& t, const std::vector<int>& counts, int64_t n, const Eigen::VectorXd& pi,
            const Eigen::VectorXd& mu, double sigma, double gamma, double c) {
    double total = 0;
    for (size_t k = 0; k < t.entries.size(); ++k) {
        const auto& e = t.entries[k];
        const double w = counts.empty() ? pi(e.s) * e.p : double(counts[k]) / double(n);
        if (w > 0)
            total += w * posteriorLoss(e, mu, sigma, gamma, c);
    }
    return total;
}

Eigen::VectorXd lstdMean(const TransitionTable& t, const std::vector<int>& counts, int states,
                         const Eigen::VectorXd& h0, double gamma) {
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(states, states);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(states);
    for (size_t k = 0; k < t.entries.size(); ++k) {
        if (!counts[k])
            continue;
        const auto& e = t.entries[k];
        const double w = counts[k];
        A(e.s, e.s) += w;
        A(e.s, e.next) -= gamma * w;
        b(e.s) += w * e.r;
    }
    const Eigen::VectorXd rhs = b - A * h0;
    A += Eigen::MatrixXd::Identity(states, states);
    return h0 + A.partialPivLu().solve(rhs);
}

} // namespace pl::mdp
