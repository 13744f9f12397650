#pragma once
/// Engine of the lavid-distillation panel (spec §12, LaViD; teacher and images are stand-ins): a
/// vision student learns class labels and, next to them, the class "signatures" a language-only
/// teacher gave as answers to multiple-choice questions (gamma CE + beta MSE/KL of the question head
/// against t_y). Methods ce, kd (logit KD from a wider vision teacher), lavid, kd_lavid and
/// random_signature (signatures permuted across classes), each the mean over student_inits
/// initialisations, on a Waterbirds-like split (background tied to the class group with rho_sp in
/// training, 0.5 at test) or on a user's feature CSV + signature JSON (+ questions .txt).
/// Stateless; one instance may serve several threads.
///
/// Seed streams: "world" (classes, questions), "teacher" (signature noise and hallucinations),
/// "train", "test" (renders), "derange" (random signature), "kd/init", "kd/fit" (vision teacher),
/// "init/<i>" (one init per i for every method), "fit/<m>/<i>", "sweep/..." (sweeps).
#include "core/Engine.h"

namespace pl::distill {

class LavidEngine : public Engine {
public:
    std::string id() const override { return "lavid-distillation"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json", "txt", "csv"}; }
    int maxInputs() const override { return 3; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::distill
