#pragma once
/// Nested keyed-hash Bernoulli sampling for increment/reset streams: key x belongs to level j
/// (sampling rate p_j = 2^{−j}) when the SipHash of x (or of (x, epoch)) has at least j leading zero
/// bits. Each level stores the exact values of at most k active keys; a level that would exceed k is
/// dropped for good, and the answer is the finest live level's Σf / p_j. With per-epoch coins, a key
/// that was stored and is reset gets a fresh coin on its next activation (its epoch is remembered;
/// keys never stored keep epoch 0). Not thread-safe; no Qt.

#include "streams/KeyedHash.h"
#include "streams/StreamOps.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace pl::streams {

class SamplingSketch {
public:
    /// \a k keys per level, \a levels levels (p_0 = 1 … p_{levels−1}), statistic \a f, hash \a h.
    SamplingSketch(int64_t k, int levels, const StatisticFn& f, const KeyedHash& h, bool perEpochCoins);

    /// Applies one operation; levelDelta() then holds each level's change of Σf.
    void apply(const StreamOp& op);
    /// Σf / p of the finest live level (NaN when every level has overflowed).
    double estimate() const;
    /// The finest live level (levels() when none is left).
    int liveLevel() const { return m_live; }
    int levels() const { return int(m_levels.size()); }
    /// Σf stored in level j (0 for a dead level).
    double levelSum(int j) const { return m_levels[size_t(j)].sum; }
    /// Change of level j's Σf in the last apply() (0 for dead levels).
    double levelDelta(int j) const { return m_delta[size_t(j)]; }
    /// True when level j has overflowed and was dropped.
    bool dead(int j) const { return m_levels[size_t(j)].dead; }
    /// Whether x (with its current epoch) is sampled at level j.
    bool sampled(uint64_t x, int j) const { return depth(x) >= j; }
    /// Stored entries: keys over all live levels plus remembered epochs.
    int64_t memory() const;

private:
    struct Level {
        std::unordered_map<uint64_t, double> values;
        double sum = 0;
        bool dead = false;
    };
    int depth(uint64_t x) const;
    void kill(int j);

    int64_t m_k;
    StatisticFn m_f;
    KeyedHash m_hash;
    bool m_perEpoch;
    std::vector<Level> m_levels;
    std::vector<double> m_delta;
    std::unordered_map<uint64_t, uint64_t> m_epoch;
    int m_live = 0;
    int m_touchedLo = 0, m_touchedHi = -1; ///< levels whose m_delta the last apply() may have set
};

} // namespace pl::streams
