#include "convimg/PersuasionWorld.h"

#include "convimg/ConvOps.h"
#include "core/DenseLu.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace pl::convimg {

namespace {

using Rgb = std::array<double, 3>;

enum Group {
    kBg,
    kExposure,
    kTemp,
    kSide,
    kPos,
    kZoom,
    kShadow,
    kClutter,
    kFrame,
    kSat,
    kGloss,
    kVignette,
    kBlur
};

const std::array<Rgb, 9> kBackgrounds = {{{0.78, 0.80, 0.84}, // original
                                          {0.96, 0.96, 0.96},
                                          {0.55, 0.55, 0.55},
                                          {0.35, 0.50, 0.80},
                                          {0.40, 0.68, 0.45},
                                          {0.55, 0.38, 0.22}, // wood (base)
                                          {0.90, 0.92, 0.98}, // gradient (top)
                                          {0.14, 0.14, 0.17},
                                          {0.92, 0.82, 0.64}}};

const std::array<Rgb, 5> kPalette = {
    {{0.80, 0.15, 0.15}, {0.20, 0.35, 0.75}, {0.95, 0.75, 0.10}, {0.15, 0.60, 0.30}, {0.55, 0.25, 0.65}}};

/// Whether object coordinates (ox, oy) (extent about +-1) lie inside product shape k.
bool inside(int shape, double ox, double oy) {
    switch (shape) {
    case 0: // bottle
        return (std::abs(ox) < 0.45 && oy > -0.3 && oy < 1) ||
               (std::abs(ox) < 0.18 && oy >= -1 && oy <= -0.3);
    case 1: // box
        return std::abs(ox) < 0.8 && std::abs(oy) < 0.7;
    case 2: { // mug
        const double r = std::hypot(ox - 0.6, oy);
        return (std::abs(ox) < 0.6 && std::abs(oy) < 0.7) || (ox > 0.6 && r > 0.2 && r < 0.42);
    }
    case 3: // shoe
        return (ox * ox + (oy - 0.3) * (oy - 0.3) / 0.2 < 1 && oy > -0.1) ||
               (ox > -0.8 && ox < -0.2 && oy > -0.6 && oy <= 0.3);
    default: // can
        return std::abs(ox) < 0.5 && std::abs(oy) < 0.9;
    }
}

Rgb productColour(int p) {
    Rgb c = kPalette[size_t(p % 5)];
    const double shift = 0.12 * double(p / 5);
    return {std::clamp(c[0] + shift, 0.0, 1.0), c[1], std::clamp(c[2] - shift, 0.0, 1.0)};
}

Rgb background(int option, double u, double w) {
    if (option == 5) { // wood grain
        const double g = 0.07 * std::sin(40 * w + 3 * std::sin(7 * u));
        return {0.55 + g, 0.38 + g, 0.22 + 0.5 * g};
    }
    if (option == 6) // gradient: pale top to blue bottom
        return {0.90 - 0.5 * w, 0.92 - 0.35 * w, 0.98 - 0.1 * w};
    return kBackgrounds[size_t(option)];
}

void postProcess(Image& img, const Variant& v) {
    const int S = img.size;
    for (int y = 0; y < S; ++y)
        for (int x = 0; x < S; ++x) {
            const Eigen::Index j = Eigen::Index(y) * S + x;
            const double u = (x + 0.5) / S, w = (y + 0.5) / S;
            double gain = v[kExposure] == 1 ? 1.2 : v[kExposure] == 2 ? 0.8 : 1.0;
            if (v[kSide])
                gain *= 0.7 + 0.6 * u;
            if (v[kVignette])
                gain *= 1 - 0.9 * ((u - 0.5) * (u - 0.5) + (w - 0.5) * (w - 0.5));
            Rgb c{img.rgb(0, j) * gain, img.rgb(1, j) * gain, img.rgb(2, j) * gain};
            if (v[kTemp] == 1) {
                c[0] *= 1.08;
                c[2] *= 0.88;
            } else if (v[kTemp] == 2) {
                c[0] *= 0.9;
                c[2] *= 1.1;
            }
            if (v[kSat]) {
                const double l = (c[0] + c[1] + c[2]) / 3, f = v[kSat] == 1 ? 1.4 : 0.6;
                for (double& ch : c)
                    ch = l + (ch - l) * f;
            }
            const bool border = x < 2 || y < 2 || x >= S - 2 || y >= S - 2;
            for (int ch = 0; ch < 3; ++ch)
                img.rgb(ch, j) = std::clamp(v[kFrame] && border ? 0.12 : c[size_t(ch)], 0.0, 1.0);
        }
    if (v[kBlur]) {
        const Eigen::MatrixXd src = img.rgb;
        for (int y = 0; y < S; ++y)
            for (int x = 0; x < S; ++x) {
                Eigen::Vector3d acc = Eigen::Vector3d::Zero();
                int n = 0;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        if (y + dy >= 0 && y + dy < S && x + dx >= 0 && x + dx < S) {
                            acc += src.col(Eigen::Index(y + dy) * S + x + dx);
                            ++n;
                        }
                img.rgb.col(Eigen::Index(y) * S + x) = acc / n;
            }
    }
}

/// The planted taste of the agent on a render of variant v (designed; the readout v . phi is fitted
/// to it, so the agent itself only sees pixels).
double taste(AgentTaste t, const Image& img, const Variant& v) {
    const double lum = img.rgb.colwise().mean().mean();
    double warm = 0, nb = 0;
    for (Eigen::Index j = 0; j < img.mask.size(); ++j)
        if (img.mask(j) < 0.5) {
            warm += img.rgb(0, j) - img.rgb(2, j);
            ++nb;
        }
    warm /= std::max(1.0, nb);
    const double centred = v[kPos] == 1 ? 1.0 : v[kPos] == 0 ? 0.0 : -0.5;
    const double shadow = v[kShadow] ? 1.0 : 0.0;
    switch (t) {
    case AgentTaste::Brightness:
        return 6.0 * (lum - 0.55) + (v[kSat] == 1 ? 0.6 : v[kSat] == 2 ? -0.6 : 0.0);
    case AgentTaste::Layout:
        return 1.5 * centred +
               (v[kZoom] == 1   ? 0.9
                : v[kZoom] == 2 ? -0.6
                                : 0.0) -
               0.8 * v[kClutter] + 0.8 * v[kFrame];
    default:
        return 4.0 * (lum - 0.55) + 0.9 * centred + 2.5 * warm + 0.9 * shadow - 0.5 * v[kClutter] +
               0.6 * shadow * centred + 0.4 * v[kGloss];
    }
}

} // namespace

