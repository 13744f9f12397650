#pragma once
/// A small real-valued modal logic on an MDP (after Desharnais et al. and Ferns et al.): formulas
///   f ::= c | R_a | 1 − f | min(f, g) | max(f, g) | ⟨a⟩f = R(·,a) + γ·E_a f | ◇_a f = γ·E_a f
/// with E_a f(s) = Σ_s' P(s'|s,a) f(s'). Every formula is 1-Lipschitz for the bisimulation metric
/// (Kantorovich duality), so |f(s) − f(t)| ≤ d(s,t): sampling formulas checks that soundness.
/// Pure functions; the caller's Rng supplies the randomness. No Qt.

#include "core/Rng.h"
#include "mdp/Mdp.h"

#include <Eigen/Core>

#include <string>

namespace pl::mdp {

/// One sampled formula evaluated on every state, with its text.
struct FormulaValue {
    Eigen::VectorXd value;
    std::string text;
};

/// Samples a random formula of depth at most \a maxDepth and evaluates it on all states.
FormulaValue sampleFormula(const Mdp& m, double gamma, int maxDepth, Rng& rng);

} // namespace pl::mdp
