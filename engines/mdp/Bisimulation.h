#pragma once
/// Bisimulation on a finite MDP: the coarsest bisimulation by partition refinement, the
/// behavioural (Ferns) metric as a fixed point with W1 inner problems, quotients and the
/// commuting-square (homomorphism) violation of an abstraction. Pure functions of their
/// arguments; cancellable through the RunContext. No Qt.

#include "core/RunContext.h"
#include "mdp/Mdp.h"

#include <Eigen/Core>

#include <vector>

namespace pl::mdp {

/// Tolerance under which rewards and block masses count as equal in partition refinement.
inline constexpr double kBisimTolerance = 1e-9;

/// Coarsest bisimulation: blocks start as classes of equal label sets and split until every two
/// states of a block have, for every action, equal rewards and equal mass into every block
/// (within kBisimTolerance of the block's first state). Block ids are 0.. in order of the
/// smallest state they contain.
std::vector<int> coarsestBisimulation(const Mdp& m);

/// True when \a block (one id per state) is a bisimulation: it respects label sets and, for all
/// pairs in one block, rewards and block masses agree within \a tol.
bool isBisimulation(const Mdp& m, const std::vector<int>& block, double tol = kBisimTolerance);

/// Outcome of the metric fixed point.
struct MetricResult {
    Eigen::MatrixXd d; ///< states x states, symmetric, zero diagonal
    int iterations = 0;
    double lastChange = 0; ///< max |d_k − d_{k−1}| of the last sweep
    long long transportSolves = 0;
    std::vector<double> changes; ///< max change per sweep
};

/// d(s,t) = max_a |R(s,a) − R(t,a)| + γ·W1_d(P(·|s,a), P(·|t,a)), iterated from d = 0 until the
/// change is ≤ \a tol (at most \a maxIterations sweeps; lastChange tells the caller).
MetricResult bisimulationMetric(const Mdp& m, double gamma, RunContext& ctx, double tol = 1e-12,
                                int maxIterations = 20000);

/// Number of blocks of a partition given as ids 0..k−1.
int blockCount(const std::vector<int>& block);

/// The aggregated MDP of a partition, weighting the states of a block uniformly:
/// R'(B,a) = mean_{s∈B} R(s,a), P'(B'|B,a) = mean_{s∈B} P(B'|s,a). A label holds on a block
/// when it holds on all of its states.
Mdp quotientMdp(const Mdp& m, const std::vector<int>& block);

/// Commuting-square violation of φ = \a block into \a q: max over s, a of
/// |R'(φs,a) − R(s,a)| and max_B' |P'(B'|φs,a) − (φ_#P(·|s,a))(B')|. Zero for a homomorphism.
double homomorphismViolation(const Mdp& m, const Mdp& q, const std::vector<int>& block);

/// Greedy ε-abstraction: states in index order join the first cluster all of whose members are
/// at metric distance < \a eps, else open a new cluster. Cluster ids 0.. in order of opening.
std::vector<int> greedyAbstraction(const Eigen::MatrixXd& d, double eps);

/// Largest metric distance between two states of one cluster (0 for singletons only).
double clusterDiameter(const Eigen::MatrixXd& d, const std::vector<int>& block);

} // namespace pl::mdp