const std::vector<EditGroup>& editGroups() {
    static const std::vector<EditGroup> g = {
        {"background", {"white", "grey", "blue", "green", "wood", "gradient", "dark", "beige"}},
        {"exposure", {"+20%", "-20%"}},
        {"colour", {"warm", "cool"}},
        {"side light", {"on"}},
        {"position", {"centre", "left", "right"}},
        {"zoom", {"in", "out"}},
        {"shadow", {"on"}},
        {"clutter", {"1 prop", "2 props"}},
        {"frame", {"on"}},
        {"saturation", {"+40%", "-40%"}},
        {"highlight", {"glossy"}},
        {"vignette", {"on"}},
        {"blur", {"3x3"}},
    };
    return g;
}

int editCount() {
    int n = 0;
    for (const auto& g : editGroups())
        n += int(g.options.size());
    return n;
}

std::string editName(int e) {
    for (const auto& g : editGroups()) {
        if (e < int(g.options.size()))
            return g.name + ": " + g.options[size_t(e)];
        e -= int(g.options.size());
    }
    return "?";
}

Variant originalVariant() {
    return Variant(editGroups().size(), 0);
}

Eigen::VectorXd editIndicators(const Variant& v) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(editCount());
    int off = 0;
    for (size_t g = 0; g < editGroups().size(); ++g) {
        if (v[g] > 0)
            x(off + v[g] - 1) = 1;
        off += int(editGroups()[g].options.size());
    }
    return x;
}

Variant singleEdit(int e) {
    Variant v = originalVariant();
    for (size_t g = 0; g < editGroups().size(); ++g) {
        const int k = int(editGroups()[g].options.size());
        if (e < k) {
            v[g] = e + 1;
            return v;
        }
        e -= k;
    }
    return v;
}

