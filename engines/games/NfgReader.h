#pragma once
/// Staged, validated reader for Gambit strategic-form files (`.nfg`, "NFG 1 R" and "NFG 1 D").
/// Both payload styles are accepted: a list of outcomes `{ "name" u1, u2, ... }` followed by
/// one 1-based outcome index per strategy profile (0 = the all-zero outcome), or a plain list of
/// payoffs, all players' payoffs for each profile, player 1's strategy changing fastest.
/// Numbers may be integers, decimals with exponents or rationals (`3/2`). No Qt; thread-safe
/// (no shared state).

#include "Game.h"

#include <cstdint>
#include <string>

namespace pl::games {

struct NfgLimits {
    int maxPlayers = 64;              ///< refuse games with more players
    int64_t maxProfiles = 10'000'000; ///< refuse games with more pure-strategy profiles
    int64_t maxPayoffBytes =
        1ll << 30; ///< refuse games whose payoff tables (players x profiles doubles) need more
    int64_t maxBytes = 256ll << 20; ///< refuse bigger files before reading them
};

class NfgReader {
public:
    /// Reads and validates a file. Throws pl::InputError(file, reason, line, column); nothing
    /// is returned half-built.
    static NormalFormGame readFile(const std::string& path, const NfgLimits& limits = {});
    /// Parses text already in memory; `name` is used in error messages.
    static NormalFormGame parse(const std::string& text, const std::string& name,
                                const NfgLimits& limits = {});
};

} // namespace pl::games
