#pragma once
/// Prefix-max error of an estimate stream: max_t |F̂_t − F_t| / max_t F_t (0 while F has been 0).
/// Plain value type; no Qt.

#include <algorithm>
#include <cmath>

namespace pl::streams {

class PrefixMaxError {
public:
    /// Adds one (truth, estimate) pair.
    void add(double truth, double estimate) {
        m_maxErr = std::max(m_maxErr, std::abs(estimate - truth));
        m_maxTruth = std::max(m_maxTruth, truth);
    }
    /// The error so far.
    double value() const { return m_maxTruth > 0 ? m_maxErr / m_maxTruth : 0.0; }
    double maxAbsError() const { return m_maxErr; }
    double maxTruth() const { return m_maxTruth; }

private:
    double m_maxErr = 0, m_maxTruth = 0;
};

} // namespace pl::streams
