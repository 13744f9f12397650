#pragma once
/// Optimal rigid superposition of matched point sets: Kabsch (SVD of the 3x3 cross-covariance,
/// with the determinant fix against mirror images) when the rotation is needed, and the
/// quaternion characteristic polynomial (QCP, Theobald 2005) when only the RMSD is needed (the
/// all-vs-all matrix: one GEMM for all cross-covariances, then O(1) per pair). Coordinates in
/// Angstrom; points are the columns of a 3 x n matrix. Pure functions, thread-safe.

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::protein {

/// y = R x + t maps the mobile set onto the target set.
struct Superposition {
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    double rmsd = 0; ///< after superposition, Angstrom
    /// Applies the transform to every column.
    Eigen::Matrix3Xd apply(const Eigen::Matrix3Xd& x) const;
};

/// Kabsch superposition of mobile onto target (same column count >= 1; for fewer than 3 points
/// the rotation is not unique but still optimal). Throws std::invalid_argument on size mismatch.
Superposition kabsch(const Eigen::Matrix3Xd& mobile, const Eigen::Matrix3Xd& target);

/// Rotation only, from a cross-covariance H = sum_i x_i y_i^T of centred sets.
Eigen::Matrix3d kabschRotation(const Eigen::Matrix3d& H);

/// QCP RMSD from the cross-covariance H of centred sets, their inner products G1 = sum |x|^2,
/// G2 = sum |y|^2, and the point count n.
double qcpRmsd(const Eigen::Matrix3d& H, double G1, double G2, long n);

/// Plain RMSD without superposition.
double rmsdNoFit(const Eigen::Matrix3Xd& a, const Eigen::Matrix3Xd& b);

/// Degeneracy check before a superposition: false when the centred set is (nearly) colinear,
/// i.e. its second singular value is below 1e-8 of the first, or when it has fewer than 3 points.
bool wellConditioned(const Eigen::Matrix3Xd& x);

/// All-vs-all RMSD (models x models, symmetric, zero diagonal) after optimal superposition of
/// each pair. All models have the same column count. `poll` is called every few thousand pairs
/// (may throw to cancel); `threads` > 1 splits rows over std::threads.
Eigen::MatrixXd rmsdMatrix(const std::vector<Eigen::Matrix3Xd>& models,
                           const std::function<void(double)>& poll = {}, int threads = 1);

/// Iteratively superposes every model onto the running mean (starting from model 0) and returns
/// the superposed models; `iterations` rounds.
std::vector<Eigen::Matrix3Xd> iterativeAlign(const std::vector<Eigen::Matrix3Xd>& models, int iterations = 3);

} // namespace pl::protein
