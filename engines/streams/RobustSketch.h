#pragma once
/// The adaptively robust sketch (our teaching reconstruction of Cohen, Gribelyuk, Nelson, Stemmer):
/// the multi-level sampling sketch with one coin per key and activation epoch, whose per-level
/// counters Σf are released only through the binary tree mechanism with Laplace((L+1)Δ/ε) per node,
/// Δ = 2·max f, L = ⌈log₂ horizon⌉; the answer is the finest live level's released counter / p_j.
/// Every `restart` operations (0 = never) each level's tree restarts with fresh noise, carrying the
/// last released value. Only the answering level's tree draws noise as it goes; the others defer
/// it until they start answering (TreeMechanism::activate), which leaves every release's
/// distribution unchanged. Not thread-safe; no Qt.

#include "streams/Sketches.h"
#include "streams/TreeMechanism.h"

#include <vector>

namespace pl::streams {

class RobustSketch : public ResettableSketch {
public:
    /// \a horizon: operations planned (T); f.bound() must be finite.
    RobustSketch(int64_t k, int levels, const StatisticFn& f, double epsilon, int64_t horizon,
                 int64_t restart, Rng& rng);
    void apply(const StreamOp& op) override;
    double estimate() const override;
    double answerWeight() const override;
    bool answersWith(uint64_t x) const override { return m_s.sampled(x, m_s.liveLevel()); }
    int64_t memory() const override;
    /// Laplace scale b = (L+1)Δ/ε of every node.
    double noiseScale() const { return m_b; }
    /// Tree depth L.
    int depth() const { return m_L; }
    /// The tree of the answering level (nullptr when none is live).
    const TreeMechanism* answeringTree() const;
    /// Exact counter of the answering level.
    double answeringExact() const;

private:
    SamplingSketch m_s;
    std::vector<TreeMechanism> m_trees;
    std::vector<double> m_offset; ///< released value carried over restarts
    int64_t m_restart, m_ops = 0;
    int m_L;
    double m_b;
    Rng m_rng;
};

} // namespace pl::streams
