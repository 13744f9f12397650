#pragma once
/// Finite Markov chains: stationary law, total-variation decay max_s ‖P^t(s,·) − π‖_TV and the exact
/// mixing time t_mix = min{t : max_s ‖P^t(s,·) − π‖_TV ≤ 1/4}. Pure functions; any thread. No Qt.

#include <Eigen/Core>

#include <vector>

namespace pl::mdp {

/// Stationary law π (πP = π, Σπ = 1) of a row-stochastic \a P with one closed class, by an LU
/// solve with one balance equation replaced by the normalisation.
Eigen::VectorXd stationaryLaw(const Eigen::MatrixXd& P);

/// TV decay and mixing time.
struct MixingProfile {
    int tMix = -1;          ///< first t with max TV ≤ 1/4 (−1: not reached within the cap)
    std::vector<double> tv; ///< tv[t] = max_s ‖P^t(s,·) − π‖_TV for t = 0..
};

/// Powers P^t from t = 0 until max TV ≤ 1/4 and at least \a minSteps powers (at most \a maxSteps).
MixingProfile mixingProfile(const Eigen::MatrixXd& P, const Eigen::VectorXd& pi, int minSteps, int maxSteps);

} // namespace pl::mdp
