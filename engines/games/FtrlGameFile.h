#pragma once
/// User game files for the ftrl-potential-games panel. `.nfg` (any payload style, 2 to 4 players,
/// at most 10^7 profiles) goes through the shared Gambit reader; `.csv` holds either one matrix
/// (an identical-interest game, A = B) or two matrices of equal shape separated by a blank line
/// (A for the row player, then B for the column player). Validated before anything is returned.
/// No Qt; thread-safe.

#include "Game.h"

#include <memory>
#include <string>

namespace pl::games {

/// Largest number of strategies per player in a CSV game.
inline constexpr int kFtrlMaxCsvStrategies = 2048;
/// Largest number of players and of pure profiles accepted from an .nfg file.
inline constexpr int kFtrlMaxPlayers = 4;
inline constexpr int64_t kFtrlMaxProfiles = 10'000'000;

/// Loads a game by extension (case-insensitive). Throws pl::InputError(file, reason, line, col).
std::shared_ptr<const GameInput> loadFtrlGameFile(const std::string& path);

/// Parses CSV text (one or two matrices); `name` is used in messages. Throws pl::InputError.
NormalFormGame parseFtrlCsvGame(const std::string& text, const std::string& name);

} // namespace pl::games
