#pragma once
/// Engine of the fafo-decoding panel (specs-000 §6, FAFO; a workbench reconstruction): greedy
/// decoding of a tiny transformer (the built-in hand-made induction model, or a user's
/// `.safetensors` transformer) on prompts with long-range repetition (synthetic, or a user's
/// prompt file): autoregressive, lookahead with the full cache, FAFO (lookahead rows read a
/// compressed view, verification rows the full cache), lossy-only decoding on the compressed view
/// and layer-skip self-speculation; losslessness checks, tokens per forward pass, the modelled
/// speed-ups and a budget sweep per compressor. Stateless.
///
/// Stages of run(): setup (seed stream "prompts"), decode (per prompt; "guesses"), sweep, pack, claims.
#include "core/Engine.h"

namespace pl::tinylm {

class FafoDecodingEngine : public Engine {
public:
    std::string id() const override { return "fafo-decoding"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"safetensors", "txt"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::tinylm
