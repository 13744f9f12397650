#pragma once
/// Engine of the inslen-hallucination panel (spec §12, InsLen): the instruction-lens score, its
/// parts (calibrated local, context consistency) and the baselines (mean context probability,
/// GLSIM, SVAR) for every object a caption names, their AUROC / AUPR / FPR@95 (real = positive)
/// and the AUROC over (image layer, text layer).
/// Stateless; one instance may serve several threads.
///
/// mode = file: inputs are one `.npy` LM head [V, d] and captions as `.npz` files or folders of
/// them (name order). mode = toy (stand-in): a tiny multimodal transformer trained in-engine on
/// synthetic scenes (seed streams "embeddings", "scenes", "init", "test").
#include "core/Engine.h"

#include "hiddenstate/InsLenCaption.h"

namespace pl::hiddenstate {

class InsLenEngine : public Engine {
public:
    std::string id() const override { return "inslen-hallucination"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"npy", "npz"}; }
    int maxInputs() const override { return 4096; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// An LM head [V, d].
struct LmHeadInput : LoadedInput {
    Eigen::MatrixXd head;
};

/// One caption archive, or a folder of them (name order).
struct CaptionsInput : LoadedInput {
    std::vector<InsLenCaption> captions;
};

} // namespace pl::hiddenstate
