#pragma once
/// Blocked dense kernels that stay responsive to cancellation: Gram products and Cholesky
/// factorisation split into pieces of a few million flops, calling a check function between
/// pieces. Used by the DRS resolvent and the semi-smooth Newton solves. No state.

#include <Eigen/Core>
#include <functional>

namespace pl::games {

/// Called between blocks; may throw (e.g. pl::Cancelled) to abort the kernel.
using CheckFn = std::function<void()>;

/// out = alpha * C^T C + diag(shift) + extra * 1 1^T (C is r x k, out is k x k, symmetric,
/// only the lower triangle is guaranteed). Flops about r k^2.
void gramPlusShift(const Eigen::MatrixXd& C, double alpha, double shift, double extra, Eigen::MatrixXd& out,
                   const CheckFn& check);

/// In-place lower Cholesky G = L L^T (blocked, right-looking). Returns false (G undefined) if
/// G is not numerically positive definite.
bool choleskyInPlace(Eigen::MatrixXd& G, const CheckFn& check);

/// Solves L L^T x = b in place with the factor from choleskyInPlace.
void choleskySolveInPlace(const Eigen::MatrixXd& L, Eigen::Ref<Eigen::VectorXd> b);

} // namespace pl::games
