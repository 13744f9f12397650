#pragma once
/// Exact-potential-game detection. Two players: A - B = f(i) + g(j), i.e. every 2x2 interaction
/// contrast of A - B vanishes. N players: the Monderer-Shapley test, every closed 4-cycle of
/// unilateral deviations by two players sums to zero (checked on the basis cycles through
/// strategy 0 of both players, which span all 4-cycles). Pure functions; thread-safe.

#include <Eigen/Core>
#include <string>
#include <vector>

namespace pl {
class RunContext;
}

namespace pl::games {

struct PotentialReport {
    bool isPotential = false;
    double maxContrast = 0;  ///< largest |4-cycle sum| found (payoff units)
    double tolerance = 0;    ///< the threshold it was compared with
    double maxDeviation = 0; ///< largest |Delta u_k - Delta Phi| of the constructed Phi (check)
    /// Two players: the potential matrix (rows x cols); N players: empty. Normalised so that
    /// Phi = A for identical-interest games (a potential is defined up to a constant).
    Eigen::MatrixXd phi;
    /// N players: the potential over pure profiles in Gambit order (player 0 fastest); for two
    /// players the same values column-major. Empty when there is no potential.
    std::vector<double> phiFlat;
    std::string detail; ///< one sentence: which contrast failed, or why it holds
};

/// Tolerance used when none is given: relTol * max(1, max |payoff|).
double potentialTolerance(double maxAbsPayoff, double relTol = 1e-9);

/// Two-player test on payoff matrices of equal shape.
PotentialReport checkPotential(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double relTol = 1e-9);

/// N-player test. payoffs[p][profile] in Gambit order (player 0's strategy changes fastest).
/// `ctx` (optional) is polled for cancellation on large games.
PotentialReport checkPotential(const std::vector<int>& numStrategies,
                               const std::vector<std::vector<double>>& payoffs, double relTol = 1e-9,
                               const RunContext* ctx = nullptr);

} // namespace pl::games
