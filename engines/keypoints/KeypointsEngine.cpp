#include "KeypointsEngine.h"

#include "GoalReaching.h"
#include "KeypointGraph.h"
#include "Maze.h"
#include "OfflineDataset.h"
#include "SpectralClustering.h"

#include "KeypointsKeys.h"
#include "KeypointsRun.h"
#include "core/Errors.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <set>

namespace pl::keypoints {

namespace {
namespace P = keypoints::keys::param;
} // namespace

namespace {

struct MazeInput : LoadedInput {
    Maze maze;
};

} // namespace

std::vector<ParamSpec> KeypointsEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* E = "Environment";
    add(ParamSpec::choice(P::kLayout, "Layout", {"four_rooms", "nine_rooms", "u_maze", "random_rooms"},
                          "four_rooms", "Built-in maze (ignored when a maze file is loaded)."),
        E);
    add(ParamSpec::integer(P::kMazeRows, "Random rooms: rows", 9, 200, 31,
                           "Grid rows of the random-rooms maze.", "cells"),
        E);
    add(ParamSpec::integer(P::kMazeCols, "Random rooms: columns", 9, 200, 31,
                           "Grid columns of the random-rooms maze.", "cells"),
        E);
    add(ParamSpec::integer(P::kRooms, "Random rooms per side", 2, 20, 3,
                           "Rooms along each side of the random-rooms maze."),
        E);
    add(ParamSpec::real(
            P::kSlip, "Slip probability", 0, 0.5, 0.1,
            "Probability that an executed action is replaced by a random one (data and evaluation)."),
        E);
    const char* D = "Offline dataset";
    add(ParamSpec::integer(P::kTrajectories, "Trajectories", 10, 2000, 200, "Logged episodes."), D);
    add(ParamSpec::integer(P::kTrajLength, "Trajectory length", 20, 2000, 200, "Steps per logged episode.",
                           "steps"),
        D);
    add(ParamSpec::choice(
            P::kBehaviour, "Behaviour", {"noisy_goal", "random_walk", "mixed"}, "noisy_goal",
            "noisy_goal: shortest-path waypoint follower with random actions; random_walk: uniform "
            "actions (poor coverage); mixed: half of each."),
        D);
    add(ParamSpec::real(P::kBehaviourNoise, "Behaviour noise", 0, 1, 0.2,
                        "Probability of a random action of the goal-directed behaviour."),
        D);
    add(ParamSpec::real(P::kCoverage, "Coverage", 0.05, 1, 1,
                        "Fraction of the free cells used as logged starts and waypoints."),
        D);
    const char* C = "Spectral clustering";
    add(ParamSpec::integer(P::kClusters, "Clusters k", 0, 40, 0, "0 = eigengap heuristic; else a fixed k."),
        C);
    add(ParamSpec::integer(P::kEigenpairs, "Eigenpairs", 4, 41, 12,
                           "Smallest eigenpairs computed (spectrum and eigengap search)."),
        C);
    const char* K = "Keypoints";
    add(ParamSpec::integer(P::kMinCrossings, "Min crossings n_min", 1, 50, 5,
                           "Logged crossings a cluster boundary needs to get keypoints."),
        K);
    add(ParamSpec::integer(P::kMedoids, "Keypoints per boundary", 1, 3, 1,
                           "k of the k-medoids per boundary."),
        K);
    add(ParamSpec::integer(P::kKpRadius, "Keypoint radius r_KP", 0, 3, 1,
                           "A trajectory passes a keypoint when within this Manhattan distance.", "cells"),
        K);
    add(ParamSpec::integer(P::kHopHorizon, "Hop horizon H_max", 10, 500, 60,
                           "Largest step gap of a keypoint-graph edge.", "steps"),
        K);
    const char* G = "Goal reaching";
    add(ParamSpec::integer(P::kControllerHorizon, "Controller horizon R_loc", 2, 20, 6,
                           "The learned controller knows distances up to this many steps.", "steps"),
        G);
    add(ParamSpec::integer(P::kSubgoalSteps, "Subgoal steps H", 2, 50, 6,
                           "Time-based subgoal offset and re-selection period of the subgoal baselines.",
                           "steps"),
        G);
    add(ParamSpec::integer(P::kMaxSteps, "Episode budget", 20, 5000, 250, "Steps per evaluation episode.",
                           "steps"),
        G);
    add(ParamSpec::integer(P::kEpisodes, "Evaluation episodes", 10, 1000, 100,
                           "Start-goal pairs, stratified over the distance bins."),
        G);
    add(ParamSpec::integer(P::kDistanceBins, "Distance bins", 3, 10, 5,
                           "Bins of the success-vs-distance curves."),
        G);
    add(ParamSpec::integer(
            P::kRolloutStep, "Rollout step shown", 0, 5000, 0,
            "Step of the rollout figure (0 = the whole rollout): the path so far, the agent and "
            "its current subgoal."),
        G);
    add(ParamSpec::integer(P::kHittingQueries, "Hitting-time queries", 0, 100, 20,
                           "Cross-cluster queries of the hitting-time comparison (0 disables it)."),
        G);
    return s;
}

std::shared_ptr<const LoadedInput> KeypointsEngine::load(const std::string& path) const {
    auto in = std::make_shared<MazeInput>();
    in->maze = readMazeFile(path);
    in->path = path;
    in->kind = "maze";
    in->summary = std::to_string(in->maze.rows) + " x " + std::to_string(in->maze.cols) + " maze, " +
                  std::to_string(in->maze.freeCount()) + " free cells";
    return in;
}

namespace {

/// Stage 1: the maze, from the input file or the chosen layout (random rooms: seed stream "maze").
Maze loadOrMakeMaze(const InputList& inputs, const ParamSet& p, uint64_t seed, ResultDocument& doc) {
    if (!inputs.empty()) {
        const auto* mi = dynamic_cast<const MazeInput*>(inputs[0].get());
        if (!mi)
            throw InputError(inputs[0]->path, "not a maze loaded by bottleneck-keypoints");
        doc.notes.push_back("Maze file " + inputs[0]->path + ": " + inputs[0]->summary +
                            " (layout ignored).");
        return mi->maze;
    }
    const std::string& layout = p.getString(P::kLayout);
    if (layout == "four_rooms")
        return fourRooms();
    if (layout == "nine_rooms")
        return nineRooms();
    if (layout == "u_maze")
        return uMaze();
    Rng mr = Rng(seed).fork("maze");
    const int rooms = int(p.getInt(P::kRooms));
    const int rows = int(p.getInt(P::kMazeRows)), cols = int(p.getInt(P::kMazeCols));
    if (rows < 3 * rooms + 1 || cols < 3 * rooms + 1)
        throw UsageError("random rooms: maze_rows and maze_cols must be at least 3 * rooms + 1 = " +
                         std::to_string(3 * rooms + 1));
    return randomRooms(mr, rows, cols, rooms, rooms);
}

} // namespace

ResultDocument KeypointsEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    if (inputs.size() > 1)
        throw UsageError("bottleneck-keypoints takes at most one maze file");
    ResultDocument doc;
    KeypointsRun run(loadOrMakeMaze(inputs, p, ctx.seed(), doc), p, ctx, doc);
    ctx.progress(0.02, "collecting the offline dataset");
    run.collectData();
    run.clusterSpectrally();
    run.placeKeypoints();
    run.packStructure();
    run.checkDoorClaim();
    run.evaluateGoalReaching();
    run.checkSuccessClaims();
    run.checkHittingTimeClaim();
    run.packRollout();
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::keypoints
