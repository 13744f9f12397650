#pragma once
/// Exact fictitious play on two-player games with integer payoffs (ExactPayoffs): play 0 is a
/// given pure profile; play s >= 1 is a best response of each player to the sum of the
/// opponent's plays 0..s-1 (simultaneous updates). Cumulative utilities are exact integers
/// (int64 or __int128), so tie-breaking never depends on rounding.
///
/// Two simulators with identical semantics: a step-by-step one (O(n) per step, for
/// cross-checking and for step counts up to ~10^10) and an event-driven one (while the best-response
/// pair is fixed the cumulative utilities grow linearly, so the next switch time is a ceiling
/// division; O(n) per stretch of constant play). Pure functions; thread-safe.

#include "FictitiousInt128.h"
#include "FtrlGame.h"
#include "core/Rng.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pl {
class RunContext;
}

namespace pl::games {

/// How a player chooses among equally good best responses.
enum class TieBreak {
    Lowest,     ///< the lowest strategy index
    Random,     ///< uniformly among the tied strategies (pl::Rng seeded with FpOptions::seed)
    Adversarial ///< the tied strategy farthest (in index) from the target profile, then the lowest
};

/// Parses "lowest" | "random" | "adversarial"; throws pl::UsageError otherwise.
TieBreak parseTieBreak(const std::string& text);

struct FpOptions {
    TieBreak tieBreak = TieBreak::Lowest;
    int firstRow = 0; ///< play 0 (0-based)
    int firstCol = 0;
    int targetRow = -1; ///< stop at the first play equal to this profile (-1: never)
    int targetCol = -1;
    UInt128 maxSteps = 1000000; ///< last play index examined (event-driven: at most 2^126)
    uint64_t seed = 0;          ///< for TieBreak::Random
    size_t maxPeriods = 100000; ///< periods beyond this are counted but not stored
};

/// A maximal run of identical plays.
struct FpPeriod {
    int row = 0;
    int col = 0;
    UInt128 start = 0;  ///< index of its first play
    UInt128 length = 0; ///< number of plays
};

struct FpResult {
    bool reached = false;          ///< the target profile was played
    UInt128 steps = 0;             ///< index of the first target play, or maxSteps when not reached
    bool overflow = false;         ///< stopped early: cumulative utilities would exceed 128 bits
    bool absorbing = false;        ///< stopped early: the play can never change again (not the target)
    uint64_t numPeriods = 0;       ///< number of periods (the target's own period excluded)
    std::vector<FpPeriod> periods; ///< the first maxPeriods periods
    uint64_t stretches = 0;        ///< loop iterations (steps, or stretches for the event-driven one)
    std::vector<Int128> finalUx;   ///< row player's cumulative utilities at the stop (plays 0..steps-1)
    std::vector<Int128> finalUy;   ///< column player's cumulative utilities at the stop
};

/// Step-by-step simulator. Polls ctx (optional) every 16384 steps and reports progress.
FpResult runFictitiousPlayStep(const ExactPayoffs& game, const FpOptions& opt, RunContext* ctx = nullptr);

/// Event-driven simulator, same result as runFictitiousPlayStep (including random tie draws, which
/// happen only at ties). Polls ctx (optional) every 1024 stretches.
FpResult runFictitiousPlayEvents(const ExactPayoffs& game, const FpOptions& opt, RunContext* ctx = nullptr);

namespace detail {
/// Strategy order by tie priority (first = preferred) for Lowest / Adversarial.
std::vector<int> tiePriorityOrder(int n, int target, TieBreak rule);

/// Best response: the highest-priority strategy among the maximisers (scan in priority order,
/// strict improvement), or a uniform draw among the maximisers for TieBreak::Random.
template <class Acc>
int chooseBestResponse(const std::vector<Acc>& U, const std::vector<int>& order, TieBreak rule, Rng& rng) {
    const int n = int(U.size());
    if (rule != TieBreak::Random) {
        int best = order[0];
        for (int t = 1; t < n; ++t)
            if (U[size_t(order[size_t(t)])] > U[size_t(best)])
                best = order[size_t(t)];
        return best;
    }
    int best = 0, ties = 1;
    for (int k = 1; k < n; ++k) {
        if (U[size_t(k)] > U[size_t(best)]) {
            best = k;
            ties = 1;
        } else if (U[size_t(k)] == U[size_t(best)]) {
            ++ties;
        }
    }
    if (ties == 1)
        return best;
    uint64_t pick = rng.uniformInt(uint64_t(ties));
    for (int k = best; k < n; ++k)
        if (U[size_t(k)] == U[size_t(best)] && pick-- == 0)
            return k;
    return best;
}
} // namespace detail

} // namespace pl::games
