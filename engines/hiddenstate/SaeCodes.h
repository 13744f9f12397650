#pragma once
/// TopK sparse-autoencoder codes per layer for the sae-domain-ood panel (spec §18): pre =
/// (a − b_dec)·W_enc + b_enc; keep the k largest strictly positive entries (ties to the lower
/// index); weights w = kept values / their sum. Reconstruction â = z·W_dec + b_dec with z the kept
/// values. All arithmetic in double; pure functions; any thread.

#include <Eigen/Core>

#include <vector>

namespace pl::hiddenstate {

/// One layer's SAE in the SAELens / Gemma Scope layout.
struct SaeLayer {
    Eigen::MatrixXd encoder;        ///< W_enc, d x m
    Eigen::RowVectorXd encoderBias; ///< b_enc, m
    Eigen::MatrixXd decoder;        ///< W_dec, m x d
    Eigen::RowVectorXd decoderBias; ///< b_dec, d
    int width() const { return int(encoder.cols()); }
};

/// The kept latents of one input: indices (largest first), kept values and normalised weights.
struct SparseCode {
    std::vector<int> index;
    std::vector<double> value, weight;
};

/// Pre-activations (A − b_dec)·W_enc + b_enc of the rows of \a A (N x d): N x m.
Eigen::MatrixXd saePreActivations(const SaeLayer& sae, const Eigen::MatrixXd& A);

/// The code of one row of pre-activations.
SparseCode topKCode(const Eigen::Ref<const Eigen::RowVectorXd>& pre, int k);

/// Codes of every row of \a pre.
std::vector<SparseCode> topKCodes(const Eigen::MatrixXd& pre, int k);

/// Fraction of variance unexplained Σ‖a − â‖² / Σ‖a − ā‖² of the rows of \a A under TopK(k).
double fractionUnexplained(const SaeLayer& sae, const Eigen::MatrixXd& A, int k);

/// Latents never kept for any row of \a pre at TopK(k), as a fraction of m.
double deadFraction(const Eigen::MatrixXd& pre, int k);

} // namespace pl::hiddenstate
