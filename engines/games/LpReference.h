#pragma once
/// Exact reference for zero-sum matrix games: the value and optimal strategies from the
/// classical linear programs, solved with COIN-OR CLP (dual simplex). Row player maximises
/// x^T A y. No state; thread-safe (each call owns its solver object).

#include "DenseKernels.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>

namespace pl::games {

struct LpGameSolution {
    double value = 0;       ///< game value from the row player's LP (max v s.t. A^T x >= v 1)
    double columnValue = 0; ///< value from the column player's LP (min w s.t. A y <= w 1)
    Eigen::VectorXd x;      ///< optimal row strategy (clipped to >= 0 and renormalised)
    Eigen::VectorXd y;      ///< optimal column strategy
    double gap = 0;         ///< duality gap max(A y) - min(A^T x) of (x, y), recomputed here
    int64_t iterations = 0; ///< simplex iterations of both LPs
};

/// Solves both LPs with CLP. Throws pl::EngineError when CLP does not report optimality.
/// `check` (optional) runs after every simplex iteration; what it throws (e.g. pl::Cancelled)
/// stops CLP and is rethrown.
LpGameSolution solveZeroSumLp(const Eigen::MatrixXd& A, const CheckFn& check = {});

} // namespace pl::games
