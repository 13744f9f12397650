#pragma once
/// Conformal recommendation sets over a stream (specs-000 §16, our reconstruction): conformal risk
/// control (CRC) of the miss loss, the static / ACI / CARE (CUSUM-triggered recalibration) methods
/// for one recommender, and the aggregation of several recommenders' CARE sets by size-decayed
/// exponential weights (random selection, weighted vote, union). Pure; deterministic in (streams,
/// parameters, rng); no Qt.

#include "core/Rng.h"
#include "core/RunContext.h"
#include "streams/Cusum.h"
#include "streams/RecStream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pl::streams {

/// The knobs of one run.
struct CareParams {
    double alpha = 0.1, eta = 0.05, etaW = 1, gamma = 0.9, kappa = 0.05, h = 15;
    int64_t nCal = 1000, nMin = 200;
    int maxSize = 50;
    bool weighted = false;              ///< loss = recall: the row's loss column weights the miss
    std::string aggregation = "random"; ///< random | vote | union
};

/// CRC: the least λ in {0} ∪ {needs} with (Σᵢ wᵢ·1[needᵢ > λ] + 1)/(n + 1) ≤ α; 1 when none is
/// (an infinite need never enters). With unit weights this is the ⌈(n+1)(1−α)⌉-th smallest need.
double crcLambda(const std::vector<double>& needs, const std::vector<double>& weights, double alpha);

/// CRC on rows [from, to) of \a s.
double crcOnRows(const RecStream& s, size_t from, size_t to, const CareParams& p);

/// The three single-recommender methods on one stream; per-row vectors cover rows nCal…N−1.
struct ModelRun {
    double lambdaStatic = 0;
    std::vector<double> lambdaAci, lambdaCare;            ///< λ served per row
    std::vector<double> lossStatic, lossAci, lossCare;    ///< L_t of the served set
    std::vector<int> sizeStatic, sizeAci, sizeCare;       ///< |C| of the served set
    std::vector<int64_t> alarms, changes, recalibrations; ///< 0-based rows
};

/// Runs static, aci and care on \a s (needs more than nCal rows).
ModelRun runMethods(const RecStream& s, const CareParams& p, RunContext& ctx);

/// The aggregated predictor and the union over several recommenders' CARE sets.
struct AggregateRun {
    std::vector<double> lossAggregate, lossUnion;
    std::vector<int> sizeAggregate, sizeUnion;
    std::vector<std::vector<double>> weights; ///< [model][row − nCal]
};

/// Aggregates the CARE sets of \a runs (one per stream of \a streams, rows agreeing).
AggregateRun aggregate(const std::vector<const RecStream*>& streams, const std::vector<ModelRun>& runs,
                       const CareParams& p, Rng rng, RunContext& ctx);

} // namespace pl::streams
