#pragma once
/// Engine of the eefp-early-exit panel (spec §17, EEFP, a workbench reconstruction): an early-exit
/// MLP trained on a 10-class Gaussian mixture with per-sample difficulty (or the user's per-exit
/// logits from an `.eenn.json` manifest), per-exit accuracy, ECE, FP-AUROC and EEFP, temperature
/// scaling vs the EEFP exit models on accuracy-FLOPs threshold sweeps, the built-in
/// counter-example and the perturbed-confidence study with the paper's claims.
/// Stateless; one instance may serve several threads.
///
/// Stages of run(): logits (train the network, seed streams "centres", "train", "eval", "init";
/// or the manifest), analysis (seed stream "perturb"), packing and claims.
///
/// Inputs: one `.eenn.json` manifest, optionally followed by the `.npy` files it names (so that
/// their hashes are recorded with the result); an `.npy` the manifest does not name is refused.
#include "core/Engine.h"

#include "smallnets/EarlyExitNet.h"

namespace pl::smallnets {

class EarlyExitEngine : public Engine {
public:
    std::string id() const override { return "eefp-early-exit"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json", "npy"}; }
    int maxInputs() const override { return 4; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded manifest with its arrays.
struct ExitLogitsInput : LoadedInput {
    ExitLogits data;
    std::vector<std::string> files; ///< the .npy files it names (resolved, canonical)
};

/// A data file given next to its manifest (checked at run time to be one the manifest names).
struct ExitArrayInput : LoadedInput {
    std::string canonical;
};

} // namespace pl::smallnets
