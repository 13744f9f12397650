#pragma once
/// Power (p-) means of positive numbers: M_p = ((1/n) Σ y^p)^{1/p}, M_0 the geometric mean (Nash
/// welfare), M_{-inf} the minimum. Pure functions; any thread.

#include <vector>

namespace pl::bandits {

/// M_p of \a y (non-negative values). p = 0: exp(mean log y). For p <= 0 a zero value gives 0.
/// Empty input gives NaN.
double pMean(const std::vector<double>& y, double p);

/// Least-squares slope of log y against log x over the points with x, y > 0 (NaN with fewer than 2).
double logLogSlope(const std::vector<double>& x, const std::vector<double>& y);

} // namespace pl::bandits
