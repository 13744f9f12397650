#include "OfflineDataset.h"

#include <algorithm>
#include <deque>
#include <map>

namespace pl::keypoints {

size_t Dataset::transitions() const {
    size_t n = 0;
    for (const auto& s : states)
        n += s.empty() ? 0 : s.size() - 1;
    return n;
}

Dataset collectDataset(const Maze& maze, const DatasetOptions& opt, Rng& rng,
                       const std::function<void()>& poll) {
    std::vector<int> freeCells;
    for (int c = 0; c < maze.size(); ++c)
        if (maze.isFree(c))
            freeCells.push_back(c);
    // Coverage: a random subset of the free cells serves as starts and waypoints.
    std::vector<int> pool = freeCells;
    for (size_t i = pool.size(); i > 1; --i)
        std::swap(pool[i - 1], pool[size_t(rng.uniformInt(i))]);
    pool.resize(std::max<size_t>(1, size_t(double(pool.size()) * std::clamp(opt.coverage, 0.0, 1.0) + 0.5)));
    Dataset d;
    d.states.resize(size_t(opt.trajectories));
    d.actions.resize(size_t(opt.trajectories));
    std::map<int, std::vector<int>> bfsCache; // waypoint -> true distances (behaviour policy only)
    auto distTo = [&](int w) -> const std::vector<int>& {
        auto it = bfsCache.find(w);
        if (it == bfsCache.end())
            it = bfsCache.emplace(w, maze.bfs(w)).first;
        return it->second;
    };
    for (int i = 0; i < opt.trajectories; ++i) {
        if (poll && i % 16 == 0)
            poll();
        const bool goalDirected =
            opt.behaviour == Behaviour::NoisyGoal || (opt.behaviour == Behaviour::Mixed && (i % 2) == 0);
        int s = pool[size_t(rng.uniformInt(pool.size()))];
        int way = pool[size_t(rng.uniformInt(pool.size()))];
        auto& S = d.states[size_t(i)];
        auto& A = d.actions[size_t(i)];
        S.reserve(size_t(opt.length) + 1);
        S.push_back(s);
        for (int t = 0; t < opt.length; ++t) {
            int a = int(rng.uniformInt(4));
            if (goalDirected) {
                const std::vector<int>* dist = &distTo(way);
                int guard = 0;
                while ((s == way || (*dist)[size_t(s)] < 0) && guard++ < 8) {
                    way = pool[size_t(rng.uniformInt(pool.size()))];
                    dist = &distTo(way);
                }
                if (rng.uniform() >= opt.noise && (*dist)[size_t(s)] > 0) {
                    int cand[4], nc = 0;
                    for (int b = 0; b < 4; ++b) {
                        const int v = maze.step(s, b);
                        if (v != s && (*dist)[size_t(v)] == (*dist)[size_t(s)] - 1)
                            cand[nc++] = b;
                    }
                    if (nc > 0)
                        a = cand[rng.uniformInt(uint64_t(nc))];
                }
            }
            const int executed = rng.uniform() < opt.slip ? int(rng.uniformInt(4)) : a;
            A.push_back(executed);
            s = maze.step(s, executed);
            S.push_back(s);
        }
    }
    return d;
}

StateGraph buildStateGraph(const Maze& maze, const Dataset& data) {
    const int n = maze.size();
    std::map<std::pair<int, int>, double> counts;
    std::vector<uint8_t> visited(size_t(n), 0);
    std::vector<std::vector<int>> adj(static_cast<size_t>(n));
    for (const auto& S : data.states)
        for (size_t t = 0; t < S.size(); ++t) {
            visited[size_t(S[t])] = 1;
            if (t + 1 < S.size() && S[t] != S[t + 1]) {
                const int a = std::min(S[t], S[t + 1]), b = std::max(S[t], S[t + 1]);
                if (counts[{a, b}]++ == 0) {
                    adj[size_t(a)].push_back(b);
                    adj[size_t(b)].push_back(a);
                }
            }
        }
    StateGraph g;
    g.visitedCells = int(std::count(visited.begin(), visited.end(), uint8_t(1)));
    // Largest connected component (ties: the one with the lowest cell index).
    std::vector<int> comp(size_t(n), -1);
    int bestComp = -1, bestSize = 0, nc = 0;
    for (int c = 0; c < n; ++c) {
        if (!visited[size_t(c)] || comp[size_t(c)] >= 0)
            continue;
        int size = 0;
        std::deque<int> q{c};
        comp[size_t(c)] = nc;
        while (!q.empty()) {
            const int u = q.front();
            q.pop_front();
            ++size;
            for (int v : adj[size_t(u)])
                if (comp[size_t(v)] < 0) {
                    comp[size_t(v)] = nc;
                    q.push_back(v);
                }
        }
        if (size > bestSize) {
            bestSize = size;
            bestComp = nc;
        }
        ++nc;
    }
    g.nodeOfCell.assign(size_t(n), -1);
    for (int c = 0; c < n; ++c)
        if (visited[size_t(c)] && comp[size_t(c)] == bestComp) {
            g.nodeOfCell[size_t(c)] = int(g.cells.size());
            g.cells.push_back(c);
        }
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(counts.size() * 2);
    for (const auto& [e, w] : counts) {
        const int u = g.nodeOfCell[size_t(e.first)], v = g.nodeOfCell[size_t(e.second)];
        if (u < 0 || v < 0)
            continue;
        t.emplace_back(u, v, w);
        t.emplace_back(v, u, w);
    }
    g.W.resize(Eigen::Index(g.cells.size()), Eigen::Index(g.cells.size()));
    g.W.setFromTriplets(t.begin(), t.end());
    return g;
}

TransitionModel buildTransitionModel(const Maze& maze, const Dataset& data) {
    TransitionModel m;
    m.cells = maze.size();
    m.next.assign(size_t(m.cells) * 4, -1);
    m.predecessors.resize(size_t(m.cells));
    m.occurrences.resize(size_t(m.cells));
    std::map<std::pair<int, int>, std::map<int, int>> outcome; // (cell, action) -> next -> count
    for (size_t i = 0; i < data.states.size(); ++i) {
        const auto& S = data.states[i];
        const auto& A = data.actions[i];
        for (size_t t = 0; t < S.size(); ++t) {
            m.occurrences[size_t(S[t])].push_back({int(i), int(t)});
            if (t < A.size())
                ++outcome[{S[t], A[t]}][S[t + 1]];
        }
    }
    for (const auto& [sa, nexts] : outcome) {
        int best = -1, bc = 0;
        for (const auto& [v, c] : nexts)
            if (c > bc) {
                bc = c;
                best = v;
            }
        m.next[size_t(sa.first) * 4 + size_t(sa.second)] = best;
        if (best != sa.first) {
            auto& p = m.predecessors[size_t(best)];
            if (std::find(p.begin(), p.end(), sa.first) == p.end())
                p.push_back(sa.first);
        }
    }
    return m;
}

} // namespace pl::keypoints
