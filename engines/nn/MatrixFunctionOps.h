#pragma once
/// Tape ops on batches of small symmetric matrices and a special function (first user:
/// equivariant-covariance): the matrix exponential of symmetric matrices with the Daleckii-Krein
/// backward, the quadratic forms r^T M r, and log K_nu (modified Bessel function of the second kind).
/// Each op's gradient is checked against central finite differences in tests/nn.
///
/// Batch layout: an N x (n * n) matrix holds N matrices of size n x n, one per row, row-major
/// (entry (i, j) of matrix k at column i * n + j).
///
/// Thread affinity: as Tape (one thread per tape).
#include "nn/Tape.h"

namespace pl::nn {

/// exp of the symmetric part X = (S + S^T) / 2 of each n x n matrix of the batch, through the
/// eigendecomposition X = U diag(lambda) U^T: exp(X) = U diag(e^lambda) U^T (symmetric positive
/// definite). Backward (Daleckii-Krein): dL/dX = U (F o (U^T G U)) U^T with
/// F_ij = (e^lambda_i - e^lambda_j) / (lambda_i - lambda_j), F_ii = e^lambda_i (a divided difference,
/// taken as e^lambda_i when |lambda_i - lambda_j| < 1e-9 (1 + |lambda_i|)); dL/dS = sym(dL/dX).
Var symExpm(Var batch, int n);

/// Per-row quadratic form q_k = r_k^T M_k r_k for r (N x n) and a batch M (N x (n * n)); N x 1.
Var rowQuadForm(Var r, Var m);

/// Elementwise log K_nu(z) for z > 0 (std::cyl_bessel_k; above z = 600, where K underflows, the
/// large-argument expansion log K_nu(z) = log sqrt(pi / 2z) - z + log(1 + sum_k a_k(nu) / z^k), eight
/// terms). Backward: d log K_nu / dz = -(K_{nu-1}(z) + K_{nu+1}(z)) / (2 K_nu(z)).
Var logBesselK(Var z, double nu);

/// The scalar log K_nu(z) used by logBesselK (z > 0), for engines and tests.
double logBesselKValue(double nu, double z);
/// The scalar d log K_nu(z) / dz used by logBesselK's backward.
double logBesselKDerivative(double nu, double z);

} // namespace pl::nn
