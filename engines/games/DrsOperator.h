#pragma once
/// The Douglas-Rachford fixed-point map of a zero-sum matrix game and its regularised
/// semi-smooth Newton step. Row player maximises x^T A y; with z = (x, y) on Z = simplex_n x
/// simplex_m the monotone skew operator is F(z) = M z, M = [[0, -A], [A^T, 0]].
///
/// Residual R(w) = P_Z(w) - J(2 P_Z(w) - w) with the resolvent J = (I + gamma M)^{-1}, applied
/// through a Schur complement: a Cholesky factor of I + gamma^2 A^T A (or of I + gamma^2 A A^T,
/// whichever is smaller), computed once. At a zero w*, z* = P_Z(w*) is a Nash equilibrium and
/// w* = z* - gamma F(z*).
///
/// Newton step: with D = blockdiag(D_x, D_y), D_x = I_S - 1 1^T / |S| on the support S of
/// P(w_x) (zero elsewhere), V = D - J(2D - I) lies in the generalized Jacobian of R. The step
/// solves (V + mu J) d = -R, i.e. after multiplying by (I + gamma M),
///   ((1 + mu) I - D + gamma M D) d = -(I + gamma M) R,
/// a Levenberg-type regularisation (J is positive definite, J + J^T > 0) that tends to the
/// plain Newton step as mu -> 0. Columns outside the supports are (1 + mu) e_i, so only a
/// system on the supports remains; on the zero-sum subspace of the supports it is
/// mu I + gamma S, S = [[0, -C], [C^T, 0]] with C the doubly centred A(S_x, S_y): dense LU of
/// size |S_x| + |S_y| (or, for large supports, (mu I - gamma S)(mu^2 I + gamma^2 S^T S)^{-1}
/// with two Cholesky factorisations of sizes |S_x| and |S_y| and iterative refinement).
/// Not thread-safe; holds a reference to A, which must outlive it.

#include "DenseKernels.h"
#include "SolverWork.h"

#include <Eigen/Core>
#include <vector>

namespace pl::games {

class DrsOperator {
public:
    /// Factors the resolvent: O(k^3 / 3 + n m k) flops, k = min(n, m); gamma > 0. `check` is
    /// called between blocks (may throw pl::Cancelled).
    /// Reduced Newton systems of size |S_x| + |S_y| <= luMaxSize are solved by dense LU;
    /// larger ones by Cholesky on the normal equations plus iterative refinement (cheaper and
    /// cancellable, but less accurate when the system is ill-conditioned).
    DrsOperator(const Eigen::MatrixXd& A, double gamma, SolverWork& work, const CheckFn& check = {},
                int luMaxSize = 1200);

    int rows() const { return int(m_A.rows()); }
    int cols() const { return int(m_A.cols()); }
    double gamma() const { return m_gamma; }

    /// P_Z(w): projects the x block (first n entries) and the y block on their simplices.
    void project(const Eigen::VectorXd& w, Eigen::VectorXd& z) const;
    /// out = J v = (I + gamma M)^{-1} v (two products with A and one Cholesky solve); out != v.
    void resolvent(const Eigen::VectorXd& v, Eigen::VectorXd& out);
    /// R = P_Z(w) - J(2 P_Z(w) - w); fills z = P_Z(w); returns ||R||_2.
    double residual(const Eigen::VectorXd& w, Eigen::VectorXd& z, Eigen::VectorXd& R);
    /// The DRS point of a strategy pair: w = z - gamma F(z), F(z) = (-A y, A^T x).
    Eigen::VectorXd lift(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

    /// Regularised semi-smooth Newton direction at w (z = P_Z(w), R = R(w)): solves
    /// (V + mu J) d = -R. Returns false when the reduced systems are numerically singular.
    bool newtonDirection(const Eigen::VectorXd& z, const Eigen::VectorXd& R, double mu, Eigen::VectorXd& d);

    /// The support-restricted Newton matrix (1 + mu) I - D + gamma M D on (S_x, S_y) of z,
    /// rows/columns ordered S_x then S_y (for display).
    Eigen::MatrixXd reducedNewtonMatrix(const Eigen::VectorXd& z, double mu) const;
    /// Condition number sigma_max / sigma_min of the doubly centred A(S_x, S_y) on its
    /// non-trivial part (infinite when singular or |S_x| != |S_y|, where the reduced Newton system
    /// is singular without regularisation; 1 for pure strategies). Returns NaN when
    /// min(|S_x|, |S_y|) > maxSize.
    double reducedCondition(const Eigen::VectorXd& z, int maxSize = 300) const;

private:
    Eigen::MatrixXd centredSubmatrix(const std::vector<int>& Sx, const std::vector<int>& Sy) const;
    void applySkew(const Eigen::MatrixXd& C, double mu, const Eigen::VectorXd& p, Eigen::VectorXd& out) const;
    bool solveReducedLu(const Eigen::MatrixXd& C, double mu, const Eigen::VectorXd& f, Eigen::VectorXd& p);
    bool solveReducedNormal(const Eigen::MatrixXd& C, double mu, const Eigen::VectorXd& f,
                            Eigen::VectorXd& p);

    const Eigen::MatrixXd& m_A;
    double m_gamma;
    SolverWork& m_work;
    CheckFn m_check;
    int m_luMaxSize;
    bool m_factorCols;     ///< true: factor I + gamma^2 A^T A (m x m); else I + gamma^2 A A^T
    Eigen::MatrixXd m_L;   ///< lower Cholesky factor
    Eigen::VectorXd m_tmp; ///< scratch for the resolvent
    Eigen::VectorXd m_tmp2;
};

} // namespace pl::games
