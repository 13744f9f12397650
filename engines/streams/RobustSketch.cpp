#include "streams/RobustSketch.h"

#include "core/Numeric.h"

#include <cmath>
#include <string>

namespace pl::streams {

RobustSketch::RobustSketch(int64_t k, int levels, const StatisticFn& f, double epsilon, int64_t horizon,
                           int64_t restart, Rng& rng)
    : m_s(k, levels, f, KeyedHash(rng), true), m_restart(restart),
      m_L(ceilLog2(restart > 0 ? restart : std::max<int64_t>(horizon, 1))),
      m_b((m_L + 1) * 2.0 * f.bound() / epsilon), m_rng(rng.fork("tree")) {
    m_offset.assign(size_t(m_s.levels()), 0.0);
    for (int j = 0; j < m_s.levels(); ++j)
        m_trees.emplace_back(m_L + 1, m_b, m_rng.fork("level " + std::to_string(j)), j != m_s.liveLevel());
}

void RobustSketch::apply(const StreamOp& op) {
    if (m_restart > 0 && m_ops > 0 && m_ops % m_restart == 0) {
        const std::string epoch = std::to_string(m_ops / m_restart);
        for (int j = m_s.liveLevel(); j < m_s.levels(); ++j) {
            m_trees[size_t(j)].activate(); // the carried value is a release of every live level
            m_offset[size_t(j)] += m_trees[size_t(j)].released();
            m_trees[size_t(j)] =
                TreeMechanism(m_L + 1, m_b, m_rng.fork("level " + std::to_string(j) + " restart " + epoch),
                              j != m_s.liveLevel());
        }
    }
    ++m_ops;
    m_s.apply(op);
    for (int j = m_s.liveLevel(); j < m_s.levels(); ++j)
        m_trees[size_t(j)].add(m_s.levelDelta(j));
    if (m_s.liveLevel() < m_s.levels()) // a level that starts answering gets its live nodes' noise now
        m_trees[size_t(m_s.liveLevel())].activate();
}

const TreeMechanism* RobustSketch::answeringTree() const {
    const int j = m_s.liveLevel();
    return j < m_s.levels() ? &m_trees[size_t(j)] : nullptr;
}

double RobustSketch::answeringExact() const {
    const int j = m_s.liveLevel();
    return j < m_s.levels() ? m_s.levelSum(j) : kNaN;
}

double RobustSketch::estimate() const {
    const int j = m_s.liveLevel();
    if (j >= m_s.levels())
        return kNaN;
    return std::ldexp(m_offset[size_t(j)] + m_trees[size_t(j)].released(), j);
}

double RobustSketch::answerWeight() const {
    return std::ldexp(1.0, m_s.liveLevel());
}

int64_t RobustSketch::memory() const {
    int64_t n = m_s.memory();
    for (int j = m_s.liveLevel(); j < m_s.levels(); ++j)
        n += m_trees[size_t(j)].levels();
    return n;
}

} // namespace pl::streams
