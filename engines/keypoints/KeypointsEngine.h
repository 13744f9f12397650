#pragma once
/// Engine of the bottleneck-keypoints panel: Laplacian bottlenecks as keypoints for long-horizon
/// offline goal reaching on grid mazes. Pipeline: maze (built-in layout or ASCII file) -> offline
/// dataset -> state graph and normalised Laplacian -> smallest eigenpairs (Spectra) -> k-means on
/// the NJW embedding -> boundary-crossing candidates -> k-medoid keypoints -> directed keypoint
/// graph from the log -> evaluation of the keypoint planner and three baselines.
/// Stateless; one instance may serve several threads.
///
/// Input: at most one ASCII maze file (.maze or .txt): `#` wall, `.` free, optional `S`, `G`.
///
/// Result keys: graphs.kp_graph (nodes: attrs row, col, cluster_a, cluster_b; directed edges,
/// weight = hop cost in steps, attrs support); labels.cluster (per free cell, row-major; -1 = not
/// in the dataset graph), labels.room (ground-truth rooms of built-in layouts), labels.candidate
/// (1 = boundary-crossing candidate, per free cell); matrices.maze (1 wall, 0 free);
/// vectors.eigvec_<i> (i = 1.., per free cell), rollout_<m> (cells of the rollout of method m),
/// rollout_plan, doors; series.spectrum, success_vs_distance_<m>; metrics.success_rate_<m>
/// (m = kp, flat, time_subgoals, value_subgoals), clusters, eigengap, ...; claims
/// keypoints-at-doors, kp-at-least-best-baseline, kp-advantage-grows-with-distance,
/// bottleneck-shorter-hitting-time.

#include "core/Engine.h"

namespace pl::keypoints {

class KeypointsEngine : public pl::Engine {
public:
    std::string id() const override { return "bottleneck-keypoints"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"maze", "txt"}; }
    int maxInputs() const override { return 1; }
    /// Parses an ASCII maze (InputError with line and column on bad files).
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::keypoints
