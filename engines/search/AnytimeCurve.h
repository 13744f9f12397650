#pragma once
/// Anytime curves of searches repeated under a budget: a best-so-far (or recall-so-far) trace
/// resampled as a step function onto a common grid of budgets, and the median with the
/// interquartile range over repeats at each grid point. Quantiles interpolate linearly between
/// order statistics (numpy's default, "linear"). Pure functions; any thread.

#include <vector>

namespace pl::search {

/// Median and quartiles over repeats at each budget of the grid.
struct AnytimeSummary {
    std::vector<double> budget; ///< the grid (e.g. evaluations or expensive calls)
    std::vector<double> median; ///< NaN where no repeat has a value yet
    std::vector<double> q25;
    std::vector<double> q75;
    std::vector<int> count; ///< repeats with a finite value at that budget
};

/// The q-quantile (q in [0, 1]) of the finite entries of \a v, linear interpolation between order
/// statistics; NaN when none is finite.
double quantile(std::vector<double> v, double q);

/// The value of a step trace at every grid budget: the last value whose budget is <= the grid
/// point (\a budgets ascending, same length as \a values); NaN before the first.
std::vector<double> resampleStep(const std::vector<double>& budgets, const std::vector<double>& values,
                                 const std::vector<double>& grid);

/// The running minimum of \a values (best-so-far of a minimisation trace).
std::vector<double> runningMin(const std::vector<double>& values);

/// Median and IQR over \a repeats, each already on \a grid (same length as the grid).
AnytimeSummary summarizeRepeats(const std::vector<double>& grid,
                                const std::vector<std::vector<double>>& repeats);

} // namespace pl::search
