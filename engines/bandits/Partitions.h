#pragma once
/// Partitions of a screening library into bandit arms: by partition key, at random (the same number
/// of arms, equal sizes: a meaningless partition), or by k-means on the fingerprints (Hamming
/// distance, majority-vote centroids, k random distinct rows to start, 10 Lloyd iterations).
/// Pure functions; any thread.

#include "Fingerprints.h"

#include "core/Rng.h"

#include <functional>
#include <vector>

namespace pl::bandits {

/// Per-row arm indices 0..k-1 of a random partition of \a rows rows into \a k arms.
std::vector<int> randomPartition(int64_t rows, int k, Rng& rng);

/// Per-row arm indices of k-means on \a fp (empty arms are dropped and the rest renumbered).
std::vector<int> kmeansPartition(const PackedFingerprints& fp, int k, Rng& rng,
                                 const std::function<void()>& poll);

/// The number of arms of a per-row partition (max index + 1).
int armCount(const std::vector<int>& arm);

} // namespace pl::bandits
