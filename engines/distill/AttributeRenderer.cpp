#include "AttributeRenderer.h"

#include <algorithm>
#include <cmath>

namespace pl::distill {

namespace {

constexpr double kPi = 3.14159265358979323846;

const char* const kNames[kAttributeTypes] = {"shape",       "hue",    "pattern", "size",
                                             "orientation", "border", "habitat", "diet"};
const char* const kShape[] = {"circle", "ring", "square", "triangle", "cross", "diamond", "h-bar", "v-bar"};
const char* const kHue[] = {"red", "orange", "yellow", "green", "cyan", "blue", "purple", "magenta"};
const char* const kPattern[] = {"solid", "h-stripes", "v-stripes", "checker"};
const char* const kSize[] = {"small", "medium", "large", "huge"};
const char* const kOrient[] = {"0 deg", "22.5 deg", "45 deg", "67.5 deg"};
const char* const kBorder[] = {"none", "dark", "light"};
const char* const kHabitat[] = {"land", "water"};
const char* const kDiet[] = {"seeds", "insects", "fish", "nectar"};
const char* const* const kValues[kAttributeTypes] = {kShape,  kHue,    kPattern, kSize,
                                                     kOrient, kBorder, kHabitat, kDiet};

constexpr double kPalette[8][3] = {{0.9, 0.1, 0.1},   {0.95, 0.55, 0.1}, {0.95, 0.9, 0.15}, {0.2, 0.75, 0.2},
                                   {0.1, 0.85, 0.85}, {0.15, 0.25, 0.9}, {0.55, 0.2, 0.75}, {0.9, 0.2, 0.7}};

/// Inside test of a shape in object coordinates (unit radius).
bool inside(int shape, double u, double v) {
    const double au = std::abs(u), av = std::abs(v);
    switch (shape) {
    case 0:
        return u * u + v * v <= 1.0;
    case 1: {
        const double r2 = u * u + v * v;
        return r2 <= 1.0 && r2 >= 0.3;
    }
    case 2:
        return std::max(au, av) <= 0.8;
    case 3:
        return v >= -0.8 && v <= 0.8 && au <= 0.55 * (v + 0.8);
    case 4:
        return (au <= 0.3 && av <= 1.0) || (av <= 0.3 && au <= 1.0);
    case 5:
        return au + av <= 1.0;
    case 6:
        return au <= 1.0 && av <= 0.35;
    default:
        return au <= 0.35 && av <= 1.0;
    }
}

double patternFactor(int pattern, double u, double v) {
    const int iu = int(std::floor((u + 2.0) * 2.5)), iv = int(std::floor((v + 2.0) * 2.5));
    switch (pattern) {
    case 1:
        return iv % 2 ? 0.45 : 1.0;
    case 2:
        return iu % 2 ? 0.45 : 1.0;
    case 3:
        return (iu + iv) % 2 ? 0.45 : 1.0;
    default:
        return 1.0;
    }
}

void background(int kind, int x, int y, double tint, double rgb[3]) {
    if (kind == 0) {
        rgb[0] = 0.45 + 0.1 * y / kImageSide + tint;
        rgb[1] = 0.42 + 0.05 * y / kImageSide + tint;
        rgb[2] = 0.32 + tint;
    } else {
        const double w = std::sin(0.9 * x + 1.7 * std::floor(y / 3.0));
        rgb[0] = 0.33 + tint;
        rgb[1] = 0.38 + 0.04 * w + tint;
        rgb[2] = 0.48 + 0.06 * w + tint;
    }
}

} // namespace

const char* attributeName(int a) {
    return a >= 0 && a < kAttributeTypes ? kNames[a] : "?";
}

const char* attributeValueName(int a, int v) {
    if (a < 0 || a >= kAttributeTypes || v < 0 || v >= kAttributeValues[size_t(a)])
        return "?";
    return kValues[a][v];
}

Eigen::RowVectorXd renderAttributes(const AttributeVector& attrs, int bg, const RenderJitter& j, Rng& rng) {
    const double cx = 7.5 + rng.uniform(-j.shiftPx, j.shiftPx);
    const double cy = 7.5 + rng.uniform(-j.shiftPx, j.shiftPx);
    const double radius = (3.0 + attrs[Size]) * 0.85 * (1.0 + rng.uniform(-j.scale, j.scale));
    const double ang = (22.5 * attrs[Orientation] + rng.uniform(-j.rotationDeg, j.rotationDeg)) * kPi / 180.0;
    const double ca = std::cos(ang), sa = std::sin(ang);
    const double tint = rng.uniform(-0.08, 0.08);
    const double* colour = kPalette[attrs[Hue]];
    Eigen::RowVectorXd img(kImageFeatures);
    const int plane = kImageSide * kImageSide;
    for (int y = 0; y < kImageSide; ++y)
        for (int x = 0; x < kImageSide; ++x) {
            const double dx = (x - cx) / radius, dy = (y - cy) / radius;
            const double u = ca * dx + sa * dy, v = -sa * dx + ca * dy;
            double rgb[3];
            background(bg, x, y, tint, rgb);
            if (inside(attrs[Shape], u, v)) {
                const bool edge = attrs[Border] != 0 && !inside(attrs[Shape], u * 1.45, v * 1.45);
                const double f = patternFactor(attrs[Pattern], u, v);
                for (int c = 0; c < 3; ++c)
                    rgb[c] = edge ? (attrs[Border] == 1 ? 0.05 : 0.97) : colour[c] * f;
            }
            for (int c = 0; c < 3; ++c)
                img(c * plane + y * kImageSide + x) = std::clamp(rgb[c] + j.noise * rng.normal(), 0.0, 1.0);
        }
    return img;
}

} // namespace pl::distill
