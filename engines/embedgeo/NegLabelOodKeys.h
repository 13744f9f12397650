#pragma once
/// Every parameter and result key of the negative-label-ood panel (NegLabelOodEngine), declared once.
/// Per-method keys are "<prefix><method>", method ∈ neglabel, kl, renyi.

#include <string>

namespace pl::embedgeo::negood::keys {

/// Method names, in the panel's order.
inline constexpr const char* kMethods[] = {"neglabel", "kl", "renyi"};

/// "<prefix><method>".
inline std::string key(const char* prefix, const char* method) {
    return std::string(prefix) + method;
}

namespace param {
inline constexpr char kTau[] = "tau";
inline constexpr char kRho[] = "rho";
inline constexpr char kAlpha[] = "alpha";
inline constexpr char kGroups[] = "groups";
inline constexpr char kNegCount[] = "neg_count";
inline constexpr char kOutliers[] = "outliers";
inline constexpr char kPick[] = "pick";
inline constexpr char kConcepts[] = "concepts";
inline constexpr char kDim[] = "dim";
inline constexpr char kIdClasses[] = "id_classes";
inline constexpr char kNegatives[] = "negatives";
inline constexpr char kImages[] = "images";
inline constexpr char kOpenWorldBias[] = "open_world_bias";
} // namespace param

namespace metric {
inline constexpr char kAurocPrefix[] = "auroc_"; ///< + method
inline constexpr char kFpr95Prefix[] = "fpr95_"; ///< + method
inline constexpr char kEssKl[] = "ess_kl"; ///< mean ESS of the KL worst case over up to 300 + 300 images
inline constexpr char kEssRenyi[] = "ess_renyi";
inline constexpr char kRhoKlTuned[] = "rho_kl_tuned";
inline constexpr char kRhoRenyiTuned[] = "rho_renyi_tuned";
inline constexpr char kDeltaPrefix[] = "delta_auroc_"; ///< + method: clean − with 10 outliers
inline constexpr char kNegatives[] = "negatives";
inline constexpr char kImages[] = "images";
inline constexpr char kEssPickKl[] = "ess_pick_kl";
inline constexpr char kEssPickRenyi[] = "ess_pick_renyi";
inline constexpr char kPickIsId[] = "pick_is_id";
} // namespace metric

namespace vector {
inline constexpr char kScorePrefix[] = "score_"; ///< + method, N, high = ID
inline constexpr char kIsId[] = "is_id";
inline constexpr char kWeightsKl[] = "weights_kl"; ///< worst-case weights of image `pick`, negatives order
inline constexpr char kWeightsRenyi[] = "weights_renyi";
inline constexpr char kPickNegSim[] = "pick_neg_sim"; ///< s̃ of image `pick`
inline constexpr char kAlphaGrid[] = "alpha_grid";
inline constexpr char kRhoGrid[] = "rho_grid";
} // namespace vector

namespace matrix {
inline constexpr char kAurocAlphaRho[] = "auroc_alpha_rho"; ///< alpha rows x rho cols, Rényi AUROC
} // namespace matrix

namespace series {
inline constexpr char kRocPrefix[] = "roc_";          ///< + method
inline constexpr char kHistIdPrefix[] = "hist_id_";   ///< + method: density of ID scores
inline constexpr char kHistOodPrefix[] = "hist_ood_"; ///< + method
inline constexpr char kDeltaVsOutliersPrefix[] = "delta_auroc_vs_outliers_"; ///< + method
} // namespace series

namespace claim {
inline constexpr char kOutlierRobust[] = "renyi-drop-below-half-of-kl-and-neglabel";
inline constexpr char kLessPessimistic[] = "renyi-larger-ess-at-matched-auroc";
} // namespace claim

} // namespace pl::embedgeo::negood::keys