std::string variantText(const Variant& v) {
    std::string s;
    for (size_t g = 0; g < editGroups().size(); ++g)
        if (v[g] > 0)
            s += (s.empty() ? "" : " + ") + editGroups()[g].name + ": " +
                 editGroups()[g].options[size_t(v[g] - 1)];
    return s.empty() ? "original" : s;
}

Image renderProduct(int product, const Variant& v, int size) {
    Image img;
    img.size = size;
    img.rgb.resize(3, Eigen::Index(size) * size);
    img.mask = Eigen::VectorXd::Zero(Eigen::Index(size) * size);
    const double cx = v[kPos] == 1 ? 0.5 : v[kPos] == 2 ? 0.3 : v[kPos] == 3 ? 0.7 : 0.62;
    const double cy = v[kPos] == 0 ? 0.46 : 0.5;
    const double ext = 0.22 * (v[kZoom] == 1 ? 1.3 : v[kZoom] == 2 ? 0.75 : 1.0);
    const Rgb col = productColour(product);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const double u = (x + 0.5) / size, w = (y + 0.5) / size;
            Rgb c = background(v[kBg], u, w);
            double dark = 1;
            if (v[kShadow]) {
                const double ex = (u - cx - 0.04) / ext, ey = (w - cy - 0.95 * ext) / (0.25 * ext);
                dark -= 0.5 * std::exp(-2 * (ex * ex + ey * ey));
            }
            if (v[kClutter] >= 1 && std::hypot(u - 0.14, w - 0.84) < 0.07)
                c = {0.50, 0.45, 0.40};
            if (v[kClutter] >= 2 && std::abs(u - 0.86) < 0.06 && std::abs(w - 0.16) < 0.06)
                c = {0.30, 0.55, 0.60};
            for (double& ch : c)
                ch *= dark;
            const double ox = (u - cx) / ext, oy = (w - cy) / ext;
            const Eigen::Index j = Eigen::Index(y) * size + x;
            if (inside(product % 5, ox, oy)) {
                const double shade = 0.9 - 0.15 * ox;
                const double gloss =
                    v[kGloss] ? 0.5 * std::exp(-((ox + 0.3) * (ox + 0.3) + (oy + 0.3) * (oy + 0.3)) / 0.05)
                              : 0.0;
                for (int ch = 0; ch < 3; ++ch)
                    c[size_t(ch)] = col[size_t(ch)] * shade + gloss;
                img.mask(j) = 1;
            }
            for (int ch = 0; ch < 3; ++ch)
                img.rgb(ch, j) = c[size_t(ch)];
        }
    postProcess(img, v);
    return img;
}

Image normaliseImage(const Image& in) {
    const int S = in.size;
    double mx = 0, my = 0, n = 0;
    for (int y = 0; y < S; ++y)
        for (int x = 0; x < S; ++x)
            if (in.mask(Eigen::Index(y) * S + x) > 0.5) {
                mx += x;
                my += y;
                ++n;
            }
    const int dx = n > 0 ? int(std::lround((S - 1) / 2.0 - mx / n)) : 0;
    const int dy = n > 0 ? int(std::lround((S - 1) / 2.0 - my / n)) : 0;
    Image out;
    out.size = S;
    out.rgb = Eigen::MatrixXd::Constant(3, in.rgb.cols(), 0.5);
    out.mask = Eigen::VectorXd::Zero(in.mask.size());
    for (int y = 0; y < S; ++y)
        for (int x = 0; x < S; ++x) {
            const int sx = x - dx, sy = y - dy;
            if (sx < 0 || sy < 0 || sx >= S || sy >= S)
                continue;
            const Eigen::Index js = Eigen::Index(sy) * S + sx, j = Eigen::Index(y) * S + x;
            if (in.mask(js) > 0.5) {
                out.rgb.col(j) = in.rgb.col(js);
                out.mask(j) = 1;
            }
        }
    // Standardise the object's luminance: mean 0.5, standard deviation 0.15 (background stays 0.5).
    double sum = 0, sq = 0, m = 0;
    for (Eigen::Index j = 0; j < out.mask.size(); ++j)
        if (out.mask(j) > 0.5) {
            const double l = out.rgb.col(j).mean();
            sum += l;
            sq += l * l;
            ++m;
        }
    if (m > 0) {
        const double mean = sum / m, sd = std::sqrt(std::max(1e-12, sq / m - mean * mean));
        const double scale = std::min(4.0, 0.15 / sd);
        for (Eigen::Index j = 0; j < out.mask.size(); ++j)
            if (out.mask(j) > 0.5)
                for (int ch = 0; ch < 3; ++ch)
                    out.rgb(ch, j) = std::clamp(0.5 + (out.rgb(ch, j) - mean) * scale, 0.0, 1.0);
    }
    return out;
}

