#pragma once
/// Offline datasets on a grid maze and the graphs learned from them. The behaviour policy that
/// collects the data may use the true map (it is the "expert" that produced the log); everything
/// downstream (state graph, controllers, keypoints) sees only the logged transitions.

#include "Maze.h"
#include "SpectralClustering.h"

#include "core/Rng.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::keypoints {

enum class Behaviour { NoisyGoal, RandomWalk, Mixed };

struct DatasetOptions {
    int trajectories = 200; ///< number of logged episodes
    int length = 200;       ///< steps per episode
    Behaviour behaviour = Behaviour::NoisyGoal;
    double noise = 0.2;    ///< probability of a random action of the goal-directed behaviour
    double coverage = 1.0; ///< fraction of free cells used as start/waypoint cells (0, 1]
    double slip = 0.1;     ///< environment: probability that an action is replaced by a random one
};

/// Logged trajectories: cell indices, length+1 states each (actions are implicit: the cells
/// visited). `actions[i][t]` is the action taken at state t.
struct Dataset {
    std::vector<std::vector<int>> states;
    std::vector<std::vector<int>> actions;
    size_t transitions() const;
};

/// Collects a dataset on `maze`. Deterministic in the rng. `poll` is called now and then.
Dataset collectDataset(const Maze& maze, const DatasetOptions& opt, Rng& rng,
                       const std::function<void()>& poll = {});

/// The undirected state graph of the dataset restricted to its largest connected component:
/// node i is cell `cells[i]`; W_uv counts transitions between u and v in either direction.
struct StateGraph {
    std::vector<int> cells;      ///< node -> cell index
    std::vector<int> nodeOfCell; ///< cell -> node or -1 (not visited or not in the component)
    SpMat W;
    int visitedCells = 0; ///< distinct cells visited by the dataset (all components)
};
StateGraph buildStateGraph(const Maze& maze, const Dataset& data);

/// The learned transition model: for each cell and action, the most frequent logged next cell
/// (-1 when (cell, action) never occurs). This is what a tabular goal-conditioned Q-learner with
/// hindsight relabelling converges to on deterministic logs.
struct TransitionModel {
    int cells = 0;
    std::vector<int> next;                      ///< cells*4
    std::vector<std::vector<int>> predecessors; ///< cell -> cells with a logged transition into it
    std::vector<std::vector<std::pair<int, int>>> occurrences; ///< cell -> (trajectory, time)
};
TransitionModel buildTransitionModel(const Maze& maze, const Dataset& data);

} // namespace pl::keypoints
