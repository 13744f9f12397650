#include "GlyphRenderer.h"

#include <algorithm>
#include <cmath>

namespace pl::distill {

namespace {

struct Segment {
    double ax, ay, bx, by;
};

double segmentDistance(double px, double py, const Segment& s) {
    const double dx = s.bx - s.ax, dy = s.by - s.ay;
    const double len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(((px - s.ax) * dx + (py - s.ay) * dy) / len2, 0.0, 1.0) : 0.0;
    const double ex = px - (s.ax + t * dx), ey = py - (s.ay + t * dy);
    return std::sqrt(ex * ex + ey * ey);
}

std::vector<Segment> polygon(const std::vector<double>& xy) {
    std::vector<Segment> out;
    const size_t n = xy.size() / 2;
    for (size_t i = 0; i < n; ++i) {
        const size_t j = (i + 1) % n;
        out.push_back({xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]});
    }
    return out;
}

/// The stroked segments of class \a cls (glyph units, radius about 5); none for the filled shapes.
std::vector<Segment> glyphSegments(int cls) {
    switch (cls) {
    case 3:
        return polygon({0, -5, 4.8, 3.8, -4.8, 3.8}); // triangle
    case 4:
        return {{-5, 0, 5, 0}, {0, -5, 0, 5}}; // cross
    case 5:
        return {{-4, -4, 4, 4}, {-4, 4, 4, -4}}; // X
    case 6:
        return {{-5, 0, 5, 0}}; // h-bar
    case 7:
        return {{0, -5, 0, 5}}; // v-bar
    case 8:
        return polygon({0, -5, 5, 0, 0, 5, -5, 0}); // diamond
    case 9:
        return {{-3, -5, -3, 4}, {-3, 4, 4, 4}}; // L
    default:
        return {};
    }
}

/// Distance (glyph units) from (x, y) to the ink of class \a cls; 0 inside filled shapes.
double glyphDistance(int cls, const std::vector<Segment>& segs, double x, double y) {
    const double r = std::sqrt(x * x + y * y);
    if (cls == 0)
        return std::max(0.0, r - 4.5); // circle (filled)
    if (cls == 1)
        return std::abs(r - 4.5); // ring
    if (cls == 2)
        return std::max(0.0, std::max(std::abs(x), std::abs(y)) - 3.8); // square (filled)
    double d = 1e9;
    for (const Segment& s : segs)
        d = std::min(d, segmentDistance(x, y, s));
    return d;
}

} // namespace

const std::vector<std::string>& glyphClassNames() {
    static const std::vector<std::string> names = {"circle", "ring",  "square", "triangle", "cross",
                                                   "X",      "h-bar", "v-bar",  "diamond",  "L"};
    return names;
}

Eigen::VectorXd renderGlyph(int cls, Rng& rng) {
    const double tx = rng.uniform(-3, 3), ty = rng.uniform(-3, 3);
    const double sc = rng.uniform(0.7, 1.3);
    const double rot = rng.uniform(-20, 20) * M_PI / 180.0;
    const double stroke = rng.uniform(1, 3);
    const double gx = rng.uniform(-1, 1), gy = rng.uniform(-1, 1), base = rng.uniform(0.05, 0.25);
    const double ink = rng.uniform(0.8, 1.0);
    const double c = std::cos(rot), s = std::sin(rot);
    const double half = (kGlyphSide - 1) / 2.0;
    const std::vector<Segment> segs = glyphSegments(cls);
    Eigen::VectorXd img(kGlyphSide * kGlyphSide);
    for (int i = 0; i < kGlyphSide; ++i)
        for (int j = 0; j < kGlyphSide; ++j) {
            // pixel centre -> glyph frame (inverse translate, rotate, scale)
            const double px = j - half - tx, py = i - half - ty;
            const double gxp = (c * px + s * py) / sc, gyp = (-s * px + c * py) / sc;
            const double d = glyphDistance(cls, segs, gxp, gyp) * sc; // back to pixels
            const double cover = std::clamp(stroke / 2 + 0.5 - d, 0.0, 1.0);
            const double bg = base + 0.1 * (gx * (j - half) + gy * (i - half)) / half;
            const double v = bg * (1 - cover) + ink * cover + 0.05 * rng.normal();
            img(i * kGlyphSide + j) = std::clamp(v, 0.0, 1.0);
        }
    return img;
}

Eigen::MatrixXd renderGlyphSet(int perClass, Rng& rng, std::vector<int>& labels) {
    Eigen::MatrixXd X(Eigen::Index(perClass) * kGlyphClasses, kGlyphSide * kGlyphSide);
    labels.assign(size_t(X.rows()), 0);
    for (int c = 0; c < kGlyphClasses; ++c)
        for (int k = 0; k < perClass; ++k) {
            const Eigen::Index r = Eigen::Index(c) * perClass + k;
            X.row(r) = renderGlyph(c, rng).transpose();
            labels[size_t(r)] = c;
        }
    return X;
}

} // namespace pl::distill
