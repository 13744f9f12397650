#include "streams/TreeMechanism.h"

#include "streams/Laplace.h"

#include <bit>
#include <limits>

namespace pl::streams {

int ceilLog2(int64_t T) {
    int L = 0;
    while ((int64_t(1) << L) < T && L < 62)
        ++L;
    return L;
}

TreeMechanism::TreeMechanism(int levels, double b, const Rng& rng, bool deferred)
    : m_alpha(size_t(levels < 1 ? 1 : levels), 0.0), m_noise(m_alpha.size(), 0.0), m_b(b), m_rng(rng),
      m_deferred(deferred) {}

void TreeMechanism::activate() {
    if (!m_deferred)
        return;
    m_deferred = false;
    m_released = 0;
    for (size_t j = 0; j < m_alpha.size(); ++j)
        if ((uint64_t(m_t) >> j) & 1u) {
            m_noise[j] = laplace(m_rng, m_b);
            m_released += m_alpha[j] + m_noise[j];
        }
}

double TreeMechanism::add(double x) {
    ++m_t;
    m_exact += x;
    const int i = std::countr_zero(uint64_t(m_t));
    if (size_t(i) >= m_alpha.size()) { // past the planned horizon: grow by one level
        m_alpha.resize(size_t(i) + 1, 0.0);
        m_noise.resize(size_t(i) + 1, 0.0);
    }
    // Nodes 0..i−1 were the live nodes of step t−1 (its low bits are all set); node i replaces them.
    double sum = x, gone = 0;
    for (int j = 0; j < i; ++j) {
        sum += m_alpha[size_t(j)];
        gone += m_alpha[size_t(j)] + m_noise[size_t(j)];
        m_alpha[size_t(j)] = 0;
        m_noise[size_t(j)] = 0;
    }
    m_alpha[size_t(i)] = sum;
    if (m_deferred)
        return m_released = std::numeric_limits<double>::quiet_NaN();
    m_noise[size_t(i)] = laplace(m_rng, m_b);
    m_released += m_alpha[size_t(i)] + m_noise[size_t(i)] - gone;
    if ((m_t & 1023) == 0) { // re-sum now and then so rounding cannot drift
        m_released = 0;
        for (size_t j = 0; j < m_alpha.size(); ++j)
            if ((uint64_t(m_t) >> j) & 1u)
                m_released += m_alpha[j] + m_noise[j];
    }
    return m_released;
}

} // namespace pl::streams
