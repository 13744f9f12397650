#pragma once
/// Drives the resettable sketches over a stream and records what the panel shows: generated
/// workloads (monitoring: Zipf increments and random resets; unlearning: batch resets of one user's
/// keys), the adaptive attack (once per sketch), and per sketch the true F and F̂ every `stride`
/// operations, prefix-max error, memory, attacker accuracy and a snapshot of the answering tree.
/// Deterministic in (setup, seed); no Qt.

#include "core/ResultDocument.h"
#include "core/Rng.h"
#include "core/RunContext.h"
#include "streams/PrefixMaxError.h"
#include "streams/Sketches.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pl::streams {

/// Everything that defines the sketches of one run.
struct SketchSetup {
    StatisticFn f;
    int64_t k = 4096;
    double epsilon = 1;
    int64_t T = 65536; ///< operations (planned horizon of the trees)
    int64_t restart = 0;
    int levels = 20;
    double switchAlpha = 0.1;
    int copies = 32;
    int64_t universe = 100000;
    int64_t treeT = 0; ///< operation at which the answering tree is captured (0 = ⌊2T/3⌋)
};

/// The answering tree of the robust sketch at one operation.
struct TreeSnapshot {
    int64_t t = 0;  ///< steps of that tree (since its last restart)
    int64_t op = 0; ///< operation index
    int levels = 0;
    int liveLevel = 0;
    double b = 0;
    std::vector<double> noise, sum; ///< per node level i (valid where bit i of t is set)
    double exact = 0, released = 0;
};

/// What one sketch produced over one stream.
struct SketchTrack {
    std::string name;
    Series truth, estimate, prefixError, memory, attackAccuracy;
    PrefixMaxError pm;
    double trueFinal = 0, estimateFinal = 0;
    int64_t peakMemory = 0, queries = 0, correct = 0;
    bool captured = false;
    int flips = -1; ///< sketch switching: switches made (−1 for other sketches)
    TreeSnapshot tree;

    double finalError() const;
    double accuracy() const;
};

/// A sketch by name: "baseline", "robust", "switching" or "exact".
std::unique_ptr<ResettableSketch> makeSketch(const std::string& name, const SketchSetup& s, Rng rng);

/// Operations of a generated workload ("monitoring" or "unlearning"), exactly s.T of them.
std::vector<StreamOp> generatedOps(const std::string& workload, const SketchSetup& s, Rng rng);

/// Records every sketch on one fixed stream fed op by op (generated or streamed from a file).
class FixedStreamRun {
public:
    FixedStreamRun(const std::vector<std::string>& names, const SketchSetup& s, uint64_t seed);
    /// Feeds one operation to every sketch and the exact answer.
    void apply(const StreamOp& op);
    /// Closes the series (records the last point); \a total = operations fed.
    std::vector<SketchTrack> finish();

private:
    SketchSetup m_setup;
    std::vector<std::unique_ptr<ResettableSketch>> m_sketches;
    std::vector<SketchTrack> m_tracks;
    ExactSketch m_exact;
    int64_t m_ops = 0, m_stride;
};

/// The adaptive attack against one sketch: insert and reset k+1 fresh keys, then Inc a fresh key,
/// query, and Reset it if the answer rose by at least half the answering level's weight, until T.
SketchTrack runAttack(const std::string& name, const SketchSetup& s, uint64_t seed, RunContext& ctx);

} // namespace pl::streams
