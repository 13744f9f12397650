#pragma once
/// Every parameter key and result key of the resettable-sketches panel (ResettableSketchesEngine),
/// declared once. Per-sketch keys are "<prefix><sketch>" with sketch ∈ kSketches (key()).

#include <string>

namespace pl::sketches::keys {

/// The sketches that get per-sketch keys.
inline constexpr const char* kSketches[] = {"baseline", "robust", "switching"};

/// "<prefix><sketch>".
inline std::string key(const char* prefix, const std::string& sketch) {
    return prefix + sketch;
}

/// Parameter keys.
namespace param {
inline constexpr char kStatistic[] = "statistic";
inline constexpr char kLpP[] = "lp_p";
inline constexpr char kSoftcapScale[] = "softcap_scale";
inline constexpr char kFCap[] = "f_cap";
inline constexpr char kK[] = "k";
inline constexpr char kEpsilon[] = "epsilon";
inline constexpr char kWorkload[] = "workload";
inline constexpr char kT[] = "T";
inline constexpr char kRestart[] = "restart";
inline constexpr char kUniverse[] = "universe";
inline constexpr char kSwitchAlpha[] = "switch_alpha";
inline constexpr char kCopies[] = "copies";
inline constexpr char kTreeT[] = "tree_t";
} // namespace param

/// ResultDocument::metrics keys (prefixes take a sketch name).
namespace metric {
inline constexpr char kFinalErrorPrefix[] = "final_error_";
inline constexpr char kPrefixMaxErrorPrefix[] = "prefix_max_error_";
inline constexpr char kTrueFinalPrefix[] = "true_final_";
inline constexpr char kAttackerAccuracyPrefix[] = "attacker_accuracy_";
inline constexpr char kMemoryPrefix[] = "memory_";
inline constexpr char kMemoryExact[] = "memory_exact";
inline constexpr char kFlipsSwitching[] = "flips_switching";
inline constexpr char kNoiseScale[] = "noise_scale"; ///< Laplace b of every tree node
inline constexpr char kTreeDepth[] = "tree_depth";   ///< L = ⌈log₂ horizon⌉
inline constexpr char kOperations[] = "operations";
inline constexpr char kTreeTime[] = "tree_time"; ///< step of the drawn tree
inline constexpr char kTreeReleased[] = "tree_released";
inline constexpr char kTreeExact[] = "tree_exact";
} // namespace metric

/// ResultDocument::series keys (prefixes take a sketch name).
namespace series {
inline constexpr char kTruePrefix[] = "true_";
inline constexpr char kEstimatePrefix[] = "estimate_";
inline constexpr char kPrefixErrorPrefix[] = "prefix_error_";
inline constexpr char kMemoryPrefix[] = "memory_";
inline constexpr char kAttackAccuracyPrefix[] = "attack_accuracy_";
} // namespace series

/// ResultDocument::graphs keys.
namespace graph {
inline constexpr char kTree[] = "tree"; ///< robust sketch's answering tree at tree_t
} // namespace graph

/// Claim::id values.
namespace claim {
inline constexpr char kBaselineFails[] = "baseline-fails-under-attack";
inline constexpr char kRobustFinal[] = "robust-final-error";
inline constexpr char kRobustPrefixMax[] = "robust-prefix-max-error";
inline constexpr char kAttackerBlind[] = "attacker-near-chance";
inline constexpr char kRobustMemory[] = "robust-memory-k-log-t";
} // namespace claim

} // namespace pl::sketches::keys
