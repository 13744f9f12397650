#pragma once
/// Linear-bandit algorithms of the fair-linear-bandits panel on a finite arm set, run one
/// independent run at a time: FairLin-UCB and FairLin-PE (a fair exploration phase drawing from
/// ½ G-optimal design + ½ floor design, then LinUCB or LinPE warm-started with its data), and the
/// baselines LinUCB (OFUL), LinPE (Lattimore–Szepesvári ch. 22), LinNash (our reconstruction:
/// the same exploration phase with its own length, then phased elimination with multiplicative,
/// estimate-dependent widths), uniform and oracle. Every run adds μ(x_t) per round to a running
/// sum, so the caller can take the expectation over runs inside the p-mean. Pure C++; one thread.

#include "Design.h"

#include "core/Rng.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pl::bandits {

enum class LinearAlgorithm { FairLinUcb, FairLinPe, LinUcb, LinPe, LinNash, Uniform, Oracle };
inline constexpr int kLinearAlgorithmCount = 7;
/// All algorithms, in the panel's order.
const std::vector<LinearAlgorithm>& allLinearAlgorithms();
/// Result-key suffix: "fairlin_ucb", "fairlin_pe", "linucb", "linpe", "linnash", "uniform", "oracle".
std::string algorithmKey(LinearAlgorithm a);
/// Legend name ("FairLin-UCB", ...).
std::string algorithmName(LinearAlgorithm a);

enum class RewardModel { Bernoulli, Beta };

/// The arm set, the true means and the two designs (computed once per problem).
struct LinearProblem {
    Eigen::MatrixXd X;   ///< K x d arms
    Eigen::VectorXd mu;  ///< true mean rewards in [0, 1] (μ = Xθ* unless given per arm)
    DesignResult design; ///< G-optimal design on all arms
    FloorDesign floor;   ///< floor (John-centre) design
    double muStar = 0;   ///< max μ
};

struct LinearSettings {
    int64_t T = 5000;        ///< horizon (rounds)
    double p = 0;            ///< p of the p-mean (sets the fair phase length)
    double c1 = 1;           ///< fair phase constant: c₁(p) = c1·(1 + max(0, −p))
    double delta = 0.05;     ///< confidence level of LinUCB and LinPE
    double designEps = 0.01; ///< Frank–Wolfe tolerance of the designs in LinPE phases
    RewardModel reward = RewardModel::Bernoulli;
    double betaConcentration = 4; ///< Beta(μκ, (1−μ)κ) rewards
};

/// ⌈c₁(p)·√(T·d·log(T·K))⌉, at most T.
int64_t fairPhaseLength(int64_t T, int d, int K, double c1, double p);
/// LinNash's exploration length ⌈3·√(T·d·log(T·K))⌉, at most T.
int64_t linNashPhaseLength(int64_t T, int d, int K);

/// One run of \a alg: adds μ(x_t) to \a muSum[t] (size T) and 1 to \a pulls[arm] per round.
/// \a poll is called every 1024 rounds (may throw to cancel).
void simulateRun(const LinearProblem& problem, LinearAlgorithm alg, const LinearSettings& s, Rng& rng,
                 std::vector<double>& muSum, Eigen::VectorXd& pulls, const std::function<void()>& poll);

} // namespace pl::bandits
