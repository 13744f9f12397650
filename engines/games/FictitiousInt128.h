#pragma once
/// 128-bit integer helpers for exact fictitious-play counts (step counts past 10^19 and
/// cumulative utilities past int64). GCC/Clang `__int128`. Pure functions; thread-safe.

#include <cstdint>
#include <string>

namespace pl::games {

using Int128 = __int128;
using UInt128 = unsigned __int128;

/// Exact decimal text of an unsigned 128-bit integer ("1402..." without separators).
inline std::string toDecimal(UInt128 v) {
    if (v == 0)
        return "0";
    char buf[48];
    int k = 47;
    buf[k] = '\0';
    while (v != 0 && k > 0) {
        buf[--k] = char('0' + int(v % 10));
        v /= 10;
    }
    return std::string(buf + k);
}

/// Exact decimal text of a signed 128-bit integer.
inline std::string toDecimal(Int128 v) {
    if (v >= 0)
        return toDecimal(UInt128(v));
    std::string s = toDecimal(UInt128(-(v + 1)) + 1);
    s.insert(s.begin(), '-');
    return s;
}

/// Nearest double (correctly rounded by the compiler's conversion).
inline double toDouble(UInt128 v) {
    return double(v);
}

/// Largest value representable as signed 128-bit.
inline constexpr Int128 kInt128Max = Int128(~UInt128(0) >> 1);

} // namespace pl::games
