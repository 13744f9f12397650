#pragma once
/// Engine of the torus-graph panel: phase-coupling networks with torus graphs (Klein et al.),
/// stochastic score matching, TG-HMM and AR-TG transfer entropy (Goffinet et al.).
/// Stateless; one instance may serve several threads.
///
/// Inputs: none (seeded synthetic sparse torus graph, Gibbs-sampled), or one .csv/.npy matrix
/// (samples × channels) of phases in radians (input_kind = phase) or of raw signals
/// (input_kind = signal: band-pass + analytic signal → phases), optionally followed by a second
/// .csv/.npy with one row of electrode coordinates (x, y[, z]) per channel.
///
/// Result keys (the issue's): matrices.coupling_strength (d × d, ‖φ_(j,k)‖₂ of the chosen method),
/// matrices.phi (pairs × 4: cos/sin of x_j − x_k, cos/sin of x_j + x_k), vectors.eta_single
/// (2d: cos x_j, sin x_j per node), labels.state (TG-HMM Viterbi path), matrices.transfer_entropy
/// (AR-TG, row = source, column = target, nats/sample); plus the closed-form and SSM variants,
/// Wald p-values, ROC curves, SSM traces, scaling timings, HMM posteriors and per-state couplings,
/// the torus view of one pair, graphs `coupling` and `transfer_entropy`, metrics and claims.
/// With scaling = timed the scaling series/metrics are wall-clock measurements and vary between
/// runs; everything else is bit-for-bit deterministic in (inputs, params, seed).

#include "core/Engine.h"

namespace pl::torusgraph {

class TorusGraphEngine : public pl::Engine {
public:
    std::string id() const override { return "torus-graph"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv", "npy"}; }
    int maxInputs() const override { return 2; }
    bool hasCudaPath() const override;
    /// Reads a .csv or .npy matrix; refuses non-finite values, fewer than 2 columns, empty files.
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded matrix (rows × cols, row-major values) with optional column names.
struct MatrixInput : LoadedInput {
    int64_t rows = 0;
    int64_t cols = 0;
    std::vector<double> data;
    std::vector<std::string> names;
};

} // namespace pl::torusgraph
