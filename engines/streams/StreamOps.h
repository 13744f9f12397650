#pragma once
/// Increment/reset streams: one operation Inc(x, Δ ≥ 0) or Reset(x), the statistic f applied to each
/// key's value, and the streamed reader of `t,op,key,delta` files (header optional; op `inc` or
/// `reset`; delta ≥ 0, empty for reset; t non-decreasing). Pure; no Qt.

#include "streams/StreamCsv.h"

#include <cstdint>
#include <istream>
#include <string>

namespace pl::streams {

/// One operation of a resettable stream.
struct StreamOp {
    int64_t t = 0;      ///< time stamp from the file (operation index for generated streams)
    bool reset = false; ///< Reset(x) when true, Inc(x, delta) otherwise
    uint64_t key = 0;   ///< key id (see keyId())
    double delta = 0;   ///< increment, ≥ 0 (0 for resets)
};

/// The statistic F = Σₓ f(vₓ) of a sketch.
enum class StatisticKind { Cardinality, Sum, Lp, Softcap };

/// f and its bound: cardinality 1[v > 0], sum v, lp v^p, softcap 1 − e^{−v/scale}, each clipped at
/// `cap` when cap > 0.
struct StatisticFn {
    StatisticKind kind = StatisticKind::Cardinality;
    double p = 0.5;   ///< exponent of lp
    double scale = 4; ///< softcap scale
    double cap = 0;   ///< 0 = no cap

    double operator()(double v) const;
    /// max f over v ≥ 0 (infinity for sum and lp without a cap).
    double bound() const;
};

/// Parses "cardinality" | "sum" | "lp" | "softcap" (UsageError otherwise).
StatisticKind statisticFromName(const std::string& name);

/// Reads operations one by one from a `t,op,key,delta` stream.
class OpStreamReader {
public:
    /// Reads from \a in (not owned); \a name is the file named in errors.
    OpStreamReader(std::istream& in, std::string name);
    /// The next operation; false at the end. Throws pl::InputError (file, line, reason) on a bad
    /// record: wrong field count, unknown op, negative or non-finite delta, decreasing t.
    bool next(StreamOp& op);
    int64_t line() const { return m_csv.line(); }

private:
    StreamCsvReader m_csv;
    std::vector<std::string> m_fields;
    int64_t m_lastT = INT64_MIN;
    bool m_first = true;
};

} // namespace pl::streams
