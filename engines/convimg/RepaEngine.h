#pragma once
/// Engine of the repa-physics panel (spec 004 §6, REPA-P, a workbench reconstruction): Darcy fields
/// from the finite-volume solver, two x0-predicting DDPM denoisers trained from the same
/// initialisation and batches, a baseline (data loss + c_out x output residual, PIDM-like) and REPA-P
/// (+ c_proj x residual of 1x1 heads on the last two blocks, dropped at inference); generated
/// residuals, inference MACs, head decodings, training curves and an error-vs-g sweep.
/// Stateless; one instance may serve several threads.
///
/// Stages of run(): problem (grid, source, shown fields), data (seed streams "train", "test"),
/// training ("init", "batches"), evaluation ("sample", "probe"), packing and claims.
///
/// Inputs: K (CSV grid or .npy N x N / n x N x N) as the first file, an optional source f (N x N)
/// as the second. The first K field is shown; all K fields are the evaluation set.
#include "convimg/FieldReader.h"
#include "core/Engine.h"

namespace pl::convimg {

class RepaEngine : public Engine {
public:
    std::string id() const override { return "repa-physics"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv", "npy", "txt"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded field file (K or f; which one is decided by its position in the input list).
struct FieldInput : LoadedInput {
    FieldFile data;
};

} // namespace pl::convimg
