#pragma once
/// The PAC-Bayes bound lab of pac-bayes-sac (specs-004 §2): chains of transitions Z_t = (s_t, a_t,
/// s_{t+1}) under a behaviour policy from s_1 ~ π, a tabular critic h with Gaussian prior
/// N(h₀, σ_P² I) and posterior N(μ, σ² I), the clipped TD loss ℓ = min(1, (r + γh(s′) − h(s))²/c²)
/// whose posterior mean is closed form, and the bound
///   E_Q L ≤ E_Q L̂ + min_{λ ∈ {2^0..2^40}} (KL + ln(41/δ))/λ + τλ/(8n).
/// Pure functions; randomness from the caller's Rng. No Qt.

#include "core/Rng.h"
#include "mdp/Mdp.h"

#include <Eigen/Core>

#include <vector>

namespace pl::mdp {

/// E[min(1, X²/c²)] for X ~ N(mean, var) (var ≥ 0).
double expectedClippedSquare(double mean, double var, double c);

/// KL(N(μ, σ²I) ‖ N(h₀, σ_P²I)).
double gaussianKl(const Eigen::VectorXd& mu, double sigma, const Eigen::VectorXd& h0, double sigmaP);

/// min over λ ∈ {2^0, …, 2^40} of (kl + ln(41/δ))/λ + τλ/(8n).
double complexityTerm(double kl, double delta, double tau, double n);

/// The same minimum and the λ that attains it (d value / d kl = 1/λ there; used to train on the bound).
struct Complexity {
    double value = 0;
    double lambda = 1;
};
Complexity complexityAt(double kl, double delta, double tau, double n);

/// The joint law of one transition from each state: entries (a, s′, probability) in a flat
/// list per state, with the cumulative sums used for sampling.
struct TransitionTable {
    struct Entry {
        int s = 0, a = 0, next = 0;
        double p = 0; ///< β(a|s) P(s′|s,a)
        double r = 0; ///< R(s,a)
    };
    std::vector<Entry> entries;     ///< grouped by s
    std::vector<int> first;         ///< entries of s: [first[s], first[s+1])
    std::vector<double> cumulative; ///< running sum of p within each state's group
    std::vector<double> aliasProb;  ///< Walker/Vose alias table within each state's group: keep entry k
    std::vector<int> alias;         ///< with probability aliasProb[k], else take entry alias[k]
};

/// The table of \a m under behaviour \a beta (states x actions).
TransitionTable transitionTable(const Mdp& m, const Eigen::MatrixXd& beta);

/// Counts of each table entry along one chain of \a n transitions started from \a pi (one uniform
/// per step through the alias tables).
std::vector<int> sampleChainCounts(const TransitionTable& t, const Eigen::VectorXd& pi, int64_t n, Rng& rng);

/// E_Q ℓ of one transition for the posterior N(μ, σ²I).
double posteriorLoss(const TransitionTable::Entry& e, const Eigen::VectorXd& mu, double sigma, double gamma,
                     double c);

/// Posterior-mean loss over counts (empirical risk) or over the stationary law (true risk, when
/// \a counts is empty: weights π(s)·p of each entry).
double risk(const TransitionTable& t, const std::vector<int>& counts, int64_t n, const Eigen::VectorXd& pi,
            const Eigen::VectorXd& mu, double sigma, double gamma, double c);

/// Tabular LSTD(0) from counts with a unit ridge towards \a h0: (A + I)(μ − h₀) = b − A h₀.
Eigen::VectorXd lstdMean(const TransitionTable& t, const std::vector<int>& counts, int states,
                         const Eigen::VectorXd& h0, double gamma);

} // namespace pl::mdp
