#pragma once
/// The stand-in interaction stream of the care-recsets panel (after specs-000 §16.3): a latent-factor
/// world, U users and I items with d-dimensional factors, true preference p(i | u, t) ∝ exp(β uᵀvᵢ/√d
/// + popᵢ); at each change point a further 30% of the users (disjoint groups, at most 1/changes
/// each) have their factors rotated towards a random direction by the angle drift·π/3; the drift
/// accumulates. Three constituent recommenders were "trained" before the
/// first change: noisy copies (σ = 0.15, 0.3, 0.5) of the pre-drift user factors, stand-ins for
/// recommenders of decreasing quality (no ALS is run); each lists its top `candidates` items with
/// scores. Deterministic in (settings, rng); no Qt.

#include "core/Rng.h"
#include "streams/RecStream.h"

#include <cstdint>
#include <vector>

namespace pl::streams {

struct CareWorld {
    int64_t length = 50000;     ///< interactions
    int changePoints = 2;       ///< abrupt changes, evenly spaced after the calibration window
    double drift = 0.6;         ///< rotation magnitude in [0, 1]
    int64_t calibration = 1000; ///< no change before this row
    int users = 500, items = 1000, dim = 8, candidates = 100;
    double beta = 12, subgroup = 0.3, popularitySd = 1.0;
};

struct CareStandIn {
    std::vector<RecStream> models;   ///< one stream per constituent, rows agreeing
    std::vector<int64_t> changeRows; ///< true change points (0-based rows)
    std::vector<std::string> names;  ///< constituent names
};

/// Generates the stand-in streams.
CareStandIn generateCareStandIn(const CareWorld& w, const Rng& rng);

} // namespace pl::streams
