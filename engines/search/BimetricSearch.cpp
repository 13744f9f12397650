#include "BimetricSearch.h"

#include <algorithm>
#include <stdexcept>

namespace pl::search {

BimetricSearcher::BimetricSearcher(const BimetricData& data, const VamanaGraph& proxyGraph,
                                   const VamanaGraph* expensiveGraph, int k, int lSearch)
    : m_data(data), m_proxy(proxyGraph), m_expensive(expensiveGraph), m_k(k), m_lSearch(lSearch) {
    if (k < 1 || lSearch < 1)
        throw std::invalid_argument("BimetricSearcher: k and l_search must be positive");
    if (proxyGraph.size() != data.baseProxy.n || data.baseProxy.n != data.baseExpensive.n)
        throw std::invalid_argument("BimetricSearcher: graph and base sizes differ");
}

float BimetricSearcher::expensive(int64_t q, int32_t id) const {
    return squaredL2(m_data.queryExpensive.row(q), m_data.baseExpensive.row(id), m_data.baseExpensive.dim);
}

int64_t BimetricSearcher::startCount(int64_t quota, int64_t candidates) {
    return std::min(std::max<int64_t>(100, quota / 2), candidates);
}

BeamResult BimetricSearcher::proxyStage(int64_t q, int64_t quota, SearchTrace* trace) {
    BeamResult r;
    const float* xq = m_data.queryProxy.row(q);
    const int L = int(std::max<int64_t>(m_lSearch, quota));
    beamSearch(
        m_proxy, {m_proxy.medoid()}, L,
        [&](int32_t id) { return squaredL2(xq, m_data.baseProxy.row(id), m_data.baseProxy.dim); }, m_marks, r,
        trace);
    return r;
}

MethodResult BimetricSearcher::ours(int64_t q, const BeamResult& stage1, int64_t quota, SearchTrace* trace) {
    MethodResult out;
    CountedOracle oracle(quota);
    const int64_t s = startCount(quota, int64_t(stage1.list.size()));
    std::vector<int32_t> starts;
    for (int64_t i = 0; i < s; ++i)
        starts.push_back(stage1.list[size_t(i)].id);
    std::vector<Scored> evaluated;
    quotaSearch(
        m_proxy, starts, [&](int32_t id) { return expensive(q, id); }, oracle, m_marks, evaluated, trace);
    out.top = closestK(std::move(evaluated), m_k);
    out.expensiveCalls = oracle.calls();
    out.proxyCalls = stage1.calls;
    return out;
}

MethodResult BimetricSearcher::rerank(int64_t q, const BeamResult& stage1, int64_t quota) {
    MethodResult out;
    CountedOracle oracle(quota);
    std::vector<Scored> evaluated;
    for (const Scored& c : stage1.list) {
        if (!oracle.tryCharge())
            break;
        evaluated.push_back(Scored{expensive(q, c.id), c.id});
    }
    out.top = closestK(std::move(evaluated), m_k);
    out.expensiveCalls = oracle.calls();
    out.proxyCalls = stage1.calls;
    return out;
}

MethodResult BimetricSearcher::single(int64_t q, int64_t quota, SearchTrace* trace) {
    if (!m_expensive)
        throw std::logic_error("BimetricSearcher::single: no expensive graph");
    MethodResult out;
    CountedOracle oracle(quota);
    std::vector<Scored> evaluated;
    quotaSearch(
        *m_expensive, {m_expensive->medoid()}, [&](int32_t id) { return expensive(q, id); }, oracle, m_marks,
        evaluated, trace);
    out.top = closestK(std::move(evaluated), m_k);
    out.expensiveCalls = oracle.calls();
    return out;
}

std::vector<std::vector<Scored>> bruteForceKnn(const PointView& base, const PointView& queries, int k) {
    if (base.dim != queries.dim)
        throw std::invalid_argument("bruteForceKnn: dimensions differ");
    std::vector<std::vector<Scored>> out(size_t(queries.n));
    std::vector<Scored> all(size_t(base.n));
    for (int64_t q = 0; q < queries.n; ++q) {
        for (int64_t i = 0; i < base.n; ++i)
            all[size_t(i)] = Scored{squaredL2(queries.row(q), base.row(i), base.dim), int32_t(i)};
        out[size_t(q)] = closestK(all, k);
    }
    return out;
}

} // namespace pl::search
