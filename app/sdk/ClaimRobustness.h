#pragma once
/// How often each claim of a panel holds over a set of runs (the seeds of one sweep cell): the
/// fraction with its 95% Wilson score interval and the spread of the observed value against the
/// threshold. Plain values; any thread.

#include "core/ResultDocument.h"

#include <string>
#include <vector>

namespace pl {

/// Wilson score interval for k successes in n trials at z (1.96: 95%). n = 0 gives [0, 1].
struct WilsonInterval {
    double lo = 0;
    double hi = 1;
};
WilsonInterval wilsonInterval(int k, int n, double z = 1.959963984540054);

/// One claim over the runs of a cell.
struct ClaimTally {
    std::string id;
    std::string statement;
    int holds = 0;
    int runs = 0; ///< runs that reported this claim
    WilsonInterval interval;
    double observedMin = 0, observedMedian = 0, observedMax = 0;
    double threshold = 0; ///< of the first run (claims keep their thresholds across seeds)
    double fraction() const { return runs ? double(holds) / runs : 0.0; }
};

/// Tallies every claim id met in `runs`, in order of first appearance.
std::vector<ClaimTally> tallyClaims(const std::vector<const ResultDocument*>& runs);

} // namespace pl
