#pragma once

#include <Eigen/Core>

namespace pl {

/// Eigen-decomposition of a real symmetric matrix: A = V diag(values) Vᵀ.
struct SymmetricEigen {
    Eigen::VectorXd values;  ///< ascending
    Eigen::MatrixXd vectors; ///< orthonormal eigenvectors, column i belongs to values(i)
    bool ok = false;         ///< false if the QR iteration did not converge (values then undefined)
};

/// Decomposes the symmetric n x n matrix A (only its lower triangle is read) with Eigen's
/// SelfAdjointEigenSolver (Householder tridiagonalisation, implicit symmetric QR).
/// Compiled once in SymmetricEigen.cpp: calling this instead of instantiating the solver saves
/// about 5 CPU-seconds of compile time in every translation unit that needs it. Results are the
/// solver's own, bit for bit. Thread-safe (no shared state); the result owns its storage.
SymmetricEigen symmetricEigen(const Eigen::MatrixXd& A);

} // namespace pl
