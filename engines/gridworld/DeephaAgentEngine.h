#pragma once
/// deepha-agent: one policy over mixed action spaces; Chain-of-Action uses higher-level tokens as
/// "thoughts" for lower ones; compressed history (specs-004 §10). CraftGrid stand-in: the recipe DAG
/// and closures, a backward-chaining expert, behaviour-cloned MLP policies (in place of the VLM)
/// evaluated on held-out maps in the modes direct, ha_decoupled, coa_greedy and coa_eager, with full
/// and compressed context. Inputs: one recipe book (.json) and ASCII maps (.txt, .map) used as the
/// held-out maps. Stateless; one instance may serve several threads. No Qt.

#include "core/Engine.h"
#include "gridworld/GridMap.h"
#include "gridworld/RecipeBook.h"

namespace pl::deepha {

/// A loaded recipe book.
struct RecipeInput : LoadedInput {
    gridworld::RecipeBook book;
};

/// A loaded ASCII map.
struct MapInput : LoadedInput {
    gridworld::GridMap map;
};

class DeephaAgentEngine : public Engine {
public:
    std::string id() const override { return "deepha-agent"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json", "txt", "map"}; }
    int maxInputs() const override { return 17; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::deepha
