#pragma once
/// Every parameter key and result key of the template panel (TemplateEngine), declared once. The
/// engine writes results under these names and the figures read them through the same constants,
/// so a renamed key is a compile error; tests/plugins/tst_panel_keys checks that every key a
/// figure reads is in the result. Plain `const char[]`: they convert to std::string wherever one
/// is expected.

namespace pl::templ::keys {

/// Parameter keys (ParamSpec::key; `--set KEY=VALUE`, sessions, presets).
namespace param {
inline constexpr char kWalkers[] = "walkers";
inline constexpr char kSteps[] = "steps";
inline constexpr char kSigma[] = "sigma";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kMsdFinal[] = "msd_final";
inline constexpr char kSlopeRatio[] = "slope_ratio";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kMsd[] = "msd";
} // namespace series

/// Claim::id values.
namespace claim {
inline constexpr char kLinearMsd[] = "linear-msd";
} // namespace claim

} // namespace pl::templ::keys
