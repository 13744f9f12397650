#pragma once
/// The learning side of deepha-agent (specs-004 §10): expert demonstrations on CraftGrid, context
/// histories (full, or compressed: steps older than the full-detail window keep only their L3 token
/// and a completion marker), five behaviour-cloned MLP policies over the unified vocabulary
/// (Direct, CoA on full context, CoA on compressed context, HA high level, HA low level) and their
/// rollouts in the modes direct, ha_decoupled, coa_greedy, coa_eager. The MLPs stand in for the
/// paper's VLM. Deterministic in (inputs, settings, seed). No Qt.

#include "core/RunContext.h"
#include "gridworld/CraftGrid.h"
#include "gridworld/MlpClassifier.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pl::gridworld {

/// Sizes and budgets of one deepha-agent run.
struct AgentSettings {
    int hidden = 128;
    int history = 16;   ///< H, steps
    int fullWindow = 4; ///< m, steps
    int iterations = 300;
    double learningRate = 3e-3;
    int episodeCap = 300;
    double demoNoise = 0.2; ///< probability of a random executed action in the demos
};

/// One step of a history: the tokens emitted (-1 for a level the mode does not emit) and whether
/// the L3 skill's item count rose at this step (the completion marker).
struct StepRecord {
    ChainTokens tokens;
    bool done = false;
};

enum class ContextKind { Full, Compressed, L1Only, L3Only, None };

/// The context tokens before step t = h.size(): the last H steps (Full: L3, L2, L1 of each;
/// Compressed: steps older than m keep one L3 token per run of equal skills and a DONE marker per
/// completion, the last m steps in full; L1Only / L3Only: that level; None: nothing).
std::vector<int> contextTokens(const std::vector<StepRecord>& h, int H, int m, ContextKind kind,
                               const Vocabulary& v);

/// An expert episode from \a start: observations (one row per step) and the expert's tokens. With
/// \a noise > 0 (DART-style demonstrations) each step executes a uniformly random L1 token with that
/// probability while the recorded labels stay the expert's, so the demos visit off-path states.
struct Demo {
    Eigen::MatrixXd obs;
    std::vector<StepRecord> steps;
    bool success = false;
};
Demo expertEpisode(const RecipeBook& book, const Vocabulary& v, const GridMap& map, AgentState start,
                   int goal, int cap, double noise = 0.0, Rng* rng = nullptr);

/// The five policies and their training curves.
struct Policies {
    std::vector<MlpClassifier> models; ///< Direct, CoA, CoA compressed, HA high, HA low
    std::vector<std::vector<std::pair<int, double>>> curves;
};

/// Behaviour cloning of the five policies on the demos (cross-entropy, Adam).
Policies trainPolicies(const RecipeBook& book, const Vocabulary& v, const std::vector<Demo>& demos,
                       const AgentSettings& s, Rng rng, RunContext& ctx);

enum class Mode { Direct, HaDecoupled, CoaGreedy, CoaEager, CoaCompressed };
inline constexpr int kModes = 5;

/// One evaluation episode of a mode from the map's start.
struct Episode {
    bool success = false;
    std::vector<StepRecord> steps;
    std::vector<int> cells;        ///< agent cell before each step
    std::vector<int> contextSizes; ///< context tokens read at each step
    std::vector<int> expertL3;     ///< the expert's skill token at each step
    std::vector<int> obtained;     ///< items held at some step (count > 0), item order
};
Episode rollout(const Policies& p, Mode mode, const RecipeBook& book, const Vocabulary& v, const GridMap& map,
                int goal, const AgentSettings& s);

} // namespace pl::gridworld
