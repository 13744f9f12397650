#pragma once
/// The workbench's "snake" identical-interest games (shared/papers/specs-000.md, section 3): an
/// improvement path (1,1) -> (2,1) -> (2,2) -> (3,2) -> ... -> (n,n) with increasing payoffs,
/// every other profile 0, A = B. The unique pure Nash equilibrium is (n,n). This is the
/// workbench's own construction, not the paper's (which was not available). Pure functions.

#include "FtrlGame.h"

namespace pl::games {

/// Profile (0-based row, column) at position m = 0 .. 2n-2 along the snake's path.
std::pair<int, int> snakePathProfile(int m);

/// Linear snake: path payoffs p_k = 2n + k - 1 (k = 1 .. 2n-1) as exact integers over the
/// denominator 4n, i.e. p_1 = 0.5 with increments 1/(4n) in double form (range [0.5, 1 - 1/(2n)]).
/// n >= 2. Throws pl::UsageError for n < 2 or n > 4096.
FtrlGame makeLinearSnake(int n);

/// Geometric snake: p_{k+1} = p_k (1 + 1/r), last payoff 1. Exact integer payoffs when r = a/b with
/// b <= 12 and (a+b)^(2n-2) < 2^40; otherwise `exact` is empty. r > 0, n >= 2.
FtrlGame makeGeometricSnake(int n, double r);

} // namespace pl::games
