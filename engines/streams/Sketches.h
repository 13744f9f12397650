#pragma once
/// The estimators of the resettable-sketches panel behind one interface: the exact hash map, the
/// baseline multi-level sampling sketch, sketch switching (Ben-Eliezer et al. 2020) over independent
/// baseline copies, and (RobustSketch.h) the sampling sketch released through the binary tree
/// mechanism. Not thread-safe; no Qt.

#include "streams/SamplingSketch.h"
#include "streams/StreamOps.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace pl::streams {

class ResettableSketch {
public:
    virtual ~ResettableSketch() = default;
    /// Processes one operation.
    virtual void apply(const StreamOp& op) = 0;
    /// The answer F̂ after the operations so far.
    virtual double estimate() const = 0;
    /// 1/p of the level that answers (what one sampled key of f = 1 adds to the answer).
    virtual double answerWeight() const = 0;
    /// Whether key x (as of now) is sampled in the level that answers.
    virtual bool answersWith(uint64_t x) const = 0;
    /// Stored entries (keys, epochs, tree nodes).
    virtual int64_t memory() const = 0;
};

/// The exact answer: a hash map of every key's value.
class ExactSketch : public ResettableSketch {
public:
    explicit ExactSketch(const StatisticFn& f) : m_f(f) {}
    void apply(const StreamOp& op) override;
    double estimate() const override { return m_F; }
    double answerWeight() const override { return 1; }
    bool answersWith(uint64_t) const override { return true; }
    int64_t memory() const override { return int64_t(m_values.size()); }
    /// Current value of key x (0 when absent).
    double value(uint64_t x) const;

private:
    StatisticFn m_f;
    std::unordered_map<uint64_t, double> m_values;
    double m_F = 0;
};

/// The baseline: SamplingSketch with one coin per key, answered exactly.
class BaselineSketch : public ResettableSketch {
public:
    BaselineSketch(int64_t k, int levels, const StatisticFn& f, const KeyedHash& h)
        : m_s(k, levels, f, h, false) {}
    void apply(const StreamOp& op) override { m_s.apply(op); }
    double estimate() const override { return m_s.estimate(); }
    double answerWeight() const override;
    bool answersWith(uint64_t x) const override { return m_s.sampled(x, m_s.liveLevel()); }
    int64_t memory() const override { return m_s.memory(); }

private:
    SamplingSketch m_s;
};

/// Sketch switching: `copies` independent baselines; the output is frozen until the active copy's
/// answer leaves [y/(1+α), y(1+α)], then the next copy becomes active and its answer is output.
/// When the copies run out the last one answers directly.
class SwitchingSketch : public ResettableSketch {
public:
    SwitchingSketch(int copies, double alpha, int64_t k, int levels, StatisticFn f, Rng& rng);
    void apply(const StreamOp& op) override;
    double estimate() const override { return m_y; }
    double answerWeight() const override;
    bool answersWith(uint64_t x) const override;
    int64_t memory() const override;
    /// Switches so far.
    int flips() const { return m_active; }
    int copies() const { return int(m_copies.size()); }

private:
    std::vector<SamplingSketch> m_copies;
    double m_alpha;
    int m_active = 0;
    double m_y = 0;
};

} // namespace pl::streams
