#pragma once
/// One run of the bottleneck-keypoints engine as named stages: offline dataset, spectral
/// clustering, keypoints, the result's structure, goal-reaching evaluation, claims and a rollout.
/// Used by KeypointsEngine::run() only; call the stages in the order declared. Single thread.

#include "GoalReaching.h"
#include "KeypointGraph.h"
#include "Maze.h"
#include "OfflineDataset.h"
#include "SpectralClustering.h"

#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/Rng.h"
#include "core/RunContext.h"

#include <functional>
#include <memory>
#include <vector>

namespace pl::keypoints {

class KeypointsRun {
public:
    /// \a doc receives the results; \a p, \a ctx and \a doc must outlive the run.
    KeypointsRun(Maze maze, const ParamSet& p, RunContext& ctx, ResultDocument& doc);
    ~KeypointsRun();

    /// Stage 2: the offline dataset (seed stream "dataset"), its state graph and transition model.
    void collectData();
    /// Stage 3: normalised-Laplacian eigenpairs, the number of clusters and k-means (stream "kmeans").
    void clusterSpectrally();
    /// Stage 4: bottleneck keypoints between the clusters.
    void placeKeypoints();
    /// Stage 5: maze, clusters, spectrum, eigenvectors, keypoint graph and structural metrics.
    void packStructure();
    /// Stage 6: claim keypoints-at-doors (layouts with doors).
    void checkDoorClaim();
    /// Stage 7: stratified start-goal pairs (stream "pairs") and every method's episodes on them
    /// (stream "evaluation"); success against distance.
    void evaluateGoalReaching();
    /// Stage 8: claims kp-at-least-best-baseline and kp-advantage-grows-with-distance.
    void checkSuccessClaims();
    /// Stage 9: claim bottleneck-shorter-hitting-time.
    void checkHittingTimeClaim();
    /// Stage 10: one start-goal rollout of every method (stream "rollout").
    void packRollout();

private:
    /// A start-goal query of the evaluation.
    struct Query {
        int start, goal, dist, bin;
    };
    void sampleQueries();
    void packMazeAndClusters();
    void packSpectrum();
    void packKeypointGraph();
    void packStructureMetrics();

    const ParamSet& m_p;
    RunContext& m_ctx;
    ResultDocument& m_doc;
    Rng m_root;
    std::function<void()> m_poll;

    Maze m_maze;
    DatasetOptions m_dopt;
    Dataset m_data;
    StateGraph m_graph;
    TransitionModel m_tm;
    int m_n = 0; ///< state-graph nodes
    EigenPairs m_eig;
    int m_k = 0; ///< clusters used
    KMeansResult m_km;
    std::vector<int> m_cluster; ///< per maze cell, -1 outside the graph
    KeypointOptions m_kopt;
    KeypointSet m_kps;
    std::vector<int> m_freeCells;

    ReachOptions m_ropt;
    std::unique_ptr<GoalReacher> m_reacher;
    int m_bins = 0;
    double m_binW = 1;
    std::vector<Query> m_queries;
    std::vector<std::vector<double>> m_succ; ///< per method and distance bin
    std::vector<double> m_cnt;               ///< queries per bin
    double m_total[kMethodCount] = {0, 0, 0, 0};
    double m_steps[kMethodCount] = {0, 0, 0, 0};
    std::vector<double> m_binCentre;
    std::vector<std::vector<double>> m_rate; ///< per method, over the non-empty bins
};

} // namespace pl::keypoints
