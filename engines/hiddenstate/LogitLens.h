#pragma once
/// The logit lens shared by the hidden-state panels: row softmax of scale·H·Wᵀ by log-sum-exp,
/// top-k with ties to the lower index, cosine similarity. All arithmetic in double. Pure
/// functions; any thread.

#include <Eigen/Core>

#include <vector>

namespace pl::hiddenstate {

/// Row-wise log-sum-exp of scale·H·Wᵀ: one entry per row of \a H (n x d); \a W is the LM head
/// (V x d).
Eigen::VectorXd lensLogNormaliser(const Eigen::MatrixXd& H, const Eigen::MatrixXd& W, double scale);

/// Probabilities softmax(scale·H·Wᵀ)[:, token] (n entries), by log-sum-exp.
Eigen::VectorXd lensProbOfToken(const Eigen::MatrixXd& H, const Eigen::MatrixXd& W, double scale, int token,
                                const Eigen::VectorXd& logNormaliser);

/// The \a k largest entries of \a v (k clipped to its size), largest first; equal values keep
/// the lower index first.
std::vector<int> topKIndices(const Eigen::VectorXd& v, int k);

/// Cosine of a and b; 0 when either has zero norm.
double cosine(const Eigen::VectorXd& a, const Eigen::VectorXd& b);

} // namespace pl::hiddenstate
