#include "GraphLayoutProvider.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <list>
#include <numbers>

namespace pl::gui {

namespace {

struct State {
    QMutex mutex;
    GraphLayoutProvider::LayoutFunction fn;
    std::list<std::pair<quint64, QVector<QPointF>>> cache; ///< most recent first
};

State& state() {
    static State s;
    return s;
}

constexpr int kCacheSize = 16;

quint64 mix(quint64 h, quint64 v) {
    // FNV-1a over 8 bytes, then a splitmix step: cheap and well spread.
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

quint64 bits(double d) {
    quint64 u = 0;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

/// Deterministic value in [-1, 1) from an index (initial vectors of the spectral iteration).
double hashUnit(quint64 i) {
    const quint64 h = mix(0x1234567ULL, i);
    return double(h >> 11) / double(1ULL << 52) - 1.0;
}

} // namespace

void GraphLayoutProvider::setLayoutFunction(LayoutFunction fn) {
    State& s = state();
    QMutexLocker lock(&s.mutex);
    s.fn = std::move(fn);
    s.cache.clear();
}

bool GraphLayoutProvider::hasLayoutFunction() {
    State& s = state();
    QMutexLocker lock(&s.mutex);
    return bool(s.fn);
}

quint64 GraphLayoutProvider::layoutKey(const GraphSpec& spec) {
    quint64 h = mix(0xcbf29ce484222325ULL, quint64(spec.nodes.size()));
    h = mix(h, quint64(spec.layout));
    h = mix(h, quint64(spec.layoutSeed));
    h = mix(h, quint64(spec.edges.size()));
    for (const GraphEdgeSpec& e : spec.edges) {
        h = mix(h, (quint64(quint32(e.source)) << 32) | quint32(e.target));
        h = mix(h, bits(e.weight));
    }
    if (spec.layout == GraphLayout::Given)
        for (const GraphNodeSpec& n : spec.nodes)
            h = mix(mix(h, bits(n.x)), bits(n.y));
    return h;
}

void GraphLayoutProvider::clearCache() {
    State& s = state();
    QMutexLocker lock(&s.mutex);
    s.cache.clear();
}

bool GraphLayoutProvider::cached(const GraphSpec& spec, QVector<QPointF>* out) {
    const quint64 key = layoutKey(spec);
    State& s = state();
    QMutexLocker lock(&s.mutex);
    for (auto it = s.cache.begin(); it != s.cache.end(); ++it)
        if (it->first == key && it->second.size() == spec.nodes.size()) {
            if (out)
                *out = it->second;
            s.cache.splice(s.cache.begin(), s.cache, it);
            return true;
        }
    return false;
}

QVector<QPointF> GraphLayoutProvider::compute(const GraphSpec& spec) {
    QVector<QPointF> out;
    if (spec.nodes.isEmpty())
        return out;
    if (spec.layout == GraphLayout::Given)
        return computeBuiltIn(spec); // cheap, never cached
    if (cached(spec, &out))
        return out;
    LayoutFunction fn;
    {
        State& s = state();
        QMutexLocker lock(&s.mutex);
        fn = s.fn;
    }
    if (fn && spec.layout != GraphLayout::Spectral)
        out = fn(spec); // outside the lock: may take a while
    if (out.size() != spec.nodes.size())
        out = computeBuiltIn(spec);
    for (QPointF& p : out)
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
            p = QPointF(0, 0);
    State& s = state();
    QMutexLocker lock(&s.mutex);
    s.cache.emplace_front(layoutKey(spec), out);
    while (int(s.cache.size()) > kCacheSize)
        s.cache.pop_back();
    return out;
}

QVector<QPointF> GraphLayoutProvider::computeBuiltIn(const GraphSpec& spec) {
    const int n = int(spec.nodes.size());
    switch (spec.layout) {
    case GraphLayout::Given: {
        QVector<QPointF> out = circular(n);
        // Missing coordinates go on a circle around the given ones.
        double minX = 0, maxX = 0, minY = 0, maxY = 0;
        bool any = false;
        for (const GraphNodeSpec& v : spec.nodes)
            if (std::isfinite(v.x) && std::isfinite(v.y)) {
                minX = any ? std::min(minX, v.x) : v.x;
                maxX = any ? std::max(maxX, v.x) : v.x;
                minY = any ? std::min(minY, v.y) : v.y;
                maxY = any ? std::max(maxY, v.y) : v.y;
                any = true;
            }
        const double r = any ? std::max({maxX - minX, maxY - minY, 1e-9}) * 0.75 : 1.0;
        const QPointF c = any ? QPointF((minX + maxX) / 2, (minY + maxY) / 2) : QPointF();
        for (int i = 0; i < n; ++i) {
            const GraphNodeSpec& v = spec.nodes[i];
            out[i] = std::isfinite(v.x) && std::isfinite(v.y) ? QPointF(v.x, v.y) : c + out[i] * r;
        }
        return out;
    }
    case GraphLayout::Circular:
        return circular(n);
    case GraphLayout::Force:
    case GraphLayout::Spectral:
        break;
    }
    return spectral(spec);
}

QVector<QPointF> GraphLayoutProvider::circular(int n) {
    QVector<QPointF> out(std::max(0, n));
    for (int i = 0; i < n; ++i) {
        const double a = 2 * std::numbers::pi * i / n;
        out[i] = QPointF(std::sin(a), -std::cos(a));
    }
    return out;
}

QVector<QPointF> GraphLayoutProvider::spectral(const GraphSpec& spec) {
    const int n = int(spec.nodes.size());
    if (n < 3)
        return circular(n);
    // Symmetric weighted adjacency (|weight|) in CSR form, plus a weak uniform link tau/n between
    // all nodes so the graph is connected (components do not collapse onto single points).
    QVector<int> deg(n, 0);
    for (const GraphEdgeSpec& e : spec.edges)
        if (e.source >= 0 && e.target >= 0 && e.source < n && e.target < n && e.source != e.target) {
            ++deg[e.source];
            ++deg[e.target];
        }
    QVector<int> start(n + 1, 0);
    for (int i = 0; i < n; ++i)
        start[i + 1] = start[i] + deg[i];
    QVector<int> nbr(start[n]);
    QVector<double> w(start[n]);
    QVector<int> fill = start;
    QVector<double> d(n, 0.0);
    for (const GraphEdgeSpec& e : spec.edges)
        if (e.source >= 0 && e.target >= 0 && e.source < n && e.target < n && e.source != e.target) {
            const double ww = std::isfinite(e.weight) && e.weight != 0 ? std::fabs(e.weight) : 1.0;
            nbr[fill[e.source]] = e.target;
            w[fill[e.source]++] = ww;
            nbr[fill[e.target]] = e.source;
            w[fill[e.target]++] = ww;
            d[e.source] += ww;
            d[e.target] += ww;
        }
    double meanDeg = 0;
    for (double x : d)
        meanDeg += x / n;
    const double tau = std::max(1e-3, 0.05 * meanDeg);
    QVector<double> isd(n); // D'^(-1/2)
    QVector<double> q0(n);  // trivial eigenvector D'^(1/2) 1, normalised
    double q0n = 0;
    for (int i = 0; i < n; ++i) {
        const double di = d[i] + tau;
        isd[i] = 1.0 / std::sqrt(di);
        q0[i] = std::sqrt(di);
        q0n += di;
    }
    for (double& x : q0)
        x /= std::sqrt(q0n);

    // Orthogonal iteration on M = (I + D'^-1/2 A' D'^-1/2) / 2, deflated against q0.
    QVector<double> v[2] = {QVector<double>(n), QVector<double>(n)};
    for (int i = 0; i < n; ++i) {
        v[0][i] = hashUnit(2 * quint64(i));
        v[1][i] = hashUnit(2 * quint64(i) + 1);
    }
    QVector<double> tmp(n);
    auto orthonormalise = [&] {
        for (int k = 0; k < 2; ++k) {
            double dot = 0;
            for (int i = 0; i < n; ++i)
                dot += v[k][i] * q0[i];
            for (int i = 0; i < n; ++i)
                v[k][i] -= dot * q0[i];
            if (k == 1) {
                double d01 = 0;
                for (int i = 0; i < n; ++i)
                    d01 += v[1][i] * v[0][i];
                for (int i = 0; i < n; ++i)
                    v[1][i] -= d01 * v[0][i];
            }
            double norm = 0;
            for (double x : v[k])
                norm += x * x;
            norm = std::sqrt(norm);
            if (norm < 1e-300)
                norm = 1;
            for (double& x : v[k])
                x /= norm;
        }
    };
    orthonormalise();
    const int iterations = std::clamp(40000000 / std::max(1, n + int(nbr.size())), 60, 400);
    for (int it = 0; it < iterations; ++it) {
        for (int k = 0; k < 2; ++k) {
            double s = 0; // uniform part: (tau/n) * sum_j isd_j v_j
            for (int j = 0; j < n; ++j)
                s += isd[j] * v[k][j];
            s *= tau / n;
            for (int i = 0; i < n; ++i) {
                double acc = 0;
                for (int p = start[i]; p < start[i + 1]; ++p)
                    acc += w[p] * isd[nbr[p]] * v[k][nbr[p]];
                tmp[i] = 0.5 * v[k][i] + 0.5 * isd[i] * (acc + s);
            }
            std::swap(v[k], tmp);
        }
        orthonormalise();
    }
    QVector<QPointF> out(n);
    for (int i = 0; i < n; ++i)
        out[i] = QPointF(v[0][i] * isd[i], v[1][i] * isd[i]);
    return out;
}

} // namespace pl::gui
