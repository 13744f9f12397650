#pragma once
/// The frozen feature map φ of the olaf-world panel: fitted once on all frames before any latent
/// action model is trained and never updated (stop-gradient). Two label-free choices:
/// - pca: principal directions of all frames pooled over contexts and mean-centred;
/// - sfa: linear slow feature analysis on random Fourier features of the frames: whiten the
///   features, then take the directions of smallest variance of their temporal differences, i.e. the
///   smallest solutions of Cov(Δf) v = λ Cov(f) v (a generalised symmetric eigenproblem).
/// Immutable after fitting; encode() may be called from several threads. No Qt.

#include "core/Rng.h"
#include "gridworld/ClipSet.h"

#include <Eigen/Core>

#include <string>

namespace pl::gridworld {

/// Solutions of A v = λ B v (A, B symmetric, B positive definite), ascending λ, vᵀ B v = 1.
struct GeneralizedEigen {
    Eigen::VectorXd values;
    Eigen::MatrixXd vectors; ///< column i belongs to values(i)
};
/// Solves A v = λ B v by Cholesky whitening (B = L Lᵀ, eig of L⁻¹ A L⁻ᵀ); throws EngineError when
/// B is not positive definite.
GeneralizedEigen generalizedEigen(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

/// Makes each column's entry of largest magnitude positive (a fixed sign for eigenvectors).
void fixSigns(Eigen::MatrixXd& columns);

class FrozenEncoder {
public:
    /// PCA: the \a dim leading principal directions of the rows of \a frames (n x pixels).
    static FrozenEncoder pca(const Eigen::MatrixXd& frames, int dim);
    /// SFA: \a features random Fourier features (bandwidth: median distance of sampled frame pairs),
    /// then the \a dim slowest directions over consecutive frames of every clip.
    static FrozenEncoder sfa(const ClipSet& clips, int dim, int features, const Rng& rng);

    /// φ of each row of \a frames (n x pixels) -> n x dim.
    Eigen::MatrixXd encode(const Eigen::MatrixXd& frames) const;
    /// pixels x dim: the PCA basis, or for sfa the least-squares linear map from centred pixels to φ.
    const Eigen::MatrixXd& pixelBasis() const { return m_pixelBasis; }
    /// PCA: variances (descending); SFA: slowness eigenvalues λ (ascending).
    const Eigen::VectorXd& spectrum() const { return m_spectrum; }
    /// PCA: fraction of pixel variance kept; SFA: NaN.
    double explained() const { return m_explained; }
    /// Random Fourier features of rows of \a frames (SFA only): sqrt(2/D) cos(x Ω + b).
    Eigen::MatrixXd fourierFeatures(const Eigen::MatrixXd& frames) const;
    int dim() const { return int(m_pixelBasis.cols()); }
    const std::string& kind() const { return m_kind; }

private:
    std::string m_kind;
    Eigen::RowVectorXd m_mean;     ///< pixel mean
    Eigen::MatrixXd m_pixelBasis;  ///< pixels x dim
    Eigen::MatrixXd m_omega;       ///< sfa: pixels x D
    Eigen::RowVectorXd m_bias;     ///< sfa: 1 x D
    Eigen::RowVectorXd m_featMean; ///< sfa: 1 x D
    Eigen::MatrixXd m_slow;        ///< sfa: D x dim
    Eigen::VectorXd m_spectrum;
    double m_explained = 0;
};

} // namespace pl::gridworld
