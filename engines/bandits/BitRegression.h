#pragma once
/// Bayesian linear regression on φ(x) = [1, fingerprint bits] (bit-packed): prior w ~ N(0, σ₀²I),
/// noise σ; Σ = (ΦᵀΦ/σ² + I/σ₀²)⁻¹, mean = ΣΦᵀy/σ². Prediction reads only the set bits of a row:
/// mean = w₀ + Σ_{j∈S} w_j (O(nnz)), variance φᵀΣφ = Σ_{j,k∈S∪{0}} Σ_jk (O(nnz²)). Value type; any thread.

#include "Fingerprints.h"

#include <Eigen/Core>

#include <vector>

namespace pl::bandits {

class BitRegression {
public:
    /// Fits on rows \a rows of \a fp with targets \a y (same length).
    void fit(const PackedFingerprints& fp, const std::vector<int64_t>& rows, const std::vector<double>& y,
             double noise, double priorScale);
    /// Posterior mean and variance of wᵀφ for row \a r (\a scratch: room for fp.bits() ints).
    void predict(const PackedFingerprints& fp, int64_t r, int* scratch, double& mean, double& variance) const;
    /// Posterior mean of wᵀφ alone for row \a r: w₀ + Σ_{j∈S} w_j, read a byte of the fingerprint
    /// at a time from per-byte tables of partial weight sums (bits()/8 lookups, no branches).
    double predictMean(const PackedFingerprints& fp, int64_t r) const;
    /// Posterior mean of w (bias first).
    const Eigen::VectorXd& mean() const { return m_mean; }
    /// Posterior covariance Σ.
    const Eigen::MatrixXd& covariance() const { return m_cov; }

private:
    Eigen::VectorXd m_mean;
    Eigen::MatrixXd m_cov;
    std::vector<double> m_byteSums; ///< [byte k][value v]: Σ of w_{1+8k+b} over the set bits b of v
};

} // namespace pl::bandits
