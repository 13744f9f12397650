#pragma once
/// Invariants and reachability on a finite MDP as fixed points of one-step operators. Pure
/// functions; any thread. No Qt.

#include "mdp/Mdp.h"

#include <Eigen/Core>

#include <vector>

namespace pl::mdp {

/// Controllable invariant νX. Safe ∧ ◇_a □X: the largest X ⊆ safe in which from every state some
/// action keeps every positive-probability successor in X (0/1 per state).
std::vector<char> controllableInvariant(const Mdp& m, const std::vector<char>& safe);

/// Maximal probability of ever reaching \a goal, μX.(Goal ∨ max_a E_a X): value iteration from 0
/// until the change is ≤ \a tol (the least fixed point; iterations reported through \a iterations).
Eigen::VectorXd maxReachProbability(const Mdp& m, const std::vector<char>& goal, double tol = 1e-13,
                                    int* iterations = nullptr);

} // namespace pl::mdp
