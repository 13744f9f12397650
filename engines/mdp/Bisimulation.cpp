#include "mdp/Bisimulation.h"

#include "mdp/Wasserstein.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pl::mdp {

namespace {

/// Sparse signature of s under a partition: rewards, then per action the mass into each block.
struct Signature {
    std::vector<double> rewards;
    std::vector<std::vector<std::pair<int, double>>> mass; ///< per action, sorted by block
};

Signature signatureOf(const Mdp& m, const std::vector<int>& block, int s) {
    Signature g;
    for (int a = 0; a < m.actions; ++a) {
        g.rewards.push_back(m.reward(s, a));
        std::map<int, double> acc;
        for (const Transition& t : m.row(s, a))
            acc[block[size_t(t.next)]] += t.p;
        g.mass.emplace_back(acc.begin(), acc.end());
    }
    return g;
}

bool close(const Signature& x, const Signature& y, double tol) {
    for (size_t a = 0; a < x.rewards.size(); ++a) {
        if (std::fabs(x.rewards[a] - y.rewards[a]) > tol)
            return false;
        const auto &u = x.mass[a], &v = y.mass[a];
        size_t i = 0, j = 0;
        while (i < u.size() || j < v.size()) {
            if (j == v.size() || (i < u.size() && u[i].first < v[j].first)) {
                if (u[i++].second > tol)
                    return false;
            } else if (i == u.size() || v[j].first < u[i].first) {
                if (v[j++].second > tol)
                    return false;
            } else if (std::fabs(u[i++].second - v[j++].second) > tol) {
                return false;
            }
        }
    }
    return true;
}

/// Renumbers block ids 0.. in order of the smallest state.
std::vector<int> canonical(const std::vector<int>& block) {
    std::map<int, int> ids;
    std::vector<int> out(block.size());
    for (size_t s = 0; s < block.size(); ++s) {
        auto it = ids.find(block[s]);
        if (it == ids.end())
            it = ids.emplace(block[s], int(ids.size())).first;
        out[s] = it->second;
    }
    return out;
}

std::vector<int> labelClasses(const Mdp& m) {
    std::map<std::vector<char>, int> classes;
    std::vector<int> block(size_t(m.states));
    for (int s = 0; s < m.states; ++s) {
        std::vector<char> key;
        for (const auto& [name, set] : m.labels)
            key.push_back(set[size_t(s)]);
        block[size_t(s)] = classes.emplace(key, int(classes.size())).first->second;
    }
    return canonical(block);
}

} // namespace

int blockCount(const std::vector<int>& block) {
    return block.empty() ? 0 : *std::max_element(block.begin(), block.end()) + 1;
}

std::vector<int> coarsestBisimulation(const Mdp& m) {
    std::vector<int> block = labelClasses(m);
    for (;;) {
        std::vector<Signature> sig;
        for (int s = 0; s < m.states; ++s)
            sig.push_back(signatureOf(m, block, s));
        // Split every block by signature: a state joins the first sub-block whose first state is close.
        std::vector<int> refined(size_t(m.states), -1);
        std::vector<std::vector<int>> reps(size_t(blockCount(block)));
        int fresh = 0;
        for (int s = 0; s < m.states; ++s) {
            auto& rs = reps[size_t(block[size_t(s)])];
            for (int r : rs)
                if (close(sig[size_t(r)], sig[size_t(s)], kBisimTolerance)) {
                    refined[size_t(s)] = refined[size_t(r)];
                    break;
                }
            if (refined[size_t(s)] < 0) {
                refined[size_t(s)] = fresh++;
                rs.push_back(s);
            }
        }
        refined = canonical(refined);
        if (blockCount(refined) == blockCount(block))
            return refined;
        block = refined;
    }
}

bool isBisimulation(const Mdp& m, const std::vector<int>& block, double tol) {
    const std::vector<int> labels = labelClasses(m);
    for (int s = 0; s < m.states; ++s)
        for (int t = s + 1; t < m.states; ++t) {
            if (block[size_t(s)] != block[size_t(t)])
                continue;
            if (labels[size_t(s)] != labels[size_t(t)] ||
                !close(signatureOf(m, block, s), signatureOf(m, block, t), tol))
                return false;
        }
    return true;
}

