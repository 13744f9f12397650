#pragma once
/// The binary tree mechanism (Dwork et al. 2010; Chan, Shi, Song 2011) for continual release of a
/// counter: step t adds x_t; node i of the binary counter (the dyadic interval ending at t whose
/// length is 2^i, i = the lowest set bit of t) is released once as its exact partial sum plus
/// Laplace(b). The released prefix at t is the sum of the popcount(t) nodes of t's binary expansion,
/// so its noise has variance 2b²·popcount(t). Not thread-safe; no Qt.

#include "core/Rng.h"

#include <cstdint>
#include <vector>

namespace pl::streams {

class TreeMechanism {
public:
    /// A tree for at most 2^levels − 1 steps with Laplace scale \a b, noise from \a rng (copied).
    /// A \a deferred tree keeps only the exact node sums until activate(): nobody reads its
    /// releases before, so drawing each live node's noise then has the same distribution.
    TreeMechanism(int levels, double b, const Rng& rng, bool deferred = false);

    /// Draws the noise of the nodes live at the current step and releases from now on (no-op
    /// when already active).
    void activate();
    bool active() const { return !m_deferred; }

    /// Adds x_t for the next step t (1-based) and returns the noisy prefix sum up to t.
    double add(double x);
    /// Steps added so far.
    int64_t steps() const { return m_t; }
    /// The noisy prefix released at the last step (0 before any).
    double released() const { return m_released; }
    /// The exact prefix sum up to the last step.
    double exact() const { return m_exact; }
    /// Release of a deferred tree: NaN until activate().
    double scale() const { return m_b; }
    int levels() const { return int(m_alpha.size()); }
    /// Noise of node i as released (valid while bit i of steps() is set).
    double nodeNoise(int i) const { return m_noise[size_t(i)]; }
    /// Exact partial sum of node i (valid while bit i of steps() is set).
    double nodeSum(int i) const { return m_alpha[size_t(i)]; }

private:
    std::vector<double> m_alpha; ///< exact partial sums α_i
    std::vector<double> m_noise; ///< Laplace noise of released node i
    double m_b;
    Rng m_rng;
    int64_t m_t = 0;
    double m_exact = 0, m_released = 0;
    bool m_deferred = false;
};

/// ⌈log₂ T⌉ for T ≥ 1 (0 for T = 1).
int ceilLog2(int64_t T);

} // namespace pl::streams
