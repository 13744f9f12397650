#pragma once
/// Every parameter key and result key of the care-recsets panel (CareRecsetsEngine), declared once.
/// Per-method keys are "<prefix><method>" with method ∈ kMethods (key()).

#include <string>

namespace pl::care::keys {

/// Methods with risk and size keys.
inline constexpr const char* kMethods[] = {"static", "aci", "care", "aggregate", "union"};
/// Methods with a λ trajectory.
inline constexpr const char* kLambdaMethods[] = {"static", "aci", "care"};

/// "<prefix><method>".
inline std::string key(const char* prefix, const std::string& method) {
    return prefix + method;
}

/// Parameter keys.
namespace param {
inline constexpr char kAlpha[] = "alpha";
inline constexpr char kEta[] = "eta";
inline constexpr char kEtaW[] = "eta_w";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kNCal[] = "n_cal";
inline constexpr char kKappa[] = "kappa";
inline constexpr char kH[] = "h";
inline constexpr char kNMin[] = "n_min";
inline constexpr char kMaxSize[] = "max_size";
inline constexpr char kAggregation[] = "aggregation";
inline constexpr char kLoss[] = "loss";
inline constexpr char kLength[] = "length";
inline constexpr char kChangePoints[] = "change_points";
inline constexpr char kDrift[] = "drift";
inline constexpr char kWindow[] = "window";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kRiskPrefix[] = "risk_"; ///< mean loss after the first n_cal rows
inline constexpr char kSizePrefix[] = "size_"; ///< mean set size after the first n_cal rows
inline constexpr char kLambdaStatic[] = "lambda_static";
inline constexpr char kDetectionDelay[] = "detection_delay"; ///< rows; NaN without known change points
inline constexpr char kFalseAlarms[] = "false_alarms";       ///< NaN without known change points
inline constexpr char kRows[] = "rows";
inline constexpr char kConstituents[] = "constituents";
inline constexpr char kMissingTrue[] =
    "missing_true"; ///< rows of the first file whose true item is no candidate
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kRiskPrefix[] = "risk_";     ///< windowed risk per method
inline constexpr char kSizePrefix[] = "size_";     ///< windowed mean size per method
inline constexpr char kLambdaPrefix[] = "lambda_"; ///< served λ per method
inline constexpr char kWeightPrefix[] = "weight_"; ///< aggregation weight of constituent i (0-based)
} // namespace series

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kRiskByModel[] = "risk_by_model";
inline constexpr char kSizeByModel[] = "size_by_model";
inline constexpr char kAlarms[] = "alarms";              ///< first file's CARE alarms (0-based rows)
inline constexpr char kChangePoints[] = "change_points"; ///< true change rows of the stand-in
inline constexpr char kChangeEstimates[] = "change_estimates";
} // namespace vector

/// Claim::id values.
namespace claim {
inline constexpr char kCareRisk[] = "care-risk-controlled";
inline constexpr char kStaticViolates[] = "static-violates-after-drift";
inline constexpr char kDetectionDelay[] = "detection-delay";
inline constexpr char kFalseAlarms[] = "false-alarms";
inline constexpr char kAggregateSize[] = "aggregate-size";
} // namespace claim

} // namespace pl::care::keys
