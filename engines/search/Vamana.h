#pragma once
/// Vamana (DiskANN) proximity graph over points of one metric (squared Euclidean on float rows),
/// and the two graph searches the bi-metric panel runs on it:
///  - beamSearch: GreedySearch(s, q, L) with a bounded candidate list of L (returns the list and
///    the expanded nodes, i.e. the visited set V of the DiskANN papers);
///  - quotaSearch: best-first search with an unbounded frontier that stops when its
///    CountedOracle's quota of distance calls is spent (the reference bi-metric code's
///    greedy_search_quota).
/// The build is RobustPrune(p, V, alpha, R) over two passes (alpha = 1, then alpha) from a random
/// R-regular start, as in Subramanya et al. (NeurIPS 2019); reverse edges overflow up to
/// slack * R before the neighbour is pruned back to R (DiskANN's graph slack). Deterministic in
/// (points, params, rng). The graph is immutable after build and may be searched from several
/// threads, each with its own VisitMarks.

#include "core/Rng.h"
#include "search/CountedOracle.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace pl::search {

/// A non-owning view of n points of dimension dim, row-major float32.
struct PointView {
    const float* data = nullptr;
    int64_t n = 0;
    int64_t dim = 0;
    const float* row(int64_t i) const { return data + i * dim; }
};

/// Squared Euclidean distance with a fixed summation order (8 partial sums), so results do not
/// depend on the compiler's vectorisation.
float squaredL2(const float* a, const float* b, int64_t dim);

/// A node and its distance to the query (squared for Euclidean metrics).
struct Scored {
    float dist = 0;
    int32_t id = 0;
};
/// Closer first; ties by smaller id (a total order, so searches are deterministic).
inline bool closer(const Scored& a, const Scored& b) {
    return a.dist < b.dist || (a.dist == b.dist && a.id < b.id);
}

/// Epoch-stamped "seen" marks over n nodes: reset is O(1) between searches.
class VisitMarks {
public:
    /// Clears every mark (resizing to \a n nodes when needed).
    void reset(int64_t n);
    bool test(int32_t i) const { return m_stamp[size_t(i)] == m_epoch; }
    void set(int32_t i) { m_stamp[size_t(i)] = m_epoch; }

private:
    std::vector<uint32_t> m_stamp;
    uint32_t m_epoch = 0;
};

/// (parent, child) in evaluation order; parent -1 for a start node.
using SearchTrace = std::vector<std::pair<int32_t, int32_t>>;

struct VamanaParams {
    int degree = 32;    ///< R: out-degree bound
    int lBuild = 75;    ///< L of the build searches
    double alpha = 1.2; ///< pruning factor of the second pass (the first uses 1)
    double slack = 1.3; ///< reverse edges may grow a list to slack * R before it is pruned
};

class VamanaGraph {
public:
    /// Builds the graph over \a pts (n >= 1). \a tick(fraction) is called every few hundred
    /// insertions (it may throw to cancel).
    static VamanaGraph build(const PointView& pts, const VamanaParams& params, const Rng& seed,
                             const std::function<void(double)>& tick = {});
    /// A graph from given out-lists (tests); medoid is the start node.
    static VamanaGraph fromLists(std::vector<std::vector<int32_t>> adj, int32_t medoid);

    int64_t size() const { return int64_t(m_adj.size()); }
    const std::vector<int32_t>& neighbors(int64_t i) const { return m_adj[size_t(i)]; }
    /// The start node: the point closest to the centroid.
    int32_t medoid() const { return m_medoid; }
    /// Distance computations spent by build().
    int64_t buildDistanceCalls() const { return m_calls; }
    /// Out-degree of every node.
    std::vector<int> degrees() const;

private:
    std::vector<std::vector<int32_t>> m_adj;
    int32_t m_medoid = 0;
    int64_t m_calls = 0;
};

/// Result of a beam search.
struct BeamResult {
    std::vector<Scored> list;     ///< the final candidate list (at most L), closest first
    std::vector<Scored> expanded; ///< expanded nodes in expansion order (the visited set V)
    int64_t calls = 0;            ///< distance calls
};

