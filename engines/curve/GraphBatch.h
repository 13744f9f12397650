#pragma once
/// Several scenes packed into one disjoint graph for the relation predictor: node features,
/// candidate directed edges (agent -> agent, background -> agent within 10 m, weather -> agent)
/// with edge features, and the agent pairs to classify (= the agent -> agent edges).
#include "curve/SceneGraph.h"

#include <Eigen/Dense>

#include <vector>

namespace pl::curve {

/// Kinds of candidate edge. Context edges (background, weather) are the candidate spurious ones.
enum EdgeKind { AgentAgent = 0, BackgroundAgent = 1, WeatherAgent = 2 };
constexpr int kEdgeKinds = 3;
const char* edgeKindName(int k);

constexpr int kNodeFeatures = kObjectTypes + 4; ///< type one-hot, vx, vy, speed (/10), rain
/// dx, dy, dvx, dvy, distance (/10), closing speed (/10), time to closest approach (/3), closest
/// approach within 3 s (/10), along-track and lateral offset in the source's heading frame (/10),
/// cosine between the headings.
constexpr int kEdgeFeatures = 11;

struct GraphBatch {
    Eigen::MatrixXd nodeX;                       ///< nodes x kNodeFeatures
    Eigen::MatrixXd edgeX;                       ///< edges x kEdgeFeatures
    std::vector<int> src, dst;                   ///< edge endpoints (global node index)
    std::vector<int> edgeKind;                   ///< EdgeKind per edge
    std::vector<int> edgeEnv;                    ///< environment of the edge's scene
    std::vector<int> edgeScene;                  ///< position of the scene in the batch
    std::vector<int> edgeLocalSrc, edgeLocalDst; ///< object indices within the scene
    std::vector<int> pairEdge;                   ///< edge index of each classified agent pair
    std::vector<int> pairLabel;                  ///< Relation of each pair
    std::vector<int> pairEnv;
    int nodes = 0;
    int scenes = 0;
};

/// Packs the given scenes (pointers stay owned by the caller).
GraphBatch buildBatch(const std::vector<const Scene*>& scenes);

} // namespace pl::curve
