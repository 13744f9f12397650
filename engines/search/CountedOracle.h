#pragma once
/// A counted, capped budget of oracle calls (expensive distances, function evaluations): every
/// call is charged before it is made, and a charge that would pass the cap is refused, so a search
/// written against it can never spend more than its quota. Plain value; one per search (not
/// thread-safe).

#include <cstdint>
#include <optional>
#include <utility>

namespace pl::search {

class CountedOracle {
public:
    /// \a cap calls at most; a negative cap means unlimited (still counted).
    explicit CountedOracle(int64_t cap = -1) : m_cap(cap) {}

    /// Charges \a n calls and returns true, or returns false and charges nothing when they would
    /// pass the cap.
    bool tryCharge(int64_t n = 1);
    /// How many of \a want calls may still be made (all of them when unlimited).
    int64_t grant(int64_t want) const;
    /// Calls charged so far.
    int64_t calls() const { return m_calls; }
    /// The cap (negative: unlimited).
    int64_t cap() const { return m_cap; }
    /// Calls left before the cap (a large number when unlimited).
    int64_t remaining() const;
    /// True when no further call may be made.
    bool exhausted() const { return m_cap >= 0 && m_calls >= m_cap; }

    /// Charges one call and returns f(), or nothing (f not called) when the cap is reached.
    template <class F> auto call(F&& f) -> std::optional<decltype(f())> {
        if (!tryCharge())
            return std::nullopt;
        return std::forward<F>(f)();
    }

private:
    int64_t m_cap;
    int64_t m_calls = 0;
};

} // namespace pl::search
