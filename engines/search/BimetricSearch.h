#pragma once
/// The three query rules of the bi-metric panel over (expensive D, proxy d) point sets, both
/// squared Euclidean on their own vectors, every D evaluation charged to a CountedOracle:
///  - ours (the reference code's "bi(ours)"): stage 1 is a proxy beam search with list size
///    max(l_search, Q); stage 2 a quotaSearch under D on the same proxy-built graph, started from
///    the top min(max(100, Q/2), |stage-1 list|) candidates, stopping after Q D-calls;
///  - rerank ("bi(baseline)"): D on the top min(Q, |list|) stage-1 candidates;
///  - single: quotaSearch under D from the medoid of a graph built with D.
/// Each returns the k closest evaluated items by D. Exact brute-force k-NN is the ground truth.
/// A searcher holds scratch marks: one per thread.

#include "search/Vamana.h"

#include <cstdint>
#include <vector>

namespace pl::search {

/// The four point sets of a search (rows of base/queries agree per metric).
struct BimetricData {
    PointView baseExpensive, baseProxy, queryExpensive, queryProxy;
};

/// What one query rule returned.
struct MethodResult {
    std::vector<Scored> top;    ///< k closest by D (squared), closest first
    int64_t expensiveCalls = 0; ///< D evaluations charged
    int64_t proxyCalls = 0;     ///< d evaluations
};

class BimetricSearcher {
public:
    /// \a expensiveGraph may be null (then single() throws). Both graphs and the data must outlive
    /// the searcher.
    BimetricSearcher(const BimetricData& data, const VamanaGraph& proxyGraph,
                     const VamanaGraph* expensiveGraph, int k, int lSearch);

    /// Stage 1: proxy beam search for query q with list size max(l_search, quota).
    BeamResult proxyStage(int64_t q, int64_t quota, SearchTrace* trace = nullptr);
    /// The bi-metric rule on a stage-1 result.
    MethodResult ours(int64_t q, const BeamResult& stage1, int64_t quota, SearchTrace* trace = nullptr);
    /// Retrieve-then-rerank on a stage-1 result.
    MethodResult rerank(int64_t q, const BeamResult& stage1, int64_t quota);
    /// Single-metric search on the D graph.
    MethodResult single(int64_t q, int64_t quota, SearchTrace* trace = nullptr);

    /// Stage-2 start count of the reference rule: min(max(100, Q/2), candidates).
    static int64_t startCount(int64_t quota, int64_t candidates);

private:
    float expensive(int64_t q, int32_t id) const;
    BimetricData m_data;
    const VamanaGraph& m_proxy;
    const VamanaGraph* m_expensive;
    int m_k;
    int m_lSearch;
    VisitMarks m_marks;
};

/// Exact k nearest base rows of every query (squared Euclidean, ties by smaller index).
std::vector<std::vector<Scored>> bruteForceKnn(const PointView& base, const PointView& queries, int k);

} // namespace pl::search
