#include "streams/TreeMechanism.h"

#include "streams/Laplace.h"

#include <bit>

namespace pl::streams {

int ceilLog2(int64_t T) {
    int L = 0;
    while ((int64_t(1) << L) < T && L < 62)
        ++L;
    return L;
}

TreeMechanism::TreeMechanism(int levels, double b, Rng rng)
    : m_alpha(size_t(levels < 1 ? 1 : levels), 0.0), m_noise(m_alpha.size(), 0.0), m_b(b), m_rng(rng) {}

double TreeMechanism::add(double x) {
    ++m_t;
    m_exact += x;
    const int i = std::countr_zero(uint64_t(m_t));
    if (size_t(i) >= m_alpha.size()) { // past the planned horizon: grow by one level
        m_alpha.resize(size_t(i) + 1, 0.0);
        m_noise.resize(size_t(i) + 1, 0.0);
    }
    double sum = x;
    for (int j = 0; j < i; ++j) {
        sum += m_alpha[size_t(j)];
        m_alpha[size_t(j)] = 0;
        m_noise[size_t(j)] = 0;
    }
    m_alpha[size_t(i)] = sum;
    m_noise[size_t(i)] = laplace(m_rng, m_b);
    double out = 0;
    for (size_t j = 0; j < m_alpha.size(); ++j)
        if ((uint64_t(m_t) >> j) & 1u)
            out += m_alpha[j] + m_noise[j];
    m_released = out;
    return out;
}

} // namespace pl::streams
