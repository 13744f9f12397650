#pragma once
/// Engine of the equivariant-covariance panel (spec §9, EquiCov): an exactly E(3)-equivariant mean
/// and 6x6 covariance Sigma = exp(S) of a symmetric 3x3 tensor predicted from a point cloud, trained
/// with the log-Euclidean Laplace score (or Gaussian NLL / power exponential), against a rotation-
/// augmented MLP, an isotropic-covariance model and the Gaussian-NLL model. Checks equivariance over
/// random O(3) elements and translations, the Casimir decomposition of sym(6) (2/10/9), SPD, heavy-tail
/// robustness and coverage. Stateless; one instance may serve several threads.
///
/// Inputs: none (synthetic shapes), or clouds (clouds.csv, .ply) with optional tensors.csv
/// (CloudReader.h). fit_on = synthetic trains on the generator and predicts every input cloud;
/// fit_on = input trains on the clouds that have tensors.
///
/// Result keys: matrices.pred_mean, pred_cov, pred_logcov, baseline_mean, irrep_power (a row per
/// input cloud, or per ID test cloud, at most 200); vectors.nll_laplace, nll_gauss; metrics.
/// equivariance_error, baseline_equivariance_error, coverage_90, ood_auroc, ...; claims c1..c4.
#include "core/Engine.h"

#include "equicov/CloudReader.h"

namespace pl::equicov {

class EquivariantCovarianceEngine : public Engine {
public:
    std::string id() const override { return "equivariant-covariance"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv", "ply"}; }
    int maxInputs() const override { return 8; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// Loaded point clouds (clouds.csv or a PLY file).
struct CloudSetInput : LoadedInput {
    std::vector<Cloud> clouds;
};

/// Loaded target tensors (tensors.csv).
struct TensorSetInput : LoadedInput {
    std::vector<TensorRow> rows;
};

} // namespace pl::equicov
