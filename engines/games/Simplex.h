#pragma once
/// Euclidean projection onto the probability simplex and its generalized Jacobian. Pure
/// functions, no state; thread-safe.

#include <Eigen/Core>
#include <vector>

namespace pl::games {

/// Sort-based Euclidean projection of v onto {x >= 0, sum x = 1} (O(n log n)). v must be
/// non-empty and finite. Writes the projection to `out` (may alias v).
void projectSimplex(const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> out);

/// Convenience overload returning the projection.
Eigen::VectorXd projectSimplex(const Eigen::VectorXd& v);

/// Indices where a simplex point is strictly positive (the support), in increasing order.
std::vector<int> supportOf(const Eigen::Ref<const Eigen::VectorXd>& x, double threshold = 0.0);

/// One element of the generalized Jacobian of projectSimplex at v: I_S - 1_S 1_S^T / |S| on
/// the support S of projectSimplex(v), zero elsewhere (dense n x n, for tests and small n).
Eigen::MatrixXd simplexProjectionJacobian(const Eigen::VectorXd& v);

/// Normalises a non-negative vector to sum 1; the uniform distribution when its sum is 0.
void normalizeOrUniform(Eigen::Ref<Eigen::VectorXd> v);

} // namespace pl::games
