#pragma once
/// Kantorovich (W1) distance between two discrete laws on a finite set under a ground cost d,
/// solved exactly as a transportation problem by LEMON's network simplex (header-only use,
/// LEMON_ONLY_TEMPLATES; Boost licence). Not thread-safe per object: give each thread its own
/// TransportSolver.

#include "mdp/Mdp.h"

#include <Eigen/Core>

#include <vector>

namespace pl::mdp {

/// Reusable W1 solver (keeps its buffers between calls).
class TransportSolver {
public:
    /// W1_d(p, q) = min Σ_ij x_ij d(i, j) over couplings x of p and q. \a p and \a q are sparse
    /// laws (ids into \a d, masses summing to 1 up to rounding); \a d is square and non-negative.
    double w1(const std::vector<Transition>& p, const std::vector<Transition>& q, const Eigen::MatrixXd& d);
    /// Number of transport problems handed to the network simplex so far.
    long long solves() const { return m_solves; }

private:
    long long m_solves = 0;
    std::vector<Transition> m_p, m_q;
};

} // namespace pl::mdp
