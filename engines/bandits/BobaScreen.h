#pragma once
/// The screening loop of the boba-screening panel. Round 0 evaluates a given uniform batch (the same
/// for every method); each later round either (BOBA) picks `arms_per_round` partitions by a bandit
/// policy, scores their unevaluated rows (or `subsample` per arm) with the Bayesian surrogate,
/// evaluates the batch/m best of each by mean + β·sd (remainder to the first-ranked arms) and
/// refits; or (full) scores every unevaluated row and evaluates the batch best; or (random)
/// evaluates a random batch. Arm reward: the share of the arm's evaluations in the running top q of
/// all evaluations so far. Pure C++; one thread.

#include "ArmPolicy.h"
#include "BitRegression.h"
#include "Fingerprints.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <vector>

namespace pl::bandits {

enum class ScreenMethod { Bandit, Full, Random };

struct ScreenSettings {
    ScreenMethod method = ScreenMethod::Bandit;
    ArmPolicy policy = ArmPolicy::Ucb;
    int rounds = 20, batch = 100, armsPerRound = 10, subsample = 0;
    double c = 1, beta = 1, q = 0.01, noise = 0.1, priorScale = 1;
};

struct ScreenOutcome {
    std::vector<int64_t> evalOrder;         ///< rows evaluated, in order (round 0 first)
    std::vector<double> evalsPerRound;      ///< cumulative evaluations after each round
    std::vector<double> inferencesPerRound; ///< cumulative surrogate inferences after each round
    std::vector<double> recallPerRound;     ///< top-set recall after each round
    int64_t inferences = 0;
    double recall = 0;
    Eigen::VectorXd posteriorMean;                    ///< after the last refit (bias first)
    std::vector<std::vector<int>> armsPerRoundChosen; ///< rounds 1.. : arms pulled
};

/// Runs one screen. \a y: per-row value to maximise; \a arm: per-row arm (0..numArms-1);
/// \a inTop: per-row membership of the top set; \a round0: rows evaluated in round 0.
ScreenOutcome runScreen(const PackedFingerprints& fp, const std::vector<double>& y,
                        const std::vector<int>& arm, int numArms, const std::vector<bool>& inTop,
                        const std::vector<int64_t>& round0, const ScreenSettings& s, Rng rng,
                        const std::function<void()>& poll);

} // namespace pl::bandits
