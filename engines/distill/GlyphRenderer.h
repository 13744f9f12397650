#pragma once
/// Procedural 16x16 grey glyphs of the protovar-distillation panel (spec §5 workload): ten classes
/// (circle, ring, square, triangle, cross, X, h-bar, v-bar, diamond, L), each render with a jitter of
/// +-3 px, a scale of 0.7-1.3, a rotation of +-20 degrees, a stroke of 1-3 px, a linear background
/// gradient and pixel noise of sd 0.05, clamped to [0, 1]. Pure; any thread.
#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::distill {

inline constexpr int kGlyphClasses = 10;
inline constexpr int kGlyphSide = 16;

/// The class names in class order ("circle", "ring", ..., "L").
const std::vector<std::string>& glyphClassNames();

/// One render of class \a cls (0..9) as 256 values, row-major, in [0, 1]. Draws from \a rng.
Eigen::VectorXd renderGlyph(int cls, Rng& rng);

/// \a perClass renders of every class, rows class by class (row = 256 pixels); \a labels gets the
/// class of each row.
Eigen::MatrixXd renderGlyphSet(int perClass, Rng& rng, std::vector<int>& labels);

} // namespace pl::distill
