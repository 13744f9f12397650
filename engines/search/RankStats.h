#pragma once
/// Rank statistics of searches: Kendall's tau-b between two scorings (ties in either counted as in
/// scipy.stats.kendalltau) and recall@k of a returned list against the true k nearest. Pure
/// functions; any thread.

#include <cstdint>
#include <vector>

namespace pl::search {

/// Kendall's tau-b of \a x and \a y (same length, >= 2); NaN when either is constant. O(n^2).
double kendallTau(const std::vector<double>& x, const std::vector<double>& y);

/// |first k of found ∩ first k of truth| / k (k > 0; shorter lists count what they hold).
double recallAtK(const std::vector<int64_t>& found, const std::vector<int64_t>& truth, int k);

} // namespace pl::search
