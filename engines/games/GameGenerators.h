#pragma once
/// Random zero-sum matrix games (row player's payoffs, row player maximises x^T A y) drawn
/// with the project's seeded pl::Rng, so the same seed gives the same game everywhere.

#include "core/Rng.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace pl::games {

enum class GameGenerator {
    Gaussian, ///< i.i.d. standard normal entries
    Uniform,  ///< i.i.d. uniform entries in [-1, 1)
    Rps, ///< generalised rock-paper-scissors: cyclic dominance with random stakes, skew-symmetric, square
         ///< (rows x rows), value 0
    HideAndSeek, ///< diagonal detection probabilities in [0.2, 1), square (rows x rows), value 1 / sum(1/p)
    Degenerate   ///< Gaussian with about a third of the rows repeating earlier rows (non-unique equilibria)
};

/// Parameter names, in enum order: gaussian, uniform, rps, hide_and_seek, degenerate.
const std::vector<std::string>& gameGeneratorNames();
/// Parses a name of gameGeneratorNames(). Throws pl::UsageError.
GameGenerator parseGameGenerator(const std::string& name);
/// True for generators that make square games from `rows` alone (cols is ignored).
bool isSquareGenerator(GameGenerator g);

/// Draws a game. rows, cols >= 1 (square generators use rows x rows).
Eigen::MatrixXd randomZeroSumGame(GameGenerator kind, int rows, int cols, Rng& rng);

} // namespace pl::games
