#pragma once
/// Engine of the specexit-decoding panel (specs-004 §17, SpecExit; a workbench reconstruction): a
/// built-in mlp_lm target trained on toy reasoning traces (running sums with an "overthinking"
/// tail of verification loops), a feature-level draft with token, confidence, progress and
/// remaining-length heads, and five decoding methods (AR, SD, probe exit, SD + probe, SpecExit)
/// under a cost model; a theta_exit sweep, the exactness checks of speculative decoding with exit
/// off (chi-square of sampled first tokens against the enumerated target law; greedy SD == AR).
/// A user target (`.safetensors` mlp_lm with a prompt file) gets a draft distilled from its own
/// samples; exit is off. Stateless.
///
/// Stages of run(): setup ("traces", "problems"), train ("target", "draft"), decode (per method and
/// problem), sweep, greedy, samples, pack, claims.
#include "core/Engine.h"
#include "tinylm/SpecExitRuns.h"

namespace pl::tinylm {

class SpecExitEngine : public Engine {
public:
    std::string id() const override { return "specexit-decoding"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"safetensors", "txt"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// The built-in target, trained draft and test problems exactly as run() builds them without input
/// files (root Rng(ctx.seed())); \a draftExamples, when given, receives the draft's training
/// examples. For benchmarks and tests.
SpecSetup builtinSpecSetup(const ParamSet& p, RunContext& ctx,
                           std::vector<DraftExample>* draftExamples = nullptr);

} // namespace pl::tinylm
