#pragma once
/// The built-in (expensive, proxy) vector pair of the bi-metric panel (specs-000 §13.3, pair a):
/// ground-truth points in R^128 from an anisotropic Gaussian mixture of 50 clusters (a decaying
/// spectrum with per-cluster random axis scales), and a cheap embedding: a random Gaussian
/// projection to proxy_dim dimensions plus a fixed per-item error whose size is proxy_noise times
/// the RMS within-cluster radius in the projected space. Queries are fresh draws of the same
/// mixture with their own proxy errors. Deterministic in (config, rng).

#include "core/Rng.h"
#include "search/VectorFiles.h"

#include <cstdint>

namespace pl::search {

struct BimetricPairConfig {
    int64_t n = 5000;        ///< base points
    int64_t queries = 100;   ///< query points
    int expensiveDim = 128;  ///< dimension of the ground-truth vectors
    int proxyDim = 16;       ///< dimension of the cheap embedding
    double proxyNoise = 0.5; ///< per-item error / RMS within-cluster radius (projected)
    int clusters = 50;
};

/// The four vector sets, in the order of the user files.
struct BimetricPair {
    VectorSet baseExpensive, baseProxy, queryExpensive, queryProxy;
    double withinRadius = 0; ///< RMS within-cluster radius of the projection (proxy units)
};

BimetricPair makeBimetricPair(const BimetricPairConfig& c, const Rng& rng);

} // namespace pl::search
