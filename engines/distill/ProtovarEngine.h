#pragma once
/// Engine of the protovar-distillation panel (spec §5, ProtoVAR; generator and tokeniser are small
/// stand-ins, prototype injection is our reconstruction): a VAR-style multi-scale residual
/// tokeniser and a per-scale MLP generator with classifier-free guidance, pulled toward k-means
/// prototypes of each class (beta_k = beta 0.5^(k-1)), fill a pool of pool_factor * IPC images per
/// class; a probability filter and a selector (herding | kcenter in classifier or pixel space) keep
/// IPC per class; a fresh student trained on them only is scored on the real test set (mean over
/// student_inits). Methods protovar, random_real, selector_real, var_unguided, guided_random,
/// unguided_selector. Data: procedural 16 x 16 glyphs, IDX pairs or PNG class folders.
/// Stateless; one instance may serve several threads.
///
/// Seed streams: "train", "test" (renders), "classifier/*", "tokeniser", "prototypes/<c>/<k>",
/// "generator/*", "pool/<ipc>/<guided|unguided>/<c>", "variance/<c>" (the same for every beta),
/// "random/<ipc>/<method>/<c>", "student/init/<i>", "student/fit/<tag>/<i>", "display".
#include "core/Engine.h"

namespace pl::distill {

class ProtovarEngine : public Engine {
public:
    std::string id() const override { return "protovar-distillation"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override {
        return {"idx", "idx1-ubyte", "idx3-ubyte", "ubyte"};
    }
    int maxInputs() const override { return 4; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::distill