MetricResult bisimulationMetric(const Mdp& m, double gamma, RunContext& ctx, double tol, int maxIterations) {
    const int n = m.states;
    MetricResult out;
    out.d = Eigen::MatrixXd::Zero(n, n);
    Eigen::MatrixXd next(n, n);
    TransportSolver solver;
    for (int it = 0; it < maxIterations; ++it) {
        double change = 0;
        next.setZero();
        for (int s = 0; s < n; ++s) {
            ctx.throwIfCancelled();
            for (int t = s + 1; t < n; ++t) {
                double best = 0;
                for (int a = 0; a < m.actions; ++a) {
                    const double r = std::fabs(m.reward(s, a) - m.reward(t, a));
                    const double w = gamma > 0 ? solver.w1(m.row(s, a), m.row(t, a), out.d) : 0.0;
                    best = std::max(best, r + gamma * w);
                }
                next(s, t) = next(t, s) = best;
                change = std::max(change, std::fabs(best - out.d(s, t)));
            }
        }
        out.d.swap(next);
        out.iterations = it + 1;
        out.lastChange = change;
        out.changes.push_back(change);
        // Contraction: the distance to the fixed point is at most γ/(1−γ)·change.
        ctx.progress(std::min(1.0, std::log(std::max(change, 1e-300)) / std::log(tol) * 0.999),
                     "behavioural metric");
        if (change <= tol)
            break;
    }
    out.transportSolves = solver.solves();
    return out;
}

Mdp quotientMdp(const Mdp& m, const std::vector<int>& block) {
    const int k = blockCount(block);
    Mdp q;
    q.states = k;
    q.actions = m.actions;
    q.reward = Eigen::MatrixXd::Zero(k, m.actions);
    q.rows.assign(size_t(k) * size_t(m.actions), {});
    std::vector<int> size(size_t(k), 0);
    for (int s = 0; s < m.states; ++s)
        ++size[size_t(block[size_t(s)])];
    for (int s = 0; s < m.states; ++s) {
        const int b = block[size_t(s)];
        const double w = 1.0 / size[size_t(b)];
        for (int a = 0; a < m.actions; ++a) {
            q.reward(b, a) += w * m.reward(s, a);
            for (const Transition& t : m.row(s, a))
                q.rows[size_t(b) * size_t(m.actions) + size_t(a)].push_back({block[size_t(t.next)], w * t.p});
        }
    }
    q.normalise();
    for (const auto& [name, set] : m.labels) {
        std::vector<char> qs(size_t(k), 1);
        for (int s = 0; s < m.states; ++s)
            if (!set[size_t(s)])
                qs[size_t(block[size_t(s)])] = 0;
        q.labels[name] = qs;
    }
    q.name = "quotient with " + std::to_string(k) + " blocks";
    return q;
}

double homomorphismViolation(const Mdp& m, const Mdp& q, const std::vector<int>& block) {
    double worst = 0;
    std::vector<double> push(size_t(q.states));
    for (int s = 0; s < m.states; ++s) {
        const int b = block[size_t(s)];
        for (int a = 0; a < m.actions; ++a) {
            worst = std::max(worst, std::fabs(q.reward(b, a) - m.reward(s, a)));
            std::fill(push.begin(), push.end(), 0.0);
            for (const Transition& t : m.row(s, a))
                push[size_t(block[size_t(t.next)])] += t.p;
            for (const Transition& t : q.row(b, a))
                push[size_t(t.next)] -= t.p;
            for (double v : push)
                worst = std::max(worst, std::fabs(v));
        }
    }
    return worst;
}

std::vector<int> greedyAbstraction(const Eigen::MatrixXd& d, double eps) {
    const int n = int(d.rows());
    std::vector<int> block(size_t(n), -1);
    std::vector<std::vector<int>> members;
    for (int s = 0; s < n; ++s) {
        for (size_t c = 0; c < members.size() && block[size_t(s)] < 0; ++c) {
            bool ok = true;
            for (int t : members[c])
                ok = ok && d(s, t) < eps;
            if (ok) {
                block[size_t(s)] = int(c);
                members[c].push_back(s);
            }
        }
        if (block[size_t(s)] < 0) {
            block[size_t(s)] = int(members.size());
            members.push_back({s});
        }
    }
    return block;
}

double clusterDiameter(const Eigen::MatrixXd& d, const std::vector<int>& block) {
    double diam = 0;
    for (int s = 0; s < int(d.rows()); ++s)
        for (int t = s + 1; t < int(d.rows()); ++t)
            if (block[size_t(s)] == block[size_t(t)])
                diam = std::max(diam, d(s, t));
    return diam;
}

} // namespace pl::mdp
