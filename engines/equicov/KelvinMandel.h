#pragma once
/// Kelvin-Mandel coordinates of symmetric 3x3 tensors and the representation theory of the
/// equivariant-covariance panel (spec §9.2): v(T) = (T11, T22, T33, sqrt2 T23, sqrt2 T13, sqrt2 T12),
/// rho(R) v(T) = v(R T R^T) (orthogonal for every R in O(3)), the so(3) generators induced on R^6 and
/// on sym(6) (S -> G S + S G^T), the Casimir operator of that action and its eigenspaces (l = 0, 2, 4;
/// dimensions 2, 10, 9), whose projectors measure the "irrep power" of a generator S. Pure
/// functions; any thread.
#include <Eigen/Core>

#include <array>

namespace pl::equicov {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// v(T) of a symmetric 3x3 tensor (only the upper triangle is read).
Vec6 kelvinMandel(const Eigen::Matrix3d& t);
/// The symmetric tensor of a Kelvin-Mandel vector.
Eigen::Matrix3d tensorOf(const Vec6& v);
/// rho(R): the 6x6 matrix with rho(R) v(T) = v(R T R^T).
Mat6 rho(const Eigen::Matrix3d& r);
/// The three so(3) generators induced on R^6: G_a v(T) = v(L_a T + T L_a^T).
std::array<Mat6, 3> inducedGenerators();

/// svec of a symmetric 6x6 matrix in the orthonormal basis of sym(6) (21 coordinates: diagonal
/// entries, then sqrt2 times the upper off-diagonal entries row by row); ||svec S|| = ||S||_F.
Eigen::Matrix<double, 21, 1> svec(const Mat6& s);

/// The eigenspaces of the Casimir C = -sum_a A_a^2 of the action A_a S = G_a S + S G_a^T on sym(6).
struct IrrepDecomposition {
    Eigen::Matrix<double, 21, 21> casimir;
    Eigen::Matrix<double, 21, 1> eigenvalues; ///< ascending
    std::array<Eigen::MatrixXd, 3> bases;     ///< orthonormal bases (21 x dim) for l = 0, 2, 4
    std::array<int, 3> dims{};                ///< 2, 10, 9
    /// ||P_l S||_F^2 for l = 0, 2, 4.
    Eigen::Vector3d power(const Mat6& s) const;
};

/// Computes the decomposition (eigenvalues grouped at l(l+1) = 0, 6, 20 within 1e-8).
const IrrepDecomposition& irrepDecomposition();

} // namespace pl::equicov
