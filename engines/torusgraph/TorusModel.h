#pragma once
/// The torus-graph exponential family on phases, p(x) ∝ exp(ηᵀS(x)), x ∈ [0, 2π)^d (radians).
///
/// Parameter layout (P = 2d² entries, the "canonical" η):
///   [2j, 2j+1]            cos x_j, sin x_j                                  (j = 0..d-1)
///   2d + 4p + {0,1,2,3}   cos(x_j−x_k), sin(x_j−x_k), cos(x_j+x_k), sin(x_j+x_k) for the p-th pair
///                         j < k in row-major order (0,1), (0,2), ..., (d-2, d-1).
/// Score matching uses D(x) = ∂S/∂x (P × d) and H(x) = −Σ_j ∂²S/∂x_j² (P), so that
/// J(η) = ½ηᵀΓη − ηᵀH with Γ = mean D Dᵀ and H = mean H(x); the minimiser is η = Γ⁻¹H (the issue
/// writes η = −Γ⁻¹H' with H' = Σ_j ∂²S/∂x_j² = −H: the same estimator).
///
/// Fast path: with z = [cos x; sin x] ∈ ℝ^{2d}, the energy is ηᵀS = ℓᵀz + ½ zᵀWz, where ℓ holds the
/// univariate terms (ℓ_j = η_cos_j at index j, ℓ_{d+j} = η_sin_j at d+j) and W (2d × 2d, symmetric,
/// zero on the node diagonal blocks) holds the pairwise ones (angle-addition identities). Then
/// ∂E/∂z = ℓ + Wz and the energy gradient g_j = ∂E/∂x_j = −sin x_j (ℓ+Wz)_j + cos x_j (ℓ+Wz)_{d+j}:
/// batches of samples cost a few GEMMs instead of d² trigonometric evaluations per sample.
/// Pure functions; thread-safe.

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace pl::torusgraph {

using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;
/// Samples x channels phases, row-major so that one sample is contiguous.
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Index helpers for the canonical layout.
struct TorusLayout {
    int d = 0;
    explicit TorusLayout(int nodes) : d(nodes) {}
    int64_t dim() const { return 2ll * d * d; } ///< P = 2d²
    int pairs() const { return d * (d - 1) / 2; }
    /// Pair index of (j, k), j < k.
    int pairIndex(int j, int k) const { return j * d - j * (j + 1) / 2 + (k - j - 1); }
    /// First canonical index of the 4 parameters of pair (j, k), j < k.
    int64_t pairOffset(int j, int k) const { return 2ll * d + 4ll * pairIndex(j, k); }
    /// (j, k) of pair index p.
    void pairNodes(int p, int* j, int* k) const;
};

/// S(x) (length P) for one sample.
Vec sufficientStats(const Eigen::Ref<const Vec>& x);
/// D(x) = ∂S/∂x (P × d) for one sample (dense; for tests and references).
Mat statsJacobian(const Eigen::Ref<const Vec>& x);
/// H(x) = −Σ_j ∂²S/∂x_j² (length P) for one sample.
Vec statsLaplacianNeg(const Eigen::Ref<const Vec>& x);

/// η → (ℓ, W) of the fast path. ℓ has length 2d, W is 2d × 2d.
void toQuadratic(const Vec& eta, int d, Vec* ell, Mat* W);
/// Gradient with respect to (ℓ, W) → gradient with respect to η (W gradient taken as a free
/// matrix: dW(a,b) is ∂f/∂W_ab treating W_ab and W_ba as separate entries).
Vec fromQuadraticGradient(const Vec& dEll, const Mat& dW, int d);

/// Energy gradients g (n × d) for samples given as cos/sin tables C, S (n × d).
Mat energyGradient(const Mat& C, const Mat& S, const Vec& ell, const Mat& W);

/// Coupling strength per pair: d × d symmetric matrix of ‖φ_(j,k)‖₂ (zero diagonal).
Mat couplingStrength(const Vec& eta, int d);
/// Pairwise parameters as a pairs × 4 matrix (rows in pair order).
Mat pairParameters(const Vec& eta, int d);
/// Wraps an angle into [0, 2π).
double wrapAngle(double a);

} // namespace pl::torusgraph
