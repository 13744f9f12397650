#pragma once
/// The arm set of the fair-linear-bandits panel: from the user's files (an arms .csv with an
/// optional `mu` column, and an optional one-row θ* .csv) or the stand-in workload (arms
/// normalize(|g|), θ* positive and unit-norm, an optional μ_min group of near-zero arms), with
/// its validation (exit 3 with file, line and reason) and the projection of a rank-deficient arm
/// set onto its span. Pure C++; any thread.

#include "LinearBandits.h"
#include "NumericCsv.h"

#include "core/Engine.h"

#include <string>
#include <vector>

namespace pl::bandits {

/// A parsed .csv of the fair-linear-bandits panel (arms or θ*; told apart at run time).
struct ArmsInput : LoadedInput {
    NumericTable table;
};

struct FairProblemSpec {
    int d = 8;
    int K = 100;
    double muMin = 0; ///< > 0: ⌈K/10⌉ arms with mean exactly mu_min
    double p = 0;     ///< the run's p (a zero mean is refused for p ≤ 0)
};

/// The problem (arms, means, no designs yet). \a notes receives warnings (rank deficiency,
/// misspecified means). Throws InputError for unusable files.
LinearProblem buildFairProblem(const InputList& inputs, const FairProblemSpec& spec, uint64_t seed,
                               std::vector<std::string>& notes);

} // namespace pl::bandits
