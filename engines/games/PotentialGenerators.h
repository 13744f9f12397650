#pragma once
/// Random two-player potential games for the ftrl-potential-games panel, with exact integer
/// payoffs (over a denominator) so that fictitious play can run exactly on them. Deterministic in
/// the generator's state. Pure functions.

#include "FtrlGame.h"

namespace pl {
class Rng;
}

namespace pl::games {

/// Integer payoff levels 0..kRandomGameLevels are divided by kRandomGameLevels.
inline constexpr int64_t kRandomGameLevels = 1000;

/// Exact potential game: a random potential Phi plus player-specific terms that depend only on
/// the opponent's action, A(i,j) = Phi(i,j) + c(j), B(i,j) = Phi(i,j) + d(i), every entry
/// uniform on {0, ..., L}/L (L = kRandomGameLevels). The target profile is argmax Phi (lowest row,
/// then column). rows, cols >= 1. Draws rows*cols + rows + cols integers from `rng`.
FtrlGame makeRandomPotentialGame(int rows, int cols, Rng& rng);

/// Identical-interest game A = B with entries uniform on {0, ..., L}/L; target = argmax A.
FtrlGame makeRandomIdenticalGame(int rows, int cols, Rng& rng);

} // namespace pl::games
