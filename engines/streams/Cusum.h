#pragma once
/// Page's one-sided CUSUM on a loss stream: S ← max(0, S + x − target − κ), alarm when S > h. Keeps
/// the index of the last observation at which S was 0, so the change is estimated as the one after
/// it. Plain value type; no Qt.

#include <cstdint>

namespace pl::streams {

class Cusum {
public:
    /// \a target is the in-control mean (α), \a kappa the allowance, \a h the alarm threshold.
    Cusum(double target, double kappa, double h) : m_target(target), m_kappa(kappa), m_h(h) {}

    /// Adds observation \a x taken at stream index \a t; true when S exceeds h after it.
    bool update(double x, int64_t t) {
        m_s += x - m_target - m_kappa;
        if (m_s <= 0) {
            m_s = 0;
            m_lastZero = t;
        }
        return m_s > m_h;
    }
    /// Starts afresh with S = 0 as of stream index \a t.
    void reset(int64_t t) {
        m_s = 0;
        m_lastZero = t;
    }
    double statistic() const { return m_s; }
    /// Estimated change: the index after S's last zero.
    int64_t changeEstimate() const { return m_lastZero + 1; }

private:
    double m_target, m_kappa, m_h;
    double m_s = 0;
    int64_t m_lastZero = -1;
};

} // namespace pl::streams
