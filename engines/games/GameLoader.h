#pragma once
/// Loading user game files into GameInput staging objects: Gambit `.nfg` (any number of
/// players), and zero-sum matrices as `.csv` or `.npy` (the row player's payoff A; the row
/// player maximises x^T A y, the column player receives -A). No Qt; thread-safe.

#include "Game.h"

#include <Eigen/Core>
#include <memory>
#include <string>

namespace pl::games {

/// Largest number of strategies per player accepted from a zero-sum matrix file.
inline constexpr int64_t kMaxMatrixStrategies = 5000;

/// Reads a CSV matrix (pl::CsvReader rules) as the row player's payoffs of a zero-sum game.
/// A header row, when present, names the column player's strategies. Throws pl::InputError.
NormalFormGame readZeroSumCsv(const std::string& path);

/// Reads a 2-d `.npy` array (pl::NpyReader dtypes) as the row player's payoffs of a zero-sum
/// game. Throws pl::InputError (not 2-d, empty, non-finite, too large).
NormalFormGame readZeroSumNpy(const std::string& path);

/// Loads `.nfg`, `.csv` or `.npy` (chosen by extension, case-insensitive) into a GameInput
/// with path, kind ("nfg", "csv", "npy") and a one-line summary. Throws pl::InputError.
std::shared_ptr<const GameInput> loadGameFile(const std::string& path);

/// True when a two-player game is constant-sum: |A + B - c| <= tol for one constant c.
/// `maxDeviation` (optional) receives max |A + B - c| with c the mean of A + B.
bool isConstantSum(const NormalFormGame& game, double tol = 1e-12, double* maxDeviation = nullptr);

/// The row player's payoff matrix of a two-player game for a zero-sum solver. Throws
/// pl::InputError(file, "not zero-sum ...") unless the game is constant-sum within 1e-12 or
/// `usePlayer1Payoffs` is set (then B is ignored). Throws InputError for other player counts.
Eigen::MatrixXd zeroSumMatrix(const NormalFormGame& game, const std::string& file, bool usePlayer1Payoffs);

/// "4x4 zero-sum game 'title'" style description used in summaries and notes.
std::string describeGame(const NormalFormGame& game);

} // namespace pl::games
