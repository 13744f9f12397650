#include "gridworld/SpriteWorld.h"

#include <algorithm>
#include <cmath>

namespace pl::gridworld {

namespace {

constexpr double kGlow = 0.35;
constexpr double kGlowSd = 3.0;

struct ContextLook {
    Eigen::MatrixXd background; ///< frame x frame
    int spriteSize = 3;
    double spriteBrightness = 1.0;
    double distractorBrightness = 0.5;
};

/// A smooth texture: a few random plane waves, scaled to the context's contrast around its level.
ContextLook makeLook(int c, int side, Rng rng) {
    ContextLook look;
    const double level = rng.uniform(0.1, 0.5);
    const double contrast = rng.uniform(0.05, 0.35);
    look.background = Eigen::MatrixXd::Constant(side, side, level);
    for (int w = 0; w < 3; ++w) {
        const double fx = rng.uniform(-0.9, 0.9), fy = rng.uniform(-0.9, 0.9), ph = rng.uniform(0, 6.283);
        for (int r = 0; r < side; ++r)
            for (int col = 0; col < side; ++col)
                look.background(r, col) += contrast / 3.0 * std::sin(fx * col + fy * r + ph);
    }
    for (int r = 0; r < side; ++r) // a checker component differing per context
        for (int col = 0; col < side; ++col)
            if (((r / (2 + c % 3)) + (col / (2 + c % 3))) % 2 == 0)
                look.background(r, col) += 0.5 * contrast;
    look.spriteSize = 3 + (c % 3 == 1 ? -1 : c % 3 == 2 ? 1 : 0);
    look.spriteBrightness = rng.uniform(0.6, 1.0);
    look.distractorBrightness = look.spriteBrightness * rng.uniform(0.35, 0.55);
    return look;
}

void stamp(Eigen::MatrixXd& f, int r0, int c0, int size, double v) {
    for (int r = r0; r < r0 + size && r < f.rows(); ++r)
        for (int c = c0; c < c0 + size && c < f.cols(); ++c)
            f(r, c) += v;
}

/// The sprite: a size x size block of brightness v with a soft glow (Gaussian, sd kGlowSd px, peak
/// kGlow·v) around its centre, so that its position shows in the frames' low spatial frequencies.
void stampSprite(Eigen::MatrixXd& f, int r0, int c0, int size, double v) {
    stamp(f, r0, c0, size, v);
    const double cr = r0 + 0.5 * (size - 1), cc = c0 + 0.5 * (size - 1);
    for (int r = 0; r < f.rows(); ++r)
        for (int c = 0; c < f.cols(); ++c) {
            const double d2 = (r - cr) * (r - cr) + (c - cc) * (c - cc);
            f(r, c) += kGlow * v * std::exp(-d2 / (2 * kGlowSd * kGlowSd));
        }
}

/// (dr, dc) of an action; "up" decreases the row.
void delta(int a, int& dr, int& dc) {
    static const int kDr[] = {0, 0, -1, 1, 0}, kDc[] = {1, -1, 0, 0, 0};
    dr = kDr[a];
    dc = kDc[a];
}

} // namespace

ClipSet generateSpriteWorld(const SpriteWorldOptions& o, const Rng& rng) {
    ClipSet s;
    s.height = s.width = o.frame;
    const int n = o.contexts * o.clipsPerContext;
    s.frames.resize(Eigen::Index(n) * o.clipLength, o.frame * o.frame);
    s.start.push_back(0);
    std::vector<ContextLook> looks;
    for (int c = 0; c < o.contexts; ++c) {
        looks.push_back(makeLook(c, o.frame, rng.fork("context " + std::to_string(c))));
        s.contextNames.push_back("context " + std::to_string(c + 1));
    }
    for (int i = 0; i < n; ++i) {
        const int c = i % o.contexts;
        const ContextLook& look = looks[size_t(c)];
        Rng r = rng.fork("clip " + std::to_string(i));
        const int span = o.frame - look.spriteSize + 1;
        int pr = int(r.uniformInt(uint64_t(span))), pc = int(r.uniformInt(uint64_t(span)));
        std::vector<std::pair<int, int>> dist;
        for (int k = 0; k < o.distractors; ++k)
            dist.emplace_back(int(r.uniformInt(uint64_t(o.frame - 1))),
                              int(r.uniformInt(uint64_t(o.frame - 1))));
        for (int t = 0; t < o.clipLength; ++t) {
            Eigen::MatrixXd f = look.background;
            stampSprite(f, pr, pc, look.spriteSize, look.spriteBrightness);
            for (const auto& [dr, dc] : dist)
                stamp(f, dr, dc, 2, look.distractorBrightness);
            for (int p = 0; p < f.size(); ++p)
                f.data()[p] += o.noise * r.normal();
            const Eigen::Index row = Eigen::Index(i) * o.clipLength + t;
            for (int y = 0; y < o.frame; ++y)
                for (int x = 0; x < o.frame; ++x)
                    s.frames(row, y * o.frame + x) = f(y, x);
            if (t + 1 == o.clipLength)
                break;
            // the sprite's action: uniform over those that keep it inside the frame
            std::vector<int> ok;
            for (int a = 0; a < kActionCount; ++a) {
                int dr, dc;
                delta(a, dr, dc);
                if (pr + dr >= 0 && pr + dr < span && pc + dc >= 0 && pc + dc < span)
                    ok.push_back(a);
            }
            const int a = ok[size_t(r.uniformInt(ok.size()))];
            int dr, dc;
            delta(a, dr, dc);
            pr += dr;
            pc += dc;
            s.actions.push_back(a);
            for (auto& [qr, qc] : dist) { // distractors: a random step of up to 2 px, kept inside
                qr = std::clamp(qr + int(r.uniformInt(5)) - 2, 0, o.frame - 2);
                qc = std::clamp(qc + int(r.uniformInt(5)) - 2, 0, o.frame - 2);
            }
        }
        s.start.push_back((i + 1) * o.clipLength);
        s.names.push_back("clip_" + std::to_string(i));
        s.context.push_back(c);
    }
    return s;
}

} // namespace pl::gridworld
