#include "GoalReaching.h"

#include "core/Errors.h"

#include <Eigen/SparseLU>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <limits>

namespace pl::keypoints {

const char* methodKey(Method m) {
    switch (m) {
    case Method::Keypoints:
        return "kp";
    case Method::Flat:
        return "flat";
    case Method::TimeSubgoals:
        return "time_subgoals";
    case Method::ValueSubgoals:
        return "value_subgoals";
    }
    return "";
}

const char* methodLabel(Method m) {
    switch (m) {
    case Method::Keypoints:
        return "keypoint planner";
    case Method::Flat:
        return "flat controller";
    case Method::TimeSubgoals:
        return "time-based subgoals";
    case Method::ValueSubgoals:
        return "value-based subgoals";
    }
    return "";
}

GoalReacher::GoalReacher(const Maze& maze, const Dataset& data, const TransitionModel& tm,
                         const KeypointSet& kps, const KeypointOptions& kpOpt, const ReachOptions& opt)
    : m_maze(maze), m_data(data), m_tm(tm), m_kps(kps), m_kpOpt(kpOpt), m_opt(opt),
      m_dist(size_t(maze.size()), -1) {}

void GoalReacher::distancesTo(int target) {
    if (target == m_target)
        return;
    for (int c : m_touched)
        m_dist[size_t(c)] = -1;
    m_touched.clear();
    m_target = target;
    // Backward breadth-first search over logged transitions, truncated at the horizon: the
    // distance a goal-conditioned learner can relabel from the data within R_loc steps.
    std::deque<int> q{target};
    m_dist[size_t(target)] = 0;
    m_touched.push_back(target);
    while (!q.empty()) {
        const int u = q.front();
        q.pop_front();
        if (m_dist[size_t(u)] >= m_opt.controllerHorizon)
            continue;
        for (int p : m_tm.predecessors[size_t(u)])
            if (m_dist[size_t(p)] < 0) {
                m_dist[size_t(p)] = m_dist[size_t(u)] + 1;
                m_touched.push_back(p);
                q.push_back(p);
            }
    }
}

int GoalReacher::localDistance(int cell, int target) {
    distancesTo(target);
    return m_dist[size_t(cell)];
}

int GoalReacher::act(int cell, int target, Rng& rng) {
    distancesTo(target);
    const int d = m_dist[size_t(cell)];
    if (d > 0) {
        int cand[4], nc = 0, best = std::numeric_limits<int>::max();
        for (int a = 0; a < 4; ++a) {
            const int v = m_tm.next[size_t(cell) * 4 + size_t(a)];
            if (v < 0 || m_dist[size_t(v)] < 0)
                continue;
            if (m_dist[size_t(v)] < best) {
                best = m_dist[size_t(v)];
                nc = 0;
            }
            if (m_dist[size_t(v)] == best)
                cand[nc++] = a;
        }
        if (nc > 0)
            return cand[rng.uniformInt(uint64_t(nc))];
    }
    // Beyond the learned horizon: what a goal-conditioned policy generalises to, heading
    // straight for the goal's coordinates and sliding along walls it bumps into.
    const int dr = target / m_maze.cols - cell / m_maze.cols, dc = target % m_maze.cols - cell % m_maze.cols;
    const int vert = dr < 0 ? 0 : 1, horz = dc < 0 ? 2 : 3;
    int order[2];
    if (std::abs(dr) > std::abs(dc) || (std::abs(dr) == std::abs(dc) && rng.uniform() < 0.5)) {
        order[0] = vert;
        order[1] = horz;
    } else {
        order[0] = horz;
        order[1] = vert;
    }
    for (int a : order) {
        if ((a < 2 && dr == 0) || (a >= 2 && dc == 0))
            continue;
        if (m_maze.step(cell, a) != cell)
            return a;
    }
    return int(rng.uniformInt(4));
}

int GoalReacher::stepEnv(int cell, int action, Rng& rng) const {
    const int executed = rng.uniform() < m_opt.slip ? int(rng.uniformInt(4)) : action;
    return m_maze.step(cell, executed);
}

void GoalReacher::prepareGoal(int goal) {
    if (goal == m_goal)
        return;
    m_goal = goal;
    m_nextGoal.resize(m_data.states.size());
    m_value.assign(size_t(m_maze.size()), -1);
    for (size_t i = 0; i < m_data.states.size(); ++i) {
        const auto& S = m_data.states[i];
        auto& ng = m_nextGoal[i];
        ng.assign(S.size(), -1);
        int next = -1;
        for (size_t t = S.size(); t-- > 0;) {
            if (S[t] == goal)
                next = int(t);
            ng[t] = next;
            if (next >= 0) {
                int& v = m_value[size_t(S[t])];
                const int gap = next - int(t);
                if (v < 0 || gap < v)
                    v = gap;
            }
        }
    }
}

int GoalReacher::timeSubgoal(int cell, int goal, Rng& rng) {
    prepareGoal(goal);
    const auto& occ = m_tm.occurrences[size_t(cell)];
    if (occ.empty())
        return -1;
    const int H = m_opt.subgoalSteps;
    int best = -1, bestKey = std::numeric_limits<int>::max();
    std::vector<int> reaching;
    for (const auto& [ti, t] : occ) {
        const int ng = m_nextGoal[size_t(ti)][size_t(t)];
        if (ng >= 0)
            reaching.push_back(m_data.states[size_t(ti)][size_t(std::min(t + H, ng))]);
    }
    if (!reaching.empty())
        best = reaching[size_t(rng.uniformInt(reaching.size()))];
    if (best >= 0)
        return best;
    for (const auto& [ti, t] : occ) {
        const auto& S = m_data.states[size_t(ti)];
        const int c = S[size_t(std::min<size_t>(size_t(t + H), S.size() - 1))];
        const int key =
            std::abs(c / m_maze.cols - goal / m_maze.cols) + std::abs(c % m_maze.cols - goal % m_maze.cols);
        if (key < bestKey) {
            bestKey = key;
            best = c;
        }
    }
    return best;
}

int GoalReacher::valueSubgoal(int cell, int goal) {
    prepareGoal(goal);
    // Forward truncated search over logged transitions: the cells the controller can reach.
    std::vector<std::pair<int, int>> reach{{cell, 0}};
    std::vector<int> seen{cell};
    for (size_t i = 0; i < reach.size(); ++i) {
        const auto [u, d] = reach[i];
        if (d >= m_opt.controllerHorizon)
            continue;
        for (int a = 0; a < 4; ++a) {
            const int v = m_tm.next[size_t(u) * 4 + size_t(a)];
            if (v >= 0 && std::find(seen.begin(), seen.end(), v) == seen.end()) {
                seen.push_back(v);
                reach.push_back({v, d + 1});
            }
        }
    }
    int best = -1, bestKey = std::numeric_limits<int>::max();
    for (const auto& [c, d] : reach) {
        const int v = m_value[size_t(c)];
        if (v >= 0 && d + v < bestKey) {
            bestKey = d + v;
            best = c;
        }
    }
    return best;
}

Episode GoalReacher::run(Method method, int start, int goal, Rng& rng) {
    Episode ep;
    int s = start;
    ep.path.push_back(s);
    if (s == goal) {
        ep.success = true;
        return ep;
    }
    std::vector<int> plan;  // remaining subgoal cells (keypoint planner)
    std::vector<int> avoid; // keypoints the controller stalled on in this episode
    size_t planPos = 0;
    int sub = goal;
    int stepsOnSub = 0, bestProgress = std::numeric_limits<int>::max(), sinceProgress = 0;
    const int stallLimit = 2 * m_opt.controllerHorizon + 4;
    auto progressOf = [&](int cell, int target) {
        const int d = localDistance(cell, target);
        if (d >= 0)
            return d;
        return 1000 + std::abs(cell / m_maze.cols - target / m_maze.cols) +
               std::abs(cell % m_maze.cols - target % m_maze.cols);
    };
    auto chooseSub = [&](bool replan) {
        switch (method) {
        case Method::Flat:
            sub = goal;
            break;
        case Method::Keypoints:
            if (replan || planPos >= plan.size()) {
                plan = planThroughKeypoints(m_maze, m_data, m_tm, m_kps, s, goal, m_kpOpt, nullptr, avoid);
                planPos = 0;
            }
            while (planPos + 1 < plan.size() && plan[planPos] == s)
                ++planPos;
            sub = plan.empty() ? goal : plan[planPos];
            break;
        case Method::TimeSubgoals: {
            const int c = timeSubgoal(s, goal, rng);
            sub = c >= 0 ? c : goal;
            break;
        }
        case Method::ValueSubgoals: {
            const int c = valueSubgoal(s, goal);
            sub = c >= 0 ? c : goal;
            break;
        }
        }
        if (sub == s && sub != goal) // already there: head for the goal until the next choice
            sub = goal;
        if (ep.subgoals.empty() || ep.subgoals.back() != sub)
            ep.subgoals.push_back(sub);
        stepsOnSub = 0;
        bestProgress = progressOf(s, sub);
        sinceProgress = 0;
    };
    chooseSub(true);
    for (int t = 0; t < m_opt.maxSteps; ++t) {
        ep.targetAt.push_back(sub);
        s = stepEnv(s, act(s, sub, rng), rng);
        ep.path.push_back(s);
        ++ep.steps;
        if (s == goal) {
            ep.success = true;
            return ep;
        }
        ++stepsOnSub;
        const int p = progressOf(s, sub);
        if (p < bestProgress) {
            bestProgress = p;
            sinceProgress = 0;
        } else {
            ++sinceProgress;
        }
        if (method == Method::Keypoints) {
            if (s == sub) {
                ++planPos;
                chooseSub(false);
            } else if (sinceProgress > stallLimit) {
                if (sub != goal) // re-plan around the keypoint the controller could not reach
                    avoid.push_back(sub);
                chooseSub(true);
            }
        } else if (method != Method::Flat) {
            if (s == sub || stepsOnSub >= m_opt.subgoalSteps)
                chooseSub(true);
        }
    }
    return ep;
}

std::vector<double> hittingTimes(const SpMat& W, int targetNode) {
    const Eigen::Index n = W.rows();
    Eigen::VectorXd deg = Eigen::VectorXd::Zero(n);
    for (int k = 0; k < W.outerSize(); ++k)
        for (SpMat::InnerIterator it(W, k); it; ++it)
            deg(it.row()) += it.value();
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(size_t(W.nonZeros() + n));
    for (Eigen::Index i = 0; i < n; ++i)
        t.emplace_back(i, i, 1.0);
    for (int k = 0; k < W.outerSize(); ++k)
        for (SpMat::InnerIterator it(W, k); it; ++it)
            if (it.row() != targetNode && deg(it.row()) > 0)
                t.emplace_back(it.row(), it.col(), -it.value() / deg(it.row()));
    SpMat A(n, n);
    A.setFromTriplets(t.begin(), t.end());
    Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
    b(targetNode) = 0;
    Eigen::SparseLU<SpMat> lu;
    lu.compute(A);
    if (lu.info() != Eigen::Success)
        throw EngineError("hitting times: SparseLU failed (is the state graph connected?)");
    const Eigen::VectorXd h = lu.solve(b);
    return std::vector<double>(h.data(), h.data() + n);
}

} // namespace pl::keypoints