Eigen::MatrixXd luminance(const Image& img) {
    Eigen::MatrixXd l(img.size, img.size);
    for (int y = 0; y < img.size; ++y)
        for (int x = 0; x < img.size; ++x)
            l(y, x) = img.rgb.col(Eigen::Index(y) * img.size + x).mean();
    return l;
}

PersuasionAgent::PersuasionAgent(AgentTaste taste_, int size, int products, double tau, double bPos,
                                 const Rng& rng)
    : m_tau(tau), m_bPos(bPos) {
    Rng fr = rng.fork("filters");
    m_filters.resize(32, 75);
    m_bias.resize(32);
    for (Eigen::Index i = 0; i < m_filters.size(); ++i)
        m_filters.data()[i] = fr.normal() / std::sqrt(75.0);
    for (Eigen::Index i = 0; i < 32; ++i)
        m_bias(i) = 0.1 * fr.normal();
    Rng r = rng.fork("fit");
    const int n = 240;
    Eigen::MatrixXd F(n, 32 * 9);
    Eigen::VectorXd T(n);
    for (int i = 0; i < n; ++i) {
        Variant v = originalVariant();
        for (size_t g = 0; g < v.size(); ++g)
            if (r.uniform() < 0.3)
                v[g] = 1 + int(r.uniformInt(editGroups()[g].options.size()));
        const Image img = renderProduct(int(r.uniformInt(uint64_t(products))), v, size);
        F.row(i) = features(img).transpose();
        T(i) = taste(taste_, img, v);
    }
    m_mu = F.colwise().mean().transpose();
    m_sd = ((F.rowwise() - m_mu.transpose()).array().square().colwise().mean().sqrt() + 1e-9)
               .matrix()
               .transpose();
    const Eigen::MatrixXd Z = (F.rowwise() - m_mu.transpose()).array().rowwise() / m_sd.transpose().array();
    m_offset = T.mean();
    const Eigen::VectorXd t = T.array() - m_offset;
    Eigen::MatrixXd A = Z.transpose() * Z;
    A.diagonal().array() += 2.0;
    m_v = luSolve(A, Z.transpose() * t);
    const Eigen::VectorXd fit = Z * m_v;
    m_r2 = 1 - (fit - t).squaredNorm() / std::max(1e-12, t.squaredNorm());
}

Eigen::VectorXd PersuasionAgent::features(const Image& img) const {
    const int S = img.size;
    const Mat cols = im2col(img.rgb.array() - 0.5, MapShape{1, S, S}, 5);
    const Eigen::MatrixXd f = ((m_filters * cols).colwise() + m_bias).cwiseMax(0.0);
    Eigen::VectorXd out = Eigen::VectorXd::Zero(32 * 9);
    Eigen::VectorXd count = Eigen::VectorXd::Zero(9);
    for (int y = 0; y < S; ++y)
        for (int x = 0; x < S; ++x) {
            const int r = (3 * y / S) * 3 + 3 * x / S;
            out.segment(r * 32, 32) += f.col(Eigen::Index(y) * S + x);
            count(r) += 1;
        }
    for (int r = 0; r < 9; ++r)
        out.segment(r * 32, 32) /= count(r);
    return out;
}

double PersuasionAgent::utility(const Image& img) const {
    const Eigen::VectorXd z = (features(img) - m_mu).array() / m_sd.array();
    return m_offset + m_v.dot(z);
}

double PersuasionAgent::pFirst(double uFirst, double uSecond) const {
    const double z = (uFirst - uSecond + m_bPos) / m_tau;
    return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
}

} // namespace pl::convimg
