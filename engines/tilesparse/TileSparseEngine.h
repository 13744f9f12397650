#pragma once
/// Engine of the tilesparse panel: arithmetic-intensity-aware QK-2D tile sparsity for
/// compute-bound MLA decoding. Dense reference attention over shared latent keys, block
/// importance estimation (oracle / low-rank indexer / Quest bound), K-only and QK-2D tile
/// selection (uniform, global, tiered with an autotuner), exact sparse attention on each
/// selection, a roofline cost model, and the paper's claims at fixed seeds.
/// Stateless; one instance may serve several threads.
///
/// Inputs: none (seeded synthetic workload) or three .npy files Q (rows x d), K (tokens x d),
/// V (tokens x d_v), in that order.
///
/// Result keys: vectors.output_full (rows x d_v, row-major), head_mass_<m>, budgets;
/// series.error_<m>, mass_<m>, top1_<m>, blocks_<m>, time_<m>, ai_<m>, roofline_<m>
/// (m = k_only, qk2d, qk2d_global, tiered), time_dense, roofline_bound, roofline_dense,
/// autotune_k1_fraction, autotune_objective; matrices.attention_mass, importance,
/// selected_<m>, autotune_grid; metrics (see params() and run()); claims
/// c1-oracle-2d-dominates, autotuner-never-worse-than-fixed, c2-tiered-gain-with-head-sparsity,
/// c2-no-gain-without-head-sparsity, qk2d-lower-error-with-head-specialisation,
/// qk2d-no-gain-without-head-specialisation, c3-mla-compute-bound.
///
/// Backend: the sweep is the CPU reference (float64). With CUDA (--backend cuda, or auto with a
/// device) the gathered tile attention of every method's selection at the shown budget is also
/// run on the GPU kernel (metrics cuda_error_<m>, cuda_max_abs_diff); a note names the backend.

#include "core/Engine.h"

namespace pl::tilesparse {

class TileSparseEngine : public pl::Engine {
public:
    std::string id() const override { return "tilesparse"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"npy"}; }
    int maxInputs() const override { return 3; }
    /// True when this build has the CUDA tile-attention kernel (pl::cuda::built()).
    bool hasCudaPath() const override;
    /// Loads one 2-d float .npy array; refuses non-finite values (first index named).
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// One loaded .npy matrix (rows x cols).
struct NpyMatrixInput : LoadedInput {
    int64_t rows = 0;
    int64_t cols = 0;
    std::vector<double> data; ///< row-major
};

} // namespace pl::tilesparse