/// GreedySearch from \a starts with list size \a L under dist(id) -> float. With \a trace, appends
/// (parent, child) for every evaluated node.
template <class Dist>
void beamSearch(const VamanaGraph& g, const std::vector<int32_t>& starts, int L, Dist&& dist,
                VisitMarks& marks, BeamResult& out, SearchTrace* trace = nullptr) {
    struct Entry {
        Scored s;
        bool expanded;
    };
    out.list.clear();
    out.expanded.clear();
    out.calls = 0;
    marks.reset(g.size());
    L = std::max(L, 1);
    std::vector<Entry> list;
    list.reserve(size_t(L) + 1);
    auto insert = [&](Scored s) -> size_t {
        if (int(list.size()) >= L && !closer(s, list.back().s))
            return list.size();
        auto it = std::upper_bound(list.begin(), list.end(), s,
                                   [](const Scored& a, const Entry& e) { return closer(a, e.s); });
        const size_t pos = size_t(it - list.begin());
        list.insert(it, Entry{s, false});
        if (int(list.size()) > L)
            list.pop_back();
        return pos;
    };
    for (int32_t s : starts) {
        if (marks.test(s))
            continue;
        marks.set(s);
        ++out.calls;
        if (trace)
            trace->emplace_back(-1, s);
        insert(Scored{dist(s), s});
    }
    size_t next = 0;
    while (true) {
        while (next < list.size() && list[next].expanded)
            ++next;
        if (next >= list.size())
            break;
        list[next].expanded = true;
        const Scored p = list[next].s;
        out.expanded.push_back(p);
        size_t lowest = list.size();
        for (int32_t nb : g.neighbors(p.id)) {
            if (marks.test(nb))
                continue;
            marks.set(nb);
            ++out.calls;
            if (trace)
                trace->emplace_back(p.id, nb);
            lowest = std::min(lowest, insert(Scored{dist(nb), nb}));
        }
        next = std::min(next, lowest);
    }
    out.list.reserve(list.size());
    for (const Entry& e : list)
        out.list.push_back(e.s);
}

/// Best-first search from \a starts under dist(id) that charges every evaluation to \a oracle and
/// stops when it is exhausted (or the reachable graph is evaluated): the starts are cut to the
/// quota and evaluated, then the closest unexpanded node is expanded and its unseen neighbours
/// are evaluated (the last expansion is cut to the calls left). Appends every evaluated node to
/// \a evaluated (evaluation order); with \a trace, (parent, child) pairs too.
template <class Dist>
void quotaSearch(const VamanaGraph& g, const std::vector<int32_t>& starts, Dist&& dist, CountedOracle& oracle,
                 VisitMarks& marks, std::vector<Scored>& evaluated, SearchTrace* trace = nullptr) {
    auto farther = [](const Scored& a, const Scored& b) { return closer(b, a); };
    std::priority_queue<Scored, std::vector<Scored>, decltype(farther)> frontier(farther);
    marks.reset(g.size());
    for (int32_t s : starts) {
        if (marks.test(s))
            continue;
        if (!oracle.tryCharge())
            break;
        marks.set(s);
        if (trace)
            trace->emplace_back(-1, s);
        const Scored sc{dist(s), s};
        evaluated.push_back(sc);
        frontier.push(sc);
    }
    std::vector<int32_t> fresh;
    while (!oracle.exhausted() && !frontier.empty()) {
        const Scored p = frontier.top();
        frontier.pop();
        fresh.clear();
        for (int32_t nb : g.neighbors(p.id))
            if (!marks.test(nb))
                fresh.push_back(nb);
        fresh.resize(size_t(oracle.grant(int64_t(fresh.size()))));
        oracle.tryCharge(int64_t(fresh.size()));
        for (int32_t nb : fresh) {
            marks.set(nb);
            if (trace)
                trace->emplace_back(p.id, nb);
            const Scored sc{dist(nb), nb};
            evaluated.push_back(sc);
            frontier.push(sc);
        }
    }
}

/// The k closest of \a v (closest first; fewer when v is shorter).
std::vector<Scored> closestK(std::vector<Scored> v, int k);

} // namespace pl::search
