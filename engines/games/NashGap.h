#pragma once
/// Equilibrium certificates: best responses, Nash gaps of bimatrix and N-player games, and the
/// duality gap of zero-sum matrix games. Convention: in a zero-sum game the row player
/// MAXIMISES x^T A y and the column player minimises it. Pure functions; thread-safe.

#include "Game.h"

#include <Eigen/Core>
#include <vector>

namespace pl::games {

/// The two bounds of a zero-sum profile (x, y): for every x', y'
/// lower = min_j (A^T x)_j <= value of the game <= upper = max_i (A y)_i.
struct ZeroSumCertificate {
    double upper = 0;                            ///< max_i (A y)_i: what the row player could get against y
    double lower = 0;                            ///< min_j (A^T x)_j: what x guarantees the row player
    double value = 0;                            ///< x^T A y
    double gap() const { return upper - lower; } ///< duality gap, >= 0, = 0 iff (x, y) is an equilibrium
};

/// Certificate of (x, y) for the row-maximiser game A (two matrix-vector products).
ZeroSumCertificate zeroSumCertificate(const Eigen::MatrixXd& A, const Eigen::VectorXd& x,
                                      const Eigen::VectorXd& y);

/// Duality gap max(A y) - min(A^T x) of the row-maximiser game A.
double dualityGap(const Eigen::MatrixXd& A, const Eigen::VectorXd& x, const Eigen::VectorXd& y);

/// Indices of the maximal entries of `payoffs` (ties within `tol`), i.e. pure best responses
/// of a player whose expected payoff per pure strategy is `payoffs`.
std::vector<int> bestResponses(const Eigen::VectorXd& payoffs, double tol = 1e-12);

/// Nash gap of a bimatrix game (A: row player's payoffs, B: column player's, both maximised):
/// (max(A y) - x^T A y) + (max(B^T x) - x^T B y). Zero iff (x, y) is a Nash equilibrium.
double bimatrixNashGap(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::VectorXd& x,
                       const Eigen::VectorXd& y);

/// Expected payoff of each pure strategy of `player` against the others' mixed strategies
/// (sigma[p] has numStrategies[p] entries). Cost O(players x profiles).
Eigen::VectorXd purePayoffs(const NormalFormGame& game, const std::vector<Eigen::VectorXd>& sigma,
                            int player);

/// N-player Nash gap: sum over players of (best pure payoff - expected payoff).
double nashGap(const NormalFormGame& game, const std::vector<Eigen::VectorXd>& sigma);

} // namespace pl::games
