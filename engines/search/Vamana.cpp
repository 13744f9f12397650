#include "Vamana.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace pl::search {

float squaredL2(const float* a, const float* b, int64_t dim) {
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= dim; i += 8)
        for (int j = 0; j < 8; ++j) {
            const float d = a[i + j] - b[i + j];
            s[j] += d * d;
        }
    for (int j = 0; i < dim; ++i, ++j) {
        const float d = a[i] - b[i];
        s[j] += d * d;
    }
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

void VisitMarks::reset(int64_t n) {
    if (int64_t(m_stamp.size()) != n) {
        m_stamp.assign(size_t(n), 0);
        m_epoch = 0;
    }
    if (++m_epoch == 0) { // wrapped: clear once
        std::fill(m_stamp.begin(), m_stamp.end(), 0);
        m_epoch = 1;
    }
}

std::vector<Scored> closestK(std::vector<Scored> v, int k) {
    const size_t m = std::min(v.size(), size_t(std::max(k, 0)));
    std::partial_sort(v.begin(), v.begin() + long(m), v.end(), closer);
    v.resize(m);
    return v;
}

namespace {

/// Build state: the points, the lists and the distance counter.
struct Builder {
    const PointView& pts;
    std::vector<std::vector<int32_t>>& adj;
    int64_t calls = 0;

    float d(int32_t a, int32_t b) {
        ++calls;
        return squaredL2(pts.row(a), pts.row(b), pts.dim);
    }

    /// RobustPrune(p, cands ∪ N_out(p), alpha, R): N_out(p) becomes the greedy alpha-diverse
    /// selection of at most R candidates, closest first. \a cands carry their distance to p.
    void robustPrune(int32_t p, std::vector<Scored> cands, double alpha, int R) {
        for (int32_t q : adj[size_t(p)])
            cands.push_back(Scored{d(p, q), q});
        std::sort(cands.begin(), cands.end(), closer);
        // drop p itself and duplicates (d(p, q) is exact and symmetric, so a node listed twice
        // has one distance and its copies are adjacent after the sort)
        std::vector<Scored> pool;
        pool.reserve(cands.size());
        for (const Scored& c : cands)
            if (c.id != p && (pool.empty() || pool.back().id != c.id))
                pool.push_back(c);
        const float a2 = float(alpha * alpha);
        std::vector<char> alive(pool.size(), 1);
        std::vector<int32_t> out;
        out.reserve(size_t(R));
        for (size_t i = 0; i < pool.size() && int(out.size()) < R; ++i) {
            if (!alive[i])
                continue;
            out.push_back(pool[i].id);
            for (size_t j = i + 1; j < pool.size(); ++j)
                if (alive[j] && a2 * d(pool[i].id, pool[j].id) <= pool[j].dist)
                    alive[j] = 0;
        }
        adj[size_t(p)] = std::move(out);
    }
};

int32_t findMedoid(const PointView& pts) {
    std::vector<double> c(size_t(pts.dim), 0.0);
    for (int64_t i = 0; i < pts.n; ++i)
        for (int64_t j = 0; j < pts.dim; ++j)
            c[size_t(j)] += pts.row(i)[j];
    std::vector<float> cf(c.size());
    for (size_t j = 0; j < c.size(); ++j)
        cf[j] = float(c[j] / double(pts.n));
    int32_t best = 0;
    float bestD = std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < pts.n; ++i) {
        const float dd = squaredL2(pts.row(i), cf.data(), pts.dim);
        if (dd < bestD) {
            bestD = dd;
            best = int32_t(i);
        }
    }
    return best;
}

} // namespace

VamanaGraph VamanaGraph::build(const PointView& pts, const VamanaParams& params, const Rng& seed,
                               const std::function<void(double)>& tick) {
    Rng rng = seed;
    if (pts.n < 1 || pts.dim < 1)
        throw std::invalid_argument("VamanaGraph::build: no points");
    if (params.degree < 1 || params.lBuild < 1 || params.alpha < 1.0)
        throw std::invalid_argument("VamanaGraph::build: degree, l_build >= 1 and alpha >= 1 required");
    VamanaGraph g;
    const int64_t n = pts.n;
    const int R = int(std::min<int64_t>(params.degree, n - 1));
    g.m_adj.assign(size_t(n), {});
    Rng init = rng.fork("init");
    for (int64_t i = 0; i < n; ++i) { // random R-regular start (distinct, no self loops)
        auto& l = g.m_adj[size_t(i)];
        while (int(l.size()) < R) {
            const auto j = int32_t(init.uniformInt(uint64_t(n)));
            if (j != i && std::find(l.begin(), l.end(), j) == l.end())
                l.push_back(j);
        }
    }
    g.m_medoid = findMedoid(pts);
    Builder b{pts, g.m_adj};
    b.calls += n; // the medoid scan
    const int overflow = std::max(R, int(std::floor(params.slack * R)));
    VisitMarks marks;
    BeamResult res;
    Rng order = rng.fork("order");
    for (int pass = 0; pass < 2; ++pass) {
        const double alpha = pass == 0 ? 1.0 : params.alpha;
        std::vector<int32_t> perm(static_cast<size_t>(n));
        std::iota(perm.begin(), perm.end(), 0);
        for (int64_t i = n - 1; i > 0; --i)
            std::swap(perm[size_t(i)], perm[order.uniformInt(uint64_t(i + 1))]);
        for (int64_t t = 0; t < n; ++t) {
            const int32_t p = perm[size_t(t)];
            if (tick && (t & 255) == 0)
                tick((pass + double(t) / double(n)) / 2.0);
            if (R == 0)
                continue;
            const float* xp = pts.row(p);
            beamSearch(
                g, {g.m_medoid}, params.lBuild,
                [&](int32_t id) { return squaredL2(pts.row(id), xp, pts.dim); }, marks, res);
            b.calls += res.calls;
            b.robustPrune(p, res.expanded, alpha, R);
            for (int32_t j : std::vector<int32_t>(g.m_adj[size_t(p)])) {
                auto& lj = g.m_adj[size_t(j)];
                if (std::find(lj.begin(), lj.end(), p) != lj.end())
                    continue;
                if (int(lj.size()) < overflow)
                    lj.push_back(p);
                else
                    b.robustPrune(j, {Scored{b.d(j, p), p}}, alpha, R);
            }
        }
    }
    g.m_calls = b.calls;
    return g;
}

VamanaGraph VamanaGraph::fromLists(std::vector<std::vector<int32_t>> adj, int32_t medoid) {
    VamanaGraph g;
    for (const auto& l : adj)
        for (int32_t j : l)
            if (j < 0 || size_t(j) >= adj.size())
                throw std::invalid_argument("VamanaGraph::fromLists: neighbour out of range");
    if (adj.empty() || medoid < 0 || size_t(medoid) >= adj.size())
        throw std::invalid_argument("VamanaGraph::fromLists: bad medoid");
    g.m_adj = std::move(adj);
    g.m_medoid = medoid;
    return g;
}

std::vector<int> VamanaGraph::degrees() const {
    std::vector<int> d;
    d.reserve(m_adj.size());
    for (const auto& l : m_adj)
        d.push_back(int(l.size()));
    return d;
}

} // namespace pl::search
