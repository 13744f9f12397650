#pragma once
/// Engine of the negative-label-ood panel: zero-shot OOD detection with negative labels, scored
/// by NegLabel, by the exact KL-DRO energy margin and by the Rényi-DRO energy margin; AUROC/FPR@95,
/// the AUROC map over (α, ρ), worst-case weights with their ESS, and the outlier-sensitivity study.
/// Inputs: an .npz (or .npy files) with id_text, neg_text, images, is_id; else the §7 stand-in.
/// Stateless; one instance may serve several threads.

#include "core/Engine.h"

namespace pl::embedgeo {

class NegLabelOodEngine : public Engine {
public:
    std::string id() const override { return "negative-label-ood"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"npz", "npy"}; }
    int maxInputs() const override { return 4; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::embedgeo
