#pragma once
/// Every parameter and result key of the fair-linear-bandits panel (FairLinearBanditsEngine),
/// declared once; the engine writes and the figures read through these constants. Per-algorithm
/// keys are "<prefix><alg>" with alg from algorithmKey() (fairlin_ucb, fairlin_pe, linucb, linpe,
/// linnash, uniform, oracle); build them with key().

#include <string>

namespace pl::bandits::fair::keys {

/// "<prefix><alg>".
inline std::string key(const char* prefix, const std::string& alg) {
    return prefix + alg;
}

namespace param {
inline constexpr char kP[] = "p";
inline constexpr char kT[] = "T";
inline constexpr char kRuns[] = "runs";
inline constexpr char kC1[] = "c1";
inline constexpr char kDelta[] = "delta";
inline constexpr char kDesignEps[] = "design_eps";
inline constexpr char kReward[] = "reward";
inline constexpr char kD[] = "d";
inline constexpr char kK[] = "K";
inline constexpr char kMuMin[] = "mu_min";
inline constexpr char kSlow[] = "slow";
} // namespace param

namespace metric {
inline constexpr char kRegretPrefix[] = "regret_"; ///< + alg: R_p at the run's p
inline constexpr char kDesignGmax[] = "design_gmax";
inline constexpr char kFairFloor[] = "fair_floor";
inline constexpr char kMuStar[] = "mu_star";
inline constexpr char kPhase1Length[] = "phase1_length";
inline constexpr char kDesignIterations[] = "design_iterations";
inline constexpr char kSlopeFairlinPe[] = "slope_fairlin_pe"; ///< only with slow
} // namespace metric

namespace series {
inline constexpr char kExpectedRewardPrefix[] = "expected_reward_";     ///< + alg: x = t
inline constexpr char kRegretVsPPrefix[] = "regret_vs_p_";              ///< + alg: x = p
inline constexpr char kRegretVsTPrefix[] = "regret_vs_T_";              ///< + alg: x = T
inline constexpr char kDesignConvergence[] = "design_convergence";      ///< g/d − 1 per Frank–Wolfe step
inline constexpr char kSlowRegretVsT[] = "slow_regret_vs_T_fairlin_pe"; ///< only with slow
} // namespace series

namespace vector {
inline constexpr char kDesignWeights[] = "design_weights";
inline constexpr char kFloorWeights[] = "floor_weights";
inline constexpr char kArmMu[] = "arm_mu";
inline constexpr char kPullsPrefix[] = "pulls_"; ///< + alg: mean pulls per arm
} // namespace vector

namespace matrix {
inline constexpr char kArmCoords[] = "arm_coords";     ///< K x 3 principal-component coordinates
inline constexpr char kFloorCoords[] = "floor_coords"; ///< 1 x 3: the floor design's mean arm
} // namespace matrix

namespace claim {
inline constexpr char kDesignOptimal[] = "design-g-optimal";
inline constexpr char kFairUcbBeatsUcb[] = "fairlin-ucb-le-linucb";
inline constexpr char kFairPeVsLinNash[] = "fairlin-pe-le-1.05-linnash";
inline constexpr char kSmallPrice[] = "fairlin-le-1.3-linucb-at-p1";
inline constexpr char kSublinear[] = "fairlin-pe-sublinear";
} // namespace claim

} // namespace pl::bandits::fair::keys
