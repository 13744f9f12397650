#pragma once
/// Engine of the gemq-moe-quant panel (specs-004 §19, GEMQ; a tinylm moe_lm trained in-engine stands
/// in for an MoE LLM): expert costs from the quantisation error weighted by Fisher, an output proxy or
/// nothing; one relaxed multiple-choice knapsack over all layers (global) or one per layer, solved by
/// the convex-hull greedy and cross-checked by CLP; group-wise round-to-nearest quantisation; router
/// fine-tuning towards full precision; progressive stages; a Pareto sweep over budgets.
/// Inputs: an importance table CSV (allocator alone), or a `.safetensors` moe_lm plus calibration
/// token ids (`.txt`). Stateless.
///
/// Stages of run(): setup (corpus, training), sensitivity, global, layer-wise, one-shot, sweep,
/// pack, claims.
#include "core/Engine.h"

namespace pl::gemq {

class GemqEngine : public Engine {
public:
    std::string id() const override { return "gemq-moe-quant"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv", "safetensors", "txt"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// Parses the `bits` parameter ("2,3,4,8": distinct integers in [1, 16]), ascending. Throws
/// pl::UsageError.
std::vector<int> parseBitOptions(const std::string& text);

} // namespace pl::gemq
