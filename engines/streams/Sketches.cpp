#include "streams/Sketches.h"

#include <cmath>

namespace pl::streams {

void ExactSketch::apply(const StreamOp& op) {
    auto it = m_values.find(op.key);
    if (op.reset) {
        if (it != m_values.end()) {
            m_F -= m_f(it->second);
            m_values.erase(it);
        }
        return;
    }
    if (op.delta <= 0)
        return;
    if (it == m_values.end())
        it = m_values.emplace(op.key, 0.0).first;
    m_F += m_f(it->second + op.delta) - m_f(it->second);
    it->second += op.delta;
}

double ExactSketch::value(uint64_t x) const {
    const auto it = m_values.find(x);
    return it == m_values.end() ? 0.0 : it->second;
}

double BaselineSketch::answerWeight() const {
    return std::ldexp(1.0, m_s.liveLevel());
}

SwitchingSketch::SwitchingSketch(int copies, double alpha, int64_t k, int levels, StatisticFn f, Rng& rng)
    : m_alpha(alpha) {
    m_copies.reserve(size_t(copies));
    for (int c = 0; c < copies; ++c)
        m_copies.emplace_back(k, levels, f, KeyedHash(rng), false);
}

void SwitchingSketch::apply(const StreamOp& op) {
    for (SamplingSketch& s : m_copies)
        s.apply(op);
    const double e = m_copies[size_t(m_active)].estimate();
    if (!std::isfinite(e))
        return;
    const bool moved = e > m_y * (1 + m_alpha) || e < m_y / (1 + m_alpha);
    if (!moved)
        return;
    if (m_active + 1 < int(m_copies.size())) {
        ++m_active;
        m_y = m_copies[size_t(m_active)].estimate();
    } else {
        m_y = e;
    }
}

double SwitchingSketch::answerWeight() const {
    return std::ldexp(1.0, m_copies[size_t(m_active)].liveLevel());
}

bool SwitchingSketch::answersWith(uint64_t x) const {
    const SamplingSketch& s = m_copies[size_t(m_active)];
    return s.sampled(x, s.liveLevel());
}

int64_t SwitchingSketch::memory() const {
    int64_t n = 0;
    for (const SamplingSketch& s : m_copies)
        n += s.memory();
    return n;
}

} // namespace pl::streams
