#pragma once
/// The stages of a bimetric-ann run (BimetricAnnEngine::run): data, graphs, truth, distortion,
/// queries, sweep, explorer, claims. Writes into a ResultDocument under BimetricAnnKeys.h.

#include "core/Engine.h"
#include "search/BimetricSearch.h"
#include "search/VectorFiles.h"

#include <vector>

namespace pl::search::bimetric {

/// Runs every stage. \a files is empty (built-in pair) or the four checked vector files.
void runBimetric(const std::vector<const VectorInput*>& files, const ParamSet& p, RunContext& ctx,
                 ResultDocument& doc);

/// The quotas of the recall-vs-quota sweep: a fixed log-spaced grid plus \a quota, those <= n.
std::vector<int64_t> quotaGrid(int64_t quota, int64_t n);

/// The D/d ratios of \a pairs random base pairs (pairs with d = 0 skipped), in sampling order.
std::vector<double> sampleRatios(const BimetricData& data, int pairs, Rng rng);

/// The explorer graph around query \a q (see keys::attr): a subset of the proxy graph (true
/// neighbours, the first stage-1 and stage-2 expansions, the returned items, random others)
/// projected on the first two principal axes of its expensive vectors, with graph edges among
/// the subset and the two stages' search steps.
Graph explorerGraph(const BimetricData& data, const VamanaGraph& proxy, int64_t q, const SearchTrace& stage1,
                    const SearchTrace& stage2, const std::vector<Scored>& truth,
                    const std::vector<Scored>& ours, Rng rng);

} // namespace pl::search::bimetric
