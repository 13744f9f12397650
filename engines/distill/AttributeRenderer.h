#pragma once
/// Procedural 16x16 RGB renders of an object described by six rendered attributes (shape, hue,
/// pattern, size, orientation, border) on one of two backgrounds (land: a warm grey vertical gradient,
/// water: blue-grey horizontal waves), with position, scale and rotation jitter and pixel noise. The
/// image is a row vector of 3 x 256 values in [0, 1], channel-major (R plane, G plane, B plane),
/// rows top to bottom. Pure; any thread.
#include "core/Rng.h"

#include <Eigen/Core>

#include <array>

namespace pl::distill {

/// Attribute types: the first kRenderedAttributes are drawn, the others (habitat, diet) are
/// knowledge the pixels do not show.
enum Attribute : int { Shape, Hue, Pattern, Size, Orientation, Border, Habitat, Diet };
inline constexpr int kAttributeTypes = 8;
inline constexpr int kRenderedAttributes = 6;
inline constexpr int kImageSide = 16;
inline constexpr int kImageFeatures = 3 * kImageSide * kImageSide;

/// Number of values of each attribute type.
inline constexpr std::array<int, kAttributeTypes> kAttributeValues = {8, 8, 4, 4, 4, 3, 2, 4};
/// Display name of each attribute type ("shape", "hue", ...).
const char* attributeName(int a);
/// Display name of value \a v of attribute type \a a ("circle", "red", ...).
const char* attributeValueName(int a, int v);

using AttributeVector = std::array<int, kAttributeTypes>;

/// Jitter of one render.
struct RenderJitter {
    double shiftPx = 2;      ///< uniform centre offset in [-shiftPx, shiftPx] per axis
    double scale = 0.15;     ///< size multiplied by 1 + U(-scale, scale)
    double rotationDeg = 10; ///< added rotation U(-r, r)
    double noise = 0.08;     ///< Gaussian pixel noise sd (then clipped to [0, 1])
};

/// One render of \a attrs on background \a background (0 = land, 1 = water).
Eigen::RowVectorXd renderAttributes(const AttributeVector& attrs, int background, const RenderJitter& j,
                                    Rng& rng);

} // namespace pl::distill
