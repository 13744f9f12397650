#pragma once

#include <Eigen/Core>

namespace pl {

/// Dense LU with partial pivoting (Eigen's PartialPivLU), compiled once in DenseLu.cpp so that
/// callers do not instantiate the factorisation (a few CPU-seconds of compile time per
/// translation unit). Results are Eigen's own, bit for bit. Thread-safe, no shared state.

/// Solves A x = b for square, invertible A (n x n) and b (n); a singular A gives non-finite x.
Eigen::VectorXd luSolve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b);

/// A⁻¹ of a square, invertible A, as A.inverse() computes it for dynamic sizes.
Eigen::MatrixXd luInverse(const Eigen::MatrixXd& A);

} // namespace pl
