#pragma once
/// Laplace noise by inverse CDF from the project's generator: with u uniform in (−1/2, 1/2),
/// X = −b·sgn(u)·ln(1 − 2|u|) has density exp(−|x|/b)/(2b) and variance 2b². Pure; no Qt.

#include "core/Rng.h"

namespace pl::streams {

/// One Laplace(0, \a b) draw (b ≥ 0; b = 0 gives 0). Advances \a rng by one uniform.
double laplace(Rng& rng, double b);

} // namespace pl::streams
