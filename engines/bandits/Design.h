#pragma once
/// Experimental designs over a finite arm set (one arm per row of X, K x d):
///  - the G/D-optimal design by Frank–Wolfe (Fedorov–Wynn): i* = argmax_i x_iᵀV(λ)⁻¹x_i,
///    λ ← (1−γ)λ + γe_{i*}, γ = (g/r − 1)/(g − 1), until g = max_i x_iᵀV(λ)⁻¹x_i ≤ r(1 + eps),
///    r = rank of the arm set (d when it spans ℝᵈ; Kiefer–Wolfowitz: the optimum is g = r);
///  - the "floor" design (our reconstruction of LinNash's John-centre step): the LP
///    max t s.t. Σ_i λ_i x_i ≥ t·1, λ in the simplex, solved by COIN-OR CLP.
/// Pure functions; any thread. \a poll (may be empty) is called every few hundred iterations and
/// may throw (cancellation).

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::bandits {

struct DesignResult {
    Eigen::VectorXd weights;       ///< λ over the arms (sums to 1)
    double gmax = 0;               ///< max_i x_iᵀV(λ)⁻¹x_i at the end
    int rank = 0;                  ///< r, the dimension of the arms' span
    int iterations = 0;            ///< Frank–Wolfe steps taken
    bool converged = false;        ///< gmax ≤ r(1 + eps) reached within the cap
    std::vector<double> gOverRank; ///< g/r before each step and at the end (convergence trace)
};

/// G-optimal design of the rows \a active of \a X (all rows when empty) by Frank–Wolfe from the
/// uniform design, at most \a maxIterations steps. Weights of rows outside \a active are 0.
DesignResult gOptimalDesign(const Eigen::MatrixXd& X, double eps, const std::vector<int>& active = {},
                            int maxIterations = 100000, const std::function<void()>& poll = {});

/// An orthonormal basis (columns) of the span of the rows of \a X: the right singular vectors with
/// singular values above 1e-9 · the largest, in decreasing order of singular value (so also the
/// principal axes of a centred X). The one SVD of the bandit engine.
Eigen::MatrixXd spanBasis(const Eigen::MatrixXd& X);

/// max_i x_iᵀV(λ)⁻¹x_i for a given design, in coordinates of the arms' span (the design's
/// support must span the arms).
double designGmax(const Eigen::MatrixXd& X, const Eigen::VectorXd& weights);

struct FloorDesign {
    Eigen::VectorXd weights; ///< λ over the arms
    double floor = 0;        ///< t* = max min_j (Σ_i λ_i x_i)_j
};

/// The floor LP above, solved by CLP (dual simplex). Throws EngineError when CLP fails.
FloorDesign floorDesign(const Eigen::MatrixXd& X);

} // namespace pl::bandits
