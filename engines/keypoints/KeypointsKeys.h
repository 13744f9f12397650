#pragma once
/// Every parameter key and result key of the bottleneck-keypoints panel (KeypointsEngine), declared once. The
/// engine writes results under these names and the panel's figures read them back through the same constants,
/// so a renamed key is a compile error rather than an empty figure. Plain `const char[]` so that they convert
/// to std::string (ResultDocument maps, ParamSet lookups) wherever one is expected. Names are stable: add
/// keys, do not rename them.

namespace pl::keypoints::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kBehaviour[] = "behaviour";
inline constexpr char kBehaviourNoise[] = "behaviour_noise";
inline constexpr char kClusters[] = "clusters";
inline constexpr char kControllerHorizon[] = "controller_horizon";
inline constexpr char kCoverage[] = "coverage";
inline constexpr char kDistanceBins[] = "distance_bins";
inline constexpr char kEigenpairs[] = "eigenpairs";
inline constexpr char kEpisodes[] = "episodes";
inline constexpr char kHittingQueries[] = "hitting_queries";
inline constexpr char kHopHorizon[] = "hop_horizon";
inline constexpr char kKpRadius[] = "kp_radius";
inline constexpr char kLayout[] = "layout";
inline constexpr char kMaxSteps[] = "max_steps";
inline constexpr char kMazeCols[] = "maze_cols";
inline constexpr char kMazeRows[] = "maze_rows";
inline constexpr char kMedoids[] = "medoids";
inline constexpr char kMinCrossings[] = "min_crossings";
inline constexpr char kRolloutStep[] = "rollout_step";
inline constexpr char kRooms[] = "rooms";
inline constexpr char kSlip[] = "slip";
inline constexpr char kSubgoalSteps[] = "subgoal_steps";
inline constexpr char kTrajLength[] = "traj_length";
inline constexpr char kTrajectories[] = "trajectories";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kBoundaries[] = "boundaries";
inline constexpr char kCandidates[] = "candidates";
inline constexpr char kClusters[] = "clusters";
inline constexpr char kClustersEigengap[] = "clusters_eigengap";
inline constexpr char kCols[] = "cols";
inline constexpr char kCoverageFraction[] = "coverage_fraction";
inline constexpr char kDatasetTransitions[] = "dataset_transitions";
inline constexpr char kDoorCoverage[] = "door_coverage";
inline constexpr char kEigengap[] = "eigengap";
inline constexpr char kEvaluationEpisodes[] = "evaluation_episodes";
inline constexpr char kFreeCells[] = "free_cells";
inline constexpr char kGraphEdges[] = "graph_edges";
inline constexpr char kGraphNodes[] = "graph_nodes";
inline constexpr char kHittingTimeKp[] = "hitting_time_kp";
inline constexpr char kHittingTimeTimeSubgoal[] = "hitting_time_time_subgoal";
inline constexpr char kKeypoints[] = "keypoints";
inline constexpr char kKmeansInertia[] = "kmeans_inertia";
inline constexpr char kKpAdvantageSlope[] = "kp_advantage_slope";
inline constexpr char kKpEdges[] = "kp_edges";
inline constexpr char kLanczosIterations[] = "lanczos_iterations";
inline constexpr char kRolloutDistance[] = "rollout_distance";
inline constexpr char kRolloutGoal[] = "rollout_goal";
inline constexpr char kRolloutStart[] = "rollout_start";
inline constexpr char kRolloutStep[] = "rollout_step";
inline constexpr char kRolloutSuccessFlat[] = "rollout_success_flat";
inline constexpr char kRolloutSuccessKp[] = "rollout_success_kp";
inline constexpr char kRolloutSuccessTimeSubgoals[] = "rollout_success_time_subgoals";
inline constexpr char kRolloutSuccessValueSubgoals[] = "rollout_success_value_subgoals";
inline constexpr char kRoomAri[] = "room_ari";
inline constexpr char kRows[] = "rows";
/// Prefix of a family of keys: "mean_steps_" followed by a name or index.
inline constexpr char kMeanStepsPrefix[] = "mean_steps_";
/// Prefix of a family of keys: "rollout_success_" followed by a name or index.
inline constexpr char kRolloutSuccessPrefix[] = "rollout_success_";
/// Prefix of a family of keys: "success_rate_" followed by a name or index.
inline constexpr char kSuccessRatePrefix[] = "success_rate_";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kSpectrum[] = "spectrum";
/// Prefix of a family of keys: "success_vs_distance_" followed by a name or index.
inline constexpr char kSuccessVsDistancePrefix[] = "success_vs_distance_";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kMaze[] = "maze";
} // namespace matrix

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kDoors[] = "doors";
inline constexpr char kRolloutFlat[] = "rollout_flat";
inline constexpr char kRolloutKp[] = "rollout_kp";
inline constexpr char kRolloutPlan[] = "rollout_plan";
inline constexpr char kRolloutSubgoalsKp[] = "rollout_subgoals_kp";
inline constexpr char kRolloutTargetKp[] = "rollout_target_kp";
inline constexpr char kRolloutTimeSubgoals[] = "rollout_time_subgoals";
inline constexpr char kRolloutValueSubgoals[] = "rollout_value_subgoals";
/// Prefix of a family of keys: "eigvec_" followed by a name or index.
inline constexpr char kEigvecPrefix[] = "eigvec_";
/// Prefix of a family of keys: "rollout_" followed by a name or index.
inline constexpr char kRolloutPrefix[] = "rollout_";
} // namespace vector

/// ResultDocument::labels keys.
namespace label {
inline constexpr char kCandidate[] = "candidate";
inline constexpr char kCluster[] = "cluster";
inline constexpr char kRoom[] = "room";
} // namespace label

/// ResultDocument::graphs keys.
namespace graph {
inline constexpr char kKpGraph[] = "kp_graph";
} // namespace graph

/// Attribute keys of graph nodes and edges (GraphNode::attrs, GraphEdge::attrs).
namespace attr {
inline constexpr char kClusterA[] = "cluster_a";
inline constexpr char kClusterB[] = "cluster_b";
inline constexpr char kCol[] = "col";
inline constexpr char kRow[] = "row";
inline constexpr char kSupport[] = "support";
} // namespace attr

/// Claim::id values.
namespace claim {
inline constexpr char kBottleneckShorterHittingTime[] = "bottleneck-shorter-hitting-time";
inline constexpr char kKeypointsAtDoors[] = "keypoints-at-doors";
inline constexpr char kKpAdvantageGrowsWithDistance[] = "kp-advantage-grows-with-distance";
inline constexpr char kKpAtLeastBestBaseline[] = "kp-at-least-best-baseline";
} // namespace claim

} // namespace pl::keypoints::keys
