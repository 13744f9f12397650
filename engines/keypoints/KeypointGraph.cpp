#include "KeypointGraph.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <queue>

namespace pl::keypoints {

namespace {

int manhattan(const Maze& m, int a, int b) {
    return std::abs(a / m.cols - b / m.cols) + std::abs(a % m.cols - b % m.cols);
}

double median(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Keypoints near each cell (Manhattan <= radius).
std::vector<std::vector<int>> nearIndex(const Maze& m, const std::vector<Keypoint>& kp, int radius) {
    std::vector<std::vector<int>> near(size_t(m.size()));
    for (size_t k = 0; k < kp.size(); ++k) {
        const int r0 = kp[k].cell / m.cols, c0 = kp[k].cell % m.cols;
        for (int dr = -radius; dr <= radius; ++dr)
            for (int dc = -radius + std::abs(dr); dc <= radius - std::abs(dr); ++dc)
                if (m.isFree(r0 + dr, c0 + dc))
                    near[size_t(m.index(r0 + dr, c0 + dc))].push_back(int(k));
    }
    return near;
}

/// Weighted k-medoids (alternating assignment / medoid update, Manhattan distance) on `cells`,
/// initialised with the heaviest cell and then farthest-first. Hand-written: no Debian C++
/// library offers k-medoids; the candidate sets are tiny (tens of cells).
std::vector<int> kMedoids(const Maze& m, const std::vector<int>& cells, const std::vector<int>& w, int k) {
    k = std::min<int>(k, int(cells.size()));
    std::vector<int> med;
    med.push_back(int(std::max_element(w.begin(), w.end()) - w.begin()));
    while (int(med.size()) < k) {
        int best = -1, bd = -1;
        for (size_t i = 0; i < cells.size(); ++i) {
            int d = std::numeric_limits<int>::max();
            for (int j : med)
                d = std::min(d, manhattan(m, cells[i], cells[size_t(j)]));
            if (d > bd) {
                bd = d;
                best = int(i);
            }
        }
        med.push_back(best);
    }
    for (int it = 0; it < 20; ++it) {
        std::vector<int> assign(cells.size());
        for (size_t i = 0; i < cells.size(); ++i) {
            int bj = 0, bd = std::numeric_limits<int>::max();
            for (size_t j = 0; j < med.size(); ++j) {
                const int d = manhattan(m, cells[i], cells[size_t(med[j])]);
                if (d < bd) {
                    bd = d;
                    bj = int(j);
                }
            }
            assign[i] = bj;
        }
        bool changed = false;
        for (size_t j = 0; j < med.size(); ++j) {
            // Cost of cell c as medoid of cluster j: sum of weight * distance; ties -> heavier cell.
            int best = med[j];
            double bc = std::numeric_limits<double>::infinity();
            for (size_t c = 0; c < cells.size(); ++c) {
                if (assign[c] != int(j))
                    continue;
                double cost = 0;
                for (size_t i = 0; i < cells.size(); ++i)
                    if (assign[i] == int(j))
                        cost += w[i] * manhattan(m, cells[c], cells[i]);
                if (cost < bc - 1e-12 || (std::abs(cost - bc) <= 1e-12 && w[c] > w[size_t(best)])) {
                    bc = cost;
                    best = int(c);
                }
            }
            if (best != med[j]) {
                med[j] = best;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    std::vector<int> out;
    for (int j : med)
        out.push_back(cells[size_t(j)]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

KeypointSet findKeypoints(const Maze& maze, const Dataset& data, const std::vector<int>& cluster,
                          const KeypointOptions& opt) {
    KeypointSet out;
    out.cellCluster = cluster;
    std::map<std::pair<int, int>, std::map<int, int>> cand; // pair -> cell -> weight
    std::map<std::pair<int, int>, int> crossings;
    for (const auto& S : data.states)
        for (size_t t = 0; t + 1 < S.size(); ++t) {
            const int a = cluster[size_t(S[t])], b = cluster[size_t(S[t + 1])];
            if (a < 0 || b < 0 || a == b)
                continue;
            const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
            ++crossings[key];
            ++cand[key][S[t]];
            ++cand[key][S[t + 1]];
        }
    std::vector<int> all;
    for (const auto& [key, cells] : cand) {
        Boundary b;
        b.clusterA = key.first;
        b.clusterB = key.second;
        b.crossings = crossings[key];
        for (const auto& [c, w] : cells) {
            b.cells.push_back(c);
            b.weights.push_back(w);
            all.push_back(c);
        }
        out.boundaries.push_back(b);
        if (b.crossings < opt.minCrossings)
            continue;
        for (int c : kMedoids(maze, b.cells, b.weights, std::clamp(opt.medoids, 1, 3)))
            out.keypoints.push_back({c, b.clusterA, b.clusterB});
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    out.candidateCells = all;

    // Directed edges: consecutive keypoint visits along each logged trajectory.
    const auto near = nearIndex(maze, out.keypoints, opt.radius);
    std::map<std::pair<int, int>, std::vector<int>> gaps;
    for (const auto& S : data.states) {
        int lastKp = -1, lastTime = -1;
        std::vector<int> prevNear;
        for (size_t t = 0; t < S.size(); ++t) {
            const auto& nk = near[size_t(S[t])];
            for (int k : nk) {
                const bool entering = std::find(prevNear.begin(), prevNear.end(), k) == prevNear.end();
                if (entering && lastKp >= 0 && lastKp != k && int(t) - lastTime <= opt.horizon)
                    gaps[{lastKp, k}].push_back(int(t) - lastTime);
            }
            if (!nk.empty()) {
                // The most recent keypoint: the one with the lowest index among those near now
                // (deterministic when neighbourhoods overlap).
                lastKp = nk.front();
                for (int k : nk)
                    if (std::find(prevNear.begin(), prevNear.end(), k) == prevNear.end())
                        lastKp = k;
                lastTime = int(t);
            }
            prevNear = nk;
        }
    }
    for (const auto& [e, g] : gaps)
        if (int(g.size()) >= opt.minSupport)
            out.edges.push_back({e.first, e.second, median(g), int(g.size())});
    return out;
}

std::vector<std::pair<int, double>> attachQuery(const Maze& maze, const Dataset& data,
                                                const TransitionModel& tm, const KeypointSet& kps, int cell,
                                                bool forward, const KeypointOptions& opt, int target) {
    const auto near = nearIndex(maze, kps.keypoints, opt.radius);
    std::map<int, std::vector<int>> gaps;
    const int r0 = cell / maze.cols, c0 = cell % maze.cols;
    for (int dr = -opt.radius; dr <= opt.radius; ++dr)
        for (int dc = -opt.radius + std::abs(dr); dc <= opt.radius - std::abs(dr); ++dc) {
            if (!maze.isFree(r0 + dr, c0 + dc))
                continue;
            for (const auto& [ti, t0] : tm.occurrences[size_t(maze.index(r0 + dr, c0 + dc))]) {
                const auto& S = data.states[size_t(ti)];
                std::vector<uint8_t> seen(kps.keypoints.size() + 1, 0);
                for (int h = 1; h <= opt.horizon; ++h) {
                    const int t = forward ? t0 + h : t0 - h;
                    if (t < 0 || t >= int(S.size()))
                        break;
                    for (int k : near[size_t(S[size_t(t)])])
                        if (!seen[size_t(k)]) {
                            seen[size_t(k)] = 1;
                            gaps[k].push_back(h);
                        }
                    if (target >= 0 && !seen.back() && S[size_t(t)] == target) {
                        seen.back() = 1;
                        gaps[-1].push_back(h);
                    }
                }
            }
        }
    std::vector<std::pair<int, double>> out;
    for (const auto& [k, g] : gaps)
        if (int(g.size()) >= opt.minSupport || k == -1)
            out.push_back({k, median(g)});
    return out;
}

std::vector<int> planThroughKeypoints(const Maze& maze, const Dataset& data, const TransitionModel& tm,
                                      const KeypointSet& kps, int start, int goal, const KeypointOptions& opt,
                                      double* cost, const std::vector<int>& avoid) {
    const int K = int(kps.keypoints.size());
    const int S = K, G = K + 1;
    std::vector<std::vector<std::pair<int, double>>> adj(size_t(K) + 2);
    for (const auto& e : kps.edges)
        adj[size_t(e.source)].push_back({e.target, e.cost});
    auto clusterOf = [&kps](int cell) {
        return cell >= 0 && cell < int(kps.cellCluster.size()) ? kps.cellCluster[size_t(cell)] : -1;
    };
    auto borders = [&kps](int k, int c) {
        return c >= 0 && (kps.keypoints[size_t(k)].clusterA == c || kps.keypoints[size_t(k)].clusterB == c);
    };
    const int cs = clusterOf(start), cg = clusterOf(goal);
    for (const auto& [k, c] : attachQuery(maze, data, tm, kps, start, true, opt, goal)) {
        if (k < 0 && cs == cg)
            adj[size_t(S)].push_back({G, c});
        else if (k >= 0 && borders(k, cs))
            adj[size_t(S)].push_back({k, c});
    }
    for (const auto& [k, c] : attachQuery(maze, data, tm, kps, goal, false, opt))
        if (k >= 0 && borders(k, cg))
            adj[size_t(k)].push_back({G, c});
    std::vector<double> dist(size_t(K) + 2, std::numeric_limits<double>::infinity());
    std::vector<int> prev(size_t(K) + 2, -1);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    dist[size_t(S)] = 0;
    pq.push({0, S});
    while (!pq.empty()) {
        const auto [d, u] = pq.top();
        pq.pop();
        if (d > dist[size_t(u)])
            continue;
        for (const auto& [v, w] : adj[size_t(u)])
            if (d + w < dist[size_t(v)] &&
                (v >= K ||
                 std::find(avoid.begin(), avoid.end(), kps.keypoints[size_t(v)].cell) == avoid.end())) {
                dist[size_t(v)] = d + w;
                prev[size_t(v)] = u;
                pq.push({d + w, v});
            }
    }
    if (!std::isfinite(dist[size_t(G)]))
        return {};
    if (cost)
        *cost = dist[size_t(G)];
    std::vector<int> cells;
    for (int v = G; v != S; v = prev[size_t(v)])
        cells.push_back(v == G ? goal : kps.keypoints[size_t(v)].cell);
    std::reverse(cells.begin(), cells.end());
    return cells;
}

} // namespace pl::keypoints
