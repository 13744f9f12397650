#pragma once
/// VAR-style multi-scale residual quantiser in pixel space (spec §5 "Tokeniser"; VAR's
/// VectorQuantizer2 with v_patch_nums): an S x S grey image is cut into p x p patches (p = 4), a
/// g x g grid (g = S / 4) of C = 16-dimensional vectors f (rows = positions, row-major),
/// standardised with the training pixels' mean and sd (one pair for all dimensions: distances stay
/// Euclidean in pixels, in sd units; no PCA whitening). For the scales s_1 < ... < s_K = g:
///   r_k = Q(down_k(f - f_hat)),  f_hat += up_k(E[r_k]),
/// with down_k the area (adaptive average) pooling to s_k x s_k, up_k the bilinear upsampling back
/// (half-pixel centres, as torch's align_corners = False; VAR uses bicubic) and Q the nearest
/// codeword of a shared codebook E of V vectors (ties to the lowest index). The codebook is k-means
/// on the pooled residuals down_k(f - f_hat), alternated 3 times (the first round with unquantised
/// residuals). Not thread-safe to fit; const methods are.
#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::distill {

/// Area pooling of a length-n axis to m cells (m x n, rows sum to 1): cell a averages the inputs
/// floor(a n / m) .. ceil((a + 1) n / m) - 1.
Eigen::MatrixXd areaPool1d(int n, int m);
/// Bilinear upsampling of an m-cell axis to n cells (n x m): source = (i + 0.5) m / n - 0.5,
/// clamped at 0, neighbours floor and floor + 1 (clamped to m - 1).
Eigen::MatrixXd bilinear1d(int m, int n);

/// The multi-scale tokens of one image: per scale, s_k^2 codeword indices (row-major).
using ScaleTokens = std::vector<std::vector<int>>;

class MultiScaleQuantiser {
public:
    /// Images of \a side x \a side pixels (a multiple of 4), patch 4, the given scales (ascending,
    /// the last equal to side / 4) and \a codebookSize codewords.
    MultiScaleQuantiser(int side, std::vector<int> scales, int codebookSize);

    int side() const { return m_side; }
    int grid() const { return m_grid; }
    int dim() const { return 16; } ///< C = p^2
    int codebookSize() const { return m_v; }
    const std::vector<int>& scales() const { return m_scales; }
    int scaleCount() const { return int(m_scales.size()); }
    const Eigen::MatrixXd& codebook() const { return m_codebook; }
    void setCodebook(const Eigen::MatrixXd& E) { m_codebook = E; }
    const Eigen::MatrixXd& down(int k) const { return m_down[size_t(k)]; } ///< s_k^2 x g^2
    const Eigen::MatrixXd& up(int k) const { return m_up[size_t(k)]; }     ///< g^2 x s_k^2

    double pixelMean() const { return m_mean; }
    double pixelSd() const { return m_sd; }
    /// Sets the standardisation (fit() sets it from the training pixels).
    void setStandardisation(double mean, double sd) {
        m_mean = mean;
        m_sd = sd;
    }
    /// Image row (side^2 pixels, row-major) -> latent (g^2 x 16, (pixel - mean) / sd), and back.
    Eigen::MatrixXd latent(const Eigen::VectorXd& image) const;
    Eigen::VectorXd image(const Eigen::MatrixXd& latent) const;

    /// Tokens of \a latent; \a cumulative (optional) receives f_hat after each scale (K latents).
    ScaleTokens encode(const Eigen::MatrixXd& latent,
                       std::vector<Eigen::MatrixXd>* cumulative = nullptr) const;
    /// f_hat after the first \a upTo scales of \a tokens (all when -1).
    Eigen::MatrixXd decode(const ScaleTokens& tokens, int upTo = -1) const;

    /// Sets the standardisation from \a images, then fits the codebook on them (3 alternations; at most \a
    /// maxVectors pooled residuals per round, subsampled with \a rng; k-means++ then Lloyd). \a poll may
    /// throw.
    void fit(const Eigen::MatrixXd& images, Rng& rng, int maxVectors = 20000,
             const std::function<void()>& poll = {});

private:
    int m_side, m_grid, m_v;
    std::vector<int> m_scales;
    std::vector<Eigen::MatrixXd> m_down, m_up;
    Eigen::MatrixXd m_codebook; ///< V x 16
    double m_mean = 0, m_sd = 1;
};

/// The scales used for a g x g grid: (1, 2, 3, 4) for g = 4, (1, 2, 3, 4, 6, 8) for g = 8.
std::vector<int> scalesForGrid(int grid);

} // namespace pl::distill
