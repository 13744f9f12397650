#pragma once
/// The cells of a parameter sweep (`paperlab sweep`, docs/cli-contract.md): grid axes parsed from
/// `K=v1,v2,...` or `K=lo:hi:n[:log]` against a panel's parameter specs, a seed range, and one
/// stable file name per (cell, seed) so that a sweep can resume. Plain values; any thread.

#include "core/ParamSpec.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pl {

/// One grid axis: a parameter key and its values as text (each valid for the key's spec).
struct SweepAxis {
    std::string key;
    std::vector<std::string> values;
};

/// One run of the sweep: the grid values of its cell and its seed.
struct SweepCell {
    int cellIndex = 0;                                       ///< index of the grid cell (seeds share it)
    std::vector<std::pair<std::string, std::string>> values; ///< (key, text) per axis, axis order
    uint64_t seed = 0;
    std::string fileStem; ///< "<k>-<v>_..._seed-<s>" with unsafe characters replaced by '_'
};

class SweepPlan {
public:
    /// Parses the axes (one string per --grid) and the seed range ("A..B", or "N" for 1..N).
    /// Throws UsageError (naming the axis and why) for unknown keys, a key given twice, empty
    /// values, ranges on non-numeric parameters, values outside the spec, n < 1, log ranges with
    /// a bound ≤ 0, bad seed ranges, more than `maxRuns` runs, or two cells with one file name.
    static SweepPlan parse(const std::vector<ParamSpec>& specs, const std::vector<std::string>& grids,
                           const std::string& seeds, int64_t maxRuns = 1000000);
    /// A plan from axes and seeds already checked (e.g. read back from a sweep.json).
    static SweepPlan fromAxes(std::vector<SweepAxis> axes, std::vector<uint64_t> seeds);
    const std::vector<SweepAxis>& axes() const { return m_axes; }
    const std::vector<uint64_t>& seeds() const { return m_seeds; }
    int64_t cellCount() const;
    /// Every run, grid-major (last axis fastest), seeds innermost.
    std::vector<SweepCell> runs() const;
    /// The parameters of a run: `base` with the cell's values set.
    ParamSet paramsOf(const ParamSet& base, const SweepCell& run) const;

private:
    std::vector<SweepAxis> m_axes;
    std::vector<uint64_t> m_seeds;
};

} // namespace pl
