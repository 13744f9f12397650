#pragma once
/// Every parameter and result key of the boba-screening panel (BobaScreeningEngine), declared once.
/// Per-method keys are "<prefix><method>", method ∈ boba, full, random, boba_random_partitions,
/// boba_greedy.

#include <string>

namespace pl::bandits::boba::keys {

/// "<prefix><method>".
inline std::string key(const char* prefix, const char* method) {
    return std::string(prefix) + method;
}

/// Method names, in the panel's order.
inline constexpr const char* kMethods[] = {"boba", "full", "random", "boba_random_partitions", "boba_greedy"};

namespace param {
inline constexpr char kPolicy[] = "policy";
inline constexpr char kPartition[] = "partition";
inline constexpr char kRounds[] = "rounds";
inline constexpr char kBatch[] = "batch";
inline constexpr char kArmsPerRound[] = "arms_per_round";
inline constexpr char kSubsample[] = "subsample";
inline constexpr char kC[] = "c";
inline constexpr char kBeta[] = "beta";
inline constexpr char kQ[] = "q";
inline constexpr char kNoise[] = "noise";
inline constexpr char kPriorScale[] = "prior_scale";
inline constexpr char kDirection[] = "direction";
inline constexpr char kNA[] = "n_a";
inline constexpr char kNB[] = "n_b";
inline constexpr char kGammaA[] = "gamma_a";
inline constexpr char kOmega[] = "omega";
} // namespace param

namespace metric {
inline constexpr char kRecallPrefix[] = "recall_";         ///< + method
inline constexpr char kInferencesPrefix[] = "inferences_"; ///< + method
inline constexpr char kTopSize[] = "top_size";
inline constexpr char kLibrarySize[] = "library_size";
inline constexpr char kArms[] = "arms";
inline constexpr char kGapAtGamma[] = "gap_at_gamma"; ///< recall(boba) − recall(random partitions)
inline constexpr char kGapAtGammaZero[] = "gap_at_gamma_zero";
} // namespace metric

namespace series {
inline constexpr char kRecallVsEvalsPrefix[] = "recall_vs_evals_";           ///< + method
inline constexpr char kRecallVsInferencesPrefix[] = "recall_vs_inferences_"; ///< + method
} // namespace series

namespace vector {
inline constexpr char kEvalOrder[] = "eval_order";
inline constexpr char kPosteriorMean[] = "posterior_mean";
} // namespace vector

namespace matrix {
inline constexpr char kArmPulls[] = "arm_pulls";         ///< arms (by true mean) x rounds 1..R-1
inline constexpr char kScoreMap[] = "score_map";         ///< arms (by true mean) x row bins: best score
inline constexpr char kEvaluatedMap[] = "evaluated_map"; ///< same grid: rows BOBA evaluated
} // namespace matrix

namespace claim {
inline constexpr char kRecallAtLowCost[] = "boba-recall-at-30pct-inferences";
inline constexpr char kOptimismAndPartitions[] = "greedy-and-random-partitions-10-points-lower";
inline constexpr char kDoseResponse[] = "advantage-shrinks-as-gamma-to-0";
} // namespace claim

} // namespace pl::bandits::boba::keys
