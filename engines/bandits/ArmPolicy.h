#pragma once
/// Multi-armed bandit policies that pick m of A arms per round from each arm's pull count n_a and
/// mean reward μ̂_a: UCB1 (μ̂_a + c√(2 ln N / n_a), unpulled arms first), Thompson (Gaussian:
/// μ̂_a + c·ξ/√(n_a + 1)), ε-greedy (ε = 0.1 per slot), greedy and uniform. Ties are broken by a
/// random order. Pure functions; any thread.

#include "core/Rng.h"

#include <string>
#include <vector>

namespace pl::bandits {

enum class ArmPolicy { Ucb, Thompson, EpsilonGreedy, Greedy, Uniform };

/// "ucb" | "thompson" | "egreedy" | "greedy" | "uniform"; throws UsageError otherwise.
ArmPolicy armPolicyFromString(const std::string& s);

/// The \a m arms to pull (best first) among those with \a eligible[a] true.
std::vector<int> chooseArms(ArmPolicy policy, const std::vector<double>& pulls,
                            const std::vector<double>& meanReward, const std::vector<bool>& eligible, int m,
                            double c, Rng& rng);

} // namespace pl::bandits
