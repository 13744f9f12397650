#pragma once
/// olaf-world: anchor latent actions learnt from unlabelled video to the change they cause in a frozen
/// encoder's features (SeqΔ-REPA), so that they share one coordinate system across visual contexts
/// (specs-004 §13). SpriteWorld clips (or the user's), a frozen φ (PCA or linear SFA on random
/// Fourier features), two latent action models trained on the paperlab_nn tape from the same seed
/// for the same steps (baseline: λ = 0; aligned: λ = lambda_align), then cross-context read-outs
/// with the hidden actions. Inputs: `.npy` clips or PNG folders, contexts.csv, optional actions.csv.
/// Stateless; one instance may serve several threads. No Qt.

#include "core/Engine.h"
#include "gridworld/ClipReader.h"

namespace pl::olaf {

/// Clips loaded from one `.npy` file or PNG folder.
struct ClipInput : LoadedInput {
    gridworld::ClipFile clips;
};

/// contexts.csv or actions.csv.
struct LabelInput : LoadedInput {
    gridworld::LabelFile labels;
};

class OlafWorldEngine : public Engine {
public:
    std::string id() const override { return "olaf-world"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"npy", "csv"}; }
    int maxInputs() const override { return 16; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::olaf
