#include "mdp/MdpWorlds.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::mdp {

namespace {

/// Splits \a mass over 1–2 distinct states of [first, last) into \a out.
void splitInto(std::vector<Transition>& out, int first, int last, double mass, Rng& rng) {
    const int n = last - first;
    const int a = first + int(rng.uniformInt(uint64_t(n)));
    if (n == 1 || rng.uniform() < 0.5) {
        out.push_back({a, mass});
        return;
    }
    int b = first + int(rng.uniformInt(uint64_t(n - 1)));
    if (b >= a)
        ++b;
    const double w = rng.uniform(0.2, 0.8);
    out.push_back({a, mass * w});
    out.push_back({b, mass * (1 - w)});
}

} // namespace

Mdp plantedLumpable(int states, int actions, int blocks, double perturbation, Rng& rng) {
    blocks = std::clamp(blocks, 1, states);
    Mdp m;
    m.states = states;
    m.actions = actions;
    m.reward = Eigen::MatrixXd::Zero(states, actions);
    m.rows.assign(size_t(states) * size_t(actions), {});
    auto first = [&](int b) { return int(int64_t(b) * states / blocks); };
    std::vector<int> owner(static_cast<size_t>(states), 0);
    for (int b = 0; b < blocks; ++b)
        for (int s = first(b); s < first(b + 1); ++s)
            owner[size_t(s)] = b;
    for (int b = 0; b < blocks; ++b)
        for (int a = 0; a < actions; ++a) {
            const double r = rng.uniform();
            const int target[2] = {int(rng.uniformInt(uint64_t(blocks))),
                                   int(rng.uniformInt(uint64_t(blocks)))};
            const double w = rng.uniform(0.3, 0.7);
            const double mass[2] = {w, 1 - w};
            std::vector<Transition> shared[2];
            for (int k = 0; k < 2; ++k)
                splitInto(shared[k], first(target[k]), first(target[k] + 1), mass[k], rng);
            for (int s = first(b); s < first(b + 1); ++s) {
                m.reward(s, a) = r;
                auto& row = m.rows[size_t(s) * size_t(actions) + size_t(a)];
                for (int k = 0; k < 2; ++k) {
                    if (target[k] % 2 == 1) // into a block that perturbation breaks up: one split for all
                        row.insert(row.end(), shared[k].begin(), shared[k].end());
                    else
                        splitInto(row, first(target[k]), first(target[k] + 1), mass[k], rng);
                }
            }
        }
    if (perturbation > 0)
        for (int s = 0; s < states; ++s) {
            if (owner[size_t(s)] % 2 == 0)
                continue;
            for (int a = 0; a < actions; ++a) {
                m.reward(s, a) += perturbation * (rng.uniform() - 0.5);
                auto& row = m.rows[size_t(s) * size_t(actions) + size_t(a)];
                for (Transition& t : row)
                    t.p *= 1 - perturbation;
                row.push_back({int(rng.uniformInt(uint64_t(states))), perturbation});
            }
        }
    m.normalise();
    std::vector<char> goal(size_t(states), 0), safe(size_t(states), 1);
    for (int s = 0; s < states; ++s) {
        goal[size_t(s)] = owner[size_t(s)] == 0;
        safe[size_t(s)] = blocks < 2 || owner[size_t(s)] != blocks - 1;
    }
    m.labels["goal"] = goal;
    m.labels["safe"] = safe;
    m.name =
        "planted lumpable MDP (" + std::to_string(states) + " states, " + std::to_string(blocks) + " blocks)";
    return m;
}

Mdp mirroredGridworld(int size) {
    const int h = size, w = size + (size % 2);
    Mdp m;
    m.states = w * h;
    m.actions = 4;
    m.reward = Eigen::MatrixXd::Zero(m.states, 4);
    m.rows.assign(size_t(m.states) * 4, {});
    auto id = [w](int r, int c) { return r * w + c; };
    std::vector<char> goal(size_t(m.states), 0), safe(size_t(m.states), 1);
    goal[size_t(id(0, 0))] = goal[size_t(id(0, w - 1))] = 1;
    if (h >= 3 && w >= 4)
        safe[size_t(id(h / 2, 0))] = safe[size_t(id(h / 2, w - 1))] = 0;
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            const int s = id(r, c);
            const bool left = c < w / 2;
            for (int a = 0; a < 4; ++a) {
                auto& row = m.rows[size_t(s) * 4 + size_t(a)];
                if (goal[size_t(s)] || !safe[size_t(s)]) {
                    row.push_back({s, 1.0});
                    continue;
                }
                int nr = r, nc = c;
                if (a == 0)
                    nr = std::max(0, r - 1);
                else if (a == 1)
                    nr = std::min(h - 1, r + 1);
                else if (a == 2) // inward: towards the axis, stopping at the axis
                    nc = left ? std::min(w / 2 - 1, c + 1) : std::max(w / 2, c - 1);
                else // outward: towards the nearer wall
                    nc = left ? std::max(0, c - 1) : std::min(w - 1, c + 1);
                const int n = id(nr, nc);
                row.push_back({s, 0.1});
                row.push_back({n, 0.9});
                m.reward(s, a) = 0.9 * ((goal[size_t(n)] ? 1.0 : 0.0) - (safe[size_t(n)] ? 0.0 : 1.0));
            }
        }
    m.normalise();
    m.labels["goal"] = goal;
    m.labels["safe"] = safe;
    m.name = "mirrored gridworld " + std::to_string(w) + "x" + std::to_string(h);
    return m;
}

Mdp ringWorld(int size, int actions, double kappa) {
    Mdp m;
    m.states = size;
    m.actions = actions;
    m.reward = Eigen::MatrixXd::Zero(size, actions);
    m.rows.assign(size_t(size) * size_t(actions), {});
    m.policy = Eigen::MatrixXd::Zero(size, actions);
    const int jump = std::max(1, size / (2 * actions));
    const double noise[3][2] = {{-1, 0.25}, {0, 0.5}, {1, 0.25}};
    auto wrap = [size](int s) { return ((s % size) + size) % size; };
    std::vector<char> goal(size_t(size), 0), safe(size_t(size), 0);
    for (int s = 0; s < size; ++s) {
        const double c = std::cos(2 * std::numbers::pi * s / size);
        goal[size_t(s)] = s == 0;
        safe[size_t(s)] = c > -0.8;
        for (int a = 0; a < actions; ++a) {
            m.reward(s, a) = 0.5 * (1 + c);
            m.policy(s, a) = actions == 1 ? 1.0 : (a == 0 ? kappa : (1 - kappa) / (actions - 1));
            auto& row = m.rows[size_t(s) * size_t(actions) + size_t(a)];
            for (const auto& [e, pe] : noise) {
                if (a == 0) {
                    row.push_back({wrap(s + int(e)), pe});
                } else {
                    row.push_back({wrap(s + a * jump + int(e)), 0.5 * pe});
                    row.push_back({wrap(s - a * jump + int(e)), 0.5 * pe});
                }
            }
        }
    }
    m.normalise();
    m.labels["goal"] = goal;
    m.labels["safe"] = safe;
    m.name =
        "ring world (" + std::to_string(size) + " states, κ = " + std::to_string(kappa).substr(0, 4) + ")";
    return m;
}

} // namespace pl::mdp
