#pragma once
/// The two stages of a deepha-agent run, as free functions over plain values: the plan (tech-tree
/// graph, subgoal closures, feasibility on the held-out maps, the expert's success) and the agents
/// (demonstrations on generated training maps, behaviour cloning, rollouts of every mode on the
/// held-out maps, the result keys and claims). Deterministic in (setup, seed). No Qt.

#include "core/ResultDocument.h"
#include "core/Rng.h"
#include "core/RunContext.h"
#include "gridworld/DeephaAgent.h"

namespace pl::deepha {

/// Everything a run needs besides the seed.
struct Setup {
    gridworld::RecipeBook book;
    std::vector<gridworld::GridMap> evalMaps; ///< map files or generated held-out maps
    int grid = 12;
    int demosPerTask = 20;
    int trainMaps = 6;
    gridworld::AgentSettings agent;
};

/// Per task (file order): subgoal count and feasibility on each held-out map.
struct PlanSummary {
    std::vector<int> subgoals;
    std::vector<std::vector<char>> feasible; ///< [task][map]
};

/// Writes graphs.tech_tree, vectors.subgoals|feasible|expert_success and the plan metrics; adds a
/// warning note per infeasible task.
PlanSummary writePlan(const Setup& s, RunContext& ctx, ResultDocument& d);

/// Demonstrations, behaviour cloning, evaluation of every mode, result keys and claims.
void runAgents(const Setup& s, const PlanSummary& plan, const Rng& rng, RunContext& ctx, ResultDocument& d);

} // namespace pl::deepha
