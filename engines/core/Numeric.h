#pragma once
/// Small numeric and formatting helpers shared by every engine (one home instead of a copy per
/// file): NaN and tau constants, number formatting for claim details and notes, Eigen → std::vector.
/// Pure functions; any thread. No Qt.

#include <Eigen/Core>

#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace pl {

/// Quiet NaN: "not observed" in metrics and claims (written as JSON null).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// 2 pi.
inline constexpr double kTau = 2.0 * std::numbers::pi;

/// \a v formatted with one printf conversion for a double, e.g. formatNumber("%.2g", v) (C locale
/// rules of std::snprintf; at most 63 characters).
std::string formatNumber(const char* printfFormat, double v);
/// \a v with \a digits significant digits, printf "%.*g" (std::snprintf).
std::string formatSignificant(double v, int digits = 3);
/// \a v with \a digits digits after the point, printf "%.*f" (std::snprintf).
std::string formatFixed(double v, int digits = 3);
/// \a v written by a std::ostringstream with precision \a digits (default float format: like "%.*g",
/// in the stream's classic locale).
std::string formatStreamed(double v, int digits = 3);

/// The coefficients of a vector (or any dense Eigen expression, in storage order of its evaluation:
/// coefficient i for a vector) as std::vector.
template <class Derived> std::vector<double> toStd(const Eigen::DenseBase<Derived>& v) {
    const typename Derived::PlainObject plain = v.derived();
    return std::vector<double>(plain.data(), plain.data() + plain.size());
}

} // namespace pl
