#pragma once
/// A finite Markov decision process with sparse transitions: P(s'|s,a) as a list of successors per
/// (s, a), rewards R(s, a), named label sets (atomic propositions), and optionally a behaviour
/// policy β(a|s) and a tabular critic h(s). Plain data; copied freely between threads. No Qt.

#include <Eigen/Core>

#include <map>
#include <string>
#include <vector>

namespace pl::mdp {

/// One successor of a state-action pair: next state id and its probability.
struct Transition {
    int next = 0;
    double p = 0;
};

/// A finite MDP. States 0..states-1, actions 0..actions-1.
struct Mdp {
    int states = 0;
    int actions = 0;
    std::vector<std::vector<Transition>> rows;       ///< rows[s * actions + a]: successors, sorted by id
    Eigen::MatrixXd reward;                          ///< states x actions
    std::map<std::string, std::vector<char>> labels; ///< name -> membership (one entry per state)
    Eigen::MatrixXd policy;                          ///< states x actions behaviour policy; empty = none
    Eigen::VectorXd critic;                          ///< h(s) per state; empty = none
    std::string name;                                ///< one line for summaries

    /// Successors of (s, a).
    const std::vector<Transition>& row(int s, int a) const { return rows[size_t(s * actions + a)]; }
    /// Membership of label \a name (all false when the label is absent).
    std::vector<char> labelSet(const std::string& name) const;
    /// Dense transition matrix of action \a a (states x states).
    Eigen::MatrixXd transitionMatrix(int a) const;
    /// The state chain under policy \a beta (states x actions): P_β(s, s') = Σ_a β(a|s) P(s'|s,a).
    Eigen::MatrixXd behaviourChain(const Eigen::MatrixXd& beta) const;
    /// Sorts each row by successor id and merges duplicates (used by builders).
    void normalise();
};

/// Optimal value V* and a greedy optimal policy.
struct ValueSolution {
    Eigen::VectorXd value;
    std::vector<int> policy;
    int iterations = 0;
};

/// Q(s,a) = R(s,a) + γ Σ P(s'|s,a) v(s') for one pair.
double qValue(const Mdp& m, const Eigen::VectorXd& v, int s, int a, double gamma);
/// V^μ for a deterministic policy by an exact linear solve (I − γ P_μ) v = R_μ.
Eigen::VectorXd evaluatePolicy(const Mdp& m, const std::vector<int>& policy, double gamma);
/// V* by Howard policy iteration (exact evaluation; a switch needs an improvement > 1e-12).
ValueSolution solveOptimalValue(const Mdp& m, double gamma);

} // namespace pl::mdp
