#pragma once
/// Goal reaching from offline data on a grid maze: the low-level goal-conditioned controller
/// learned from the logged transitions (hindsight-relabelled, horizon-truncated distances, i.e.
/// converged tabular goal-conditioned Q on the log), the keypoint planner that executes the hops
/// of a keypoint path, and three baselines (flat controller, time-based subgoals, value-based
/// subgoals). Not thread-safe per object (scratch buffers); create one per thread.

#include "KeypointGraph.h"
#include "Maze.h"
#include "OfflineDataset.h"

#include "core/Rng.h"

#include <string>
#include <vector>

namespace pl::keypoints {

enum class Method { Keypoints, Flat, TimeSubgoals, ValueSubgoals };
constexpr int kMethodCount = 4;
/// "kp", "flat", "time_subgoals", "value_subgoals" (the suffixes of the result keys).
const char* methodKey(Method m);
const char* methodLabel(Method m);

struct ReachOptions {
    int controllerHorizon = 6; ///< R_loc: the learned controller knows distances up to this many steps
    int maxSteps = 250;        ///< episode budget
    int subgoalSteps = 6;      ///< H of the time-based subgoal (and the re-selection period of subgoals)
    double slip = 0.1;         ///< probability an executed action is replaced by a random one
};

struct Episode {
    bool success = false;
    int steps = 0;
    std::vector<int> path;     ///< visited cells, start first
    std::vector<int> subgoals; ///< subgoal cells in the order they were first chosen
    std::vector<int> targetAt; ///< the subgoal the controller was heading for at each step (path.size()-1)
};

class GoalReacher {
public:
    /// References must outlive the object.
    GoalReacher(const Maze& maze, const Dataset& data, const TransitionModel& tm, const KeypointSet& kps,
                const KeypointOptions& kpOpt, const ReachOptions& opt);

    /// One episode of `method` from start to goal; randomness (slip, ties) from rng.
    Episode run(Method method, int start, int goal, Rng& rng);

    /// Learned local distance cell -> target (-1 when beyond the horizon or not in the log).
    int localDistance(int cell, int target);
    /// The learned controller's action at `cell` for `target`.
    int act(int cell, int target, Rng& rng);
    /// The time-based subgoal from `cell` towards `goal` (HIQL-like: what a high-level policy
    /// trained on hindsight-relabelled data proposes, i.e. the state H steps ahead on a logged
    /// trajectory through `cell` that later reaches `goal`, drawn uniformly among those; without
    /// one, the state H steps ahead that ends nearest to the goal). -1 when `cell` is not in the log.
    int timeSubgoal(int cell, int goal, Rng& rng);
    /// The value-based subgoal: argmin over cells c the controller can reach from `cell`
    /// of d_loc(cell, c) + V(c, goal), V = hindsight Monte-Carlo steps-to-goal from the log.
    int valueSubgoal(int cell, int goal);
    /// Precomputes the per-goal hindsight tables (next visit time of the goal, V).
    void prepareGoal(int goal);

private:
    void distancesTo(int target);
    int stepEnv(int cell, int action, Rng& rng) const;

    const Maze& m_maze;
    const Dataset& m_data;
    const TransitionModel& m_tm;
    const KeypointSet& m_kps;
    KeypointOptions m_kpOpt;
    ReachOptions m_opt;
    int m_target = -1;
    std::vector<int> m_dist; ///< backward learned distances to m_target (-1 unknown)
    std::vector<int> m_touched;
    int m_goal = -1;
    std::vector<std::vector<int>> m_nextGoal; ///< [traj][t] first time >= t at the goal, or -1
    std::vector<int> m_value;                 ///< per cell: hindsight steps to the goal, or -1
};

/// Expected hitting times of the random walk P = D^{-1} W on the state graph: h(v -> target)
/// for every node v (Eigen SparseLU on (I - P) with the target row pinned).
std::vector<double> hittingTimes(const SpMat& W, int targetNode);

} // namespace pl::keypoints
