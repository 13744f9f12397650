#pragma once
/// Bottleneck keypoints from a clustered offline dataset: boundary-crossing candidates, k-medoid
/// representatives per crossed cluster pair, and the directed keypoint reachability graph whose
/// edges and hop costs come from the logged trajectories only.

#include "Maze.h"
#include "OfflineDataset.h"

#include <vector>

namespace pl::keypoints {

struct Boundary {
    int clusterA = 0, clusterB = 0; ///< clusterA < clusterB
    int crossings = 0;              ///< logged transitions between the two clusters
    std::vector<int> cells;         ///< candidate cells (both ends of the crossings)
    std::vector<int> weights;       ///< how often each candidate cell took part in a crossing
};

struct Keypoint {
    int cell = 0;
    int clusterA = 0, clusterB = 0;
};

struct KpEdge {
    int source = 0, target = 0; ///< keypoint indices
    double cost = 0;            ///< median logged step gap
    int support = 0;            ///< number of logged passages
};

struct KeypointSet {
    std::vector<Boundary> boundaries; ///< every crossed pair (also those below minCrossings)
    std::vector<int> candidateCells;  ///< all cells on a crossing, sorted
    std::vector<Keypoint> keypoints;
    std::vector<KpEdge> edges;
    std::vector<int> cellCluster; ///< the clustering the keypoints were found on (per cell, -1 = none)
};

struct KeypointOptions {
    int minCrossings = 5; ///< n_min: crossings a boundary needs to get keypoints
    int medoids = 1;      ///< keypoints per boundary (k-medoids, 1..3)
    int radius = 1;       ///< r_KP: "passes near a keypoint" = Manhattan distance <= radius
    int horizon = 60;     ///< H_max: largest step gap of a keypoint edge
    int minSupport = 2;   ///< passages an edge needs
};

/// cluster: per cell (-1 = not in the graph). Deterministic.
KeypointSet findKeypoints(const Maze& maze, const Dataset& data, const std::vector<int>& cluster,
                          const KeypointOptions& opt);

/// Virtual edges of a query state to/from keypoints, estimated from the log by the same rule as
/// the keypoint edges: trajectories passing within `radius` of `cell` and then (forward) or
/// before (backward) within `radius` of a keypoint, at most `horizon` steps apart. Returns
/// (keypoint, median gap) pairs; with `target >= 0` the entry with keypoint index -1 is the
/// direct passage cell -> target (forward only).
std::vector<std::pair<int, double>> attachQuery(const Maze& maze, const Dataset& data,
                                                const TransitionModel& tm, const KeypointSet& kps, int cell,
                                                bool forward, const KeypointOptions& opt, int target = -1);

/// Shortest path start -> keypoints -> goal on the keypoint graph with virtual start and goal
/// nodes (Dijkstra). The start attaches only to keypoints on a boundary of its own cluster, the
/// goal only from keypoints on a boundary of its cluster, and start -> goal directly only when
/// both are in the same cluster. Returns the sequence of cells to visit (keypoint cells then the goal), or
/// an empty vector when the graph has no path.
/// Keypoints whose cell is in `avoid` are left out (the planner's memory of hops it stalled on).
std::vector<int> planThroughKeypoints(const Maze& maze, const Dataset& data, const TransitionModel& tm,
                                      const KeypointSet& kps, int start, int goal, const KeypointOptions& opt,
                                      double* cost = nullptr, const std::vector<int>& avoid = {});

} // namespace pl::keypoints
