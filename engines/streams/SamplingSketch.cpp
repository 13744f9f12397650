#include "streams/SamplingSketch.h"

#include "core/Numeric.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace pl::streams {

SamplingSketch::SamplingSketch(int64_t k, int levels, const StatisticFn& f, const KeyedHash& h,
                               bool perEpochCoins)
    : m_k(k), m_f(f), m_hash(h), m_perEpoch(perEpochCoins), m_levels(size_t(std::max(1, levels))),
      m_delta(m_levels.size(), 0.0) {}

int SamplingSketch::depth(uint64_t x) const {
    uint64_t h = 0;
    if (m_perEpoch) {
        const auto it = m_epoch.find(x);
        h = m_hash(x, it == m_epoch.end() ? 0 : it->second);
    } else {
        h = m_hash(x);
    }
    return std::countl_zero(h);
}

void SamplingSketch::kill(int j) {
    Level& L = m_levels[size_t(j)];
    m_delta[size_t(j)] = 0;
    L.dead = true;
    L.values = {};
    L.sum = 0;
    while (m_live < levels() && m_levels[size_t(m_live)].dead)
        ++m_live;
}

void SamplingSketch::apply(const StreamOp& op) {
    for (int j = m_touchedLo; j <= m_touchedHi; ++j) // clear only what the last operation set
        m_delta[size_t(j)] = 0.0;
    m_touchedLo = 0;
    m_touchedHi = -1;
    if (m_live >= levels() || (!op.reset && op.delta <= 0))
        return;
    const int top = std::min(depth(op.key), levels() - 1);
    m_touchedLo = m_live;
    m_touchedHi = top;
    bool stored = false;
    for (int j = m_live; j <= top; ++j) {
        Level& L = m_levels[size_t(j)];
        if (L.dead)
            continue;
        auto it = L.values.find(op.key);
        if (op.reset) {
            if (it == L.values.end())
                continue;
            stored = true;
            const double df = -m_f(it->second);
            L.sum += df;
            m_delta[size_t(j)] = df;
            L.values.erase(it);
            continue;
        }
        if (it == L.values.end()) {
            if (int64_t(L.values.size()) >= m_k) {
                kill(j);
                continue;
            }
            it = L.values.emplace(op.key, 0.0).first;
        }
        const double df = m_f(it->second + op.delta) - m_f(it->second);
        it->second += op.delta;
        L.sum += df;
        m_delta[size_t(j)] = df;
    }
    if (op.reset && stored && m_perEpoch)
        ++m_epoch[op.key];
}

double SamplingSketch::estimate() const {
    if (m_live >= levels())
        return kNaN;
    return std::ldexp(m_levels[size_t(m_live)].sum, m_live);
}

int64_t SamplingSketch::memory() const {
    int64_t n = int64_t(m_epoch.size());
    for (const Level& L : m_levels)
        n += int64_t(L.values.size());
    return n;
}

} // namespace pl::streams
