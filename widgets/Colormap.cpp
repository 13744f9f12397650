#include "Colormap.h"

#include <QColor>

#include <algorithm>
#include <array>
#include <cmath>

namespace pl::gui {

namespace {

using Vec3 = std::array<double, 3>;
using Poly = std::array<Vec3, 7>; // c0..c6, evaluated as c0 + t(c1 + t(c2 + ...))

// Degree-6 least-squares fits (Matt Zucker, 2020) to matplotlib's viridis and magma, which
// Stefan van der Walt and Nathaniel Smith published under CC0. Maximum error is well below one
// 8-bit step over [0, 1].
constexpr Poly kViridis = {{{0.2777273272234177, 0.005407344544966578, 0.3340998053353061},
                            {0.1050930431085774, 1.404613529898575, 1.384590162594685},
                            {-0.3308618287255563, 0.214847559468213, 0.09509516302823659},
                            {-4.634230498983486, -5.799100973351585, -19.33244095627987},
                            {6.228269936347081, 14.17993336680509, 56.69055260068105},
                            {4.776384997670288, -13.74514537774601, -65.35303263337234},
                            {-5.435455855934631, 4.645852612178535, 26.3124352495832}}};

constexpr Poly kMagma = {{{-0.002136485053939582, -0.000749655052795221, -0.005386127855323933},
                          {0.2516605407371642, 0.6775232436837668, 2.494026599312351},
                          {8.353717279216625, -3.577719514958484, 0.3144679030132573},
                          {-27.66873308576866, 14.26473078096533, -13.64921318813922},
                          {52.17613981234068, -27.94360607168351, 12.94416944238394},
                          {-50.76852536473588, 29.04658282127291, 4.23415299384598},
                          {18.65570506591883, -11.48977351997711, -5.601961508734096}}};

// ColorBrewer RdBu (11 classes), reversed so that low = blue; interpolated in CIELAB.
constexpr std::array<QRgb, 11> kDivergingAnchors = {0x053061, 0x2166ac, 0x4393c3, 0x92c5de,
                                                    0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582,
                                                    0xd6604d, 0xb2182b, 0x67001f};

// Okabe & Ito qualitative palette.
constexpr std::array<QRgb, 8> kOkabeIto = {0x000000, 0xE69F00, 0x56B4E9, 0x009E73,
                                           0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7};

int to8(double v) {
    return std::clamp(int(std::lround(v * 255.0)), 0, 255);
}

QVector<QRgb> fromPoly(const Poly& c) {
    QVector<QRgb> t(Colormap::TableSize);
    for (int i = 0; i < Colormap::TableSize; ++i) {
        const double x = double(i) / (Colormap::TableSize - 1);
        Vec3 v{};
        for (int ch = 0; ch < 3; ++ch) {
            double acc = c[6][ch];
            for (int k = 5; k >= 0; --k)
                acc = c[k][ch] + x * acc;
            v[ch] = acc;
        }
        t[i] = qRgb(to8(v[0]), to8(v[1]), to8(v[2]));
    }
    return t;
}

double srgbToLinear(double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linearToSrgb(double c) {
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

// sRGB (D65) <-> CIELAB.
constexpr double kXn = 0.95047, kYn = 1.0, kZn = 1.08883;
double labF(double t) {
    return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
}
double labFinv(double f) {
    const double f3 = f * f * f;
    return f3 > 216.0 / 24389.0 ? f3 : (116.0 * f - 16.0) / (24389.0 / 27.0);
}

Vec3 toLab(QRgb c) {
    const double r = srgbToLinear(qRed(c) / 255.0), g = srgbToLinear(qGreen(c) / 255.0),
                 b = srgbToLinear(qBlue(c) / 255.0);
    const double x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
    const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
    const double z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
    const double fx = labF(x / kXn), fy = labF(y / kYn), fz = labF(z / kZn);
    return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

QRgb fromLab(const Vec3& lab) {
    const double fy = (lab[0] + 16.0) / 116.0, fx = fy + lab[1] / 500.0, fz = fy - lab[2] / 200.0;
    const double x = kXn * labFinv(fx), y = kYn * labFinv(fy), z = kZn * labFinv(fz);
    const double r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
    const double g = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z;
    const double b = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
    auto ch = [](double v) { return to8(linearToSrgb(std::clamp(v, 0.0, 1.0))); };
    return qRgb(ch(r), ch(g), ch(b));
}

template <size_t N> QVector<QRgb> fromAnchorsLab(const std::array<QRgb, N>& anchors) {
    std::array<Vec3, N> lab{};
    for (size_t i = 0; i < N; ++i)
        lab[i] = toLab(anchors[i]);
    QVector<QRgb> t(Colormap::TableSize);
    for (int i = 0; i < Colormap::TableSize; ++i) {
        const double pos = double(i) / (Colormap::TableSize - 1) * double(N - 1);
        const size_t k = std::min(size_t(pos), N - 2);
        const double f = pos - double(k);
        Vec3 v{};
        for (int ch = 0; ch < 3; ++ch)
            v[ch] = lab[k][ch] + f * (lab[k + 1][ch] - lab[k][ch]);
        t[i] = fromLab(v);
    }
    return t;
}

QVector<QRgb> qualitative() {
    QVector<QRgb> t(Colormap::TableSize);
    const int n = int(kOkabeIto.size());
    for (int i = 0; i < Colormap::TableSize; ++i)
        t[i] = 0xff000000u | kOkabeIto[std::min(n - 1, i * n / Colormap::TableSize)];
    return t;
}

QVector<QRgb> grayRamp() {
    QVector<QRgb> t(Colormap::TableSize);
    for (int i = 0; i < Colormap::TableSize; ++i)
        t[i] = qRgb(i, i, i);
    return t;
}

QString canonicalName(const QString& name, bool* ok) {
    const QString n = name.trimmed().toLower();
    *ok = true;
    if (n == QLatin1String("viridis") || n == QLatin1String("magma") || n == QLatin1String("diverging") ||
        n == QLatin1String("okabe-ito") || n == QLatin1String("gray"))
        return n;
    if (n == QLatin1String("rdbu") || n == QLatin1String("coolwarm") || n == QLatin1String("bwr") ||
        n == QLatin1String("blue-white-red"))
        return QStringLiteral("diverging");
    if (n == QLatin1String("grey") || n == QLatin1String("greys"))
        return QStringLiteral("gray");
    if (n == QLatin1String("okabeito") || n == QLatin1String("okabe_ito") ||
        n == QLatin1String("qualitative"))
        return QStringLiteral("okabe-ito");
    *ok = false;
    return QStringLiteral("viridis");
}

} // namespace

Colormap::Colormap() : m_name(QStringLiteral("viridis")), m_table(fromPoly(kViridis)), m_nan(0xff8c8c8c) {}

Colormap Colormap::byName(const QString& name, bool* okOut) {
    bool ok = true;
    const QString n = canonicalName(name, &ok);
    if (okOut)
        *okOut = ok;
    // Tables are built once per process; Colormap copies share them (implicitly shared QVector).
    static const Colormap viridis;
    static const Colormap magma = [] {
        Colormap c;
        c.m_name = QStringLiteral("magma");
        c.m_table = fromPoly(kMagma);
        c.m_nan = 0xff4fa3a3; // teal: absent from magma
        return c;
    }();
    static const Colormap diverging = [] {
        Colormap c;
        c.m_name = QStringLiteral("diverging");
        c.m_kind = Kind::Diverging;
        c.m_table = fromAnchorsLab(kDivergingAnchors);
        c.m_nan = 0xff9a9a9a;
        return c;
    }();
    static const Colormap okabe = [] {
        Colormap c;
        c.m_name = QStringLiteral("okabe-ito");
        c.m_kind = Kind::Qualitative;
        c.m_table = qualitative();
        c.m_nan = 0xffbdbdbd;
        return c;
    }();
    static const Colormap gray = [] {
        Colormap c;
        c.m_name = QStringLiteral("gray");
        c.m_table = grayRamp();
        c.m_nan = 0xffd55e00; // vermillion: absent from a gray ramp
        return c;
    }();
    if (n == QLatin1String("magma"))
        return magma;
    if (n == QLatin1String("diverging"))
        return diverging;
    if (n == QLatin1String("okabe-ito"))
        return okabe;
    if (n == QLatin1String("gray"))
        return gray;
    return viridis;
}

QStringList Colormap::names() {
    return {QStringLiteral("viridis"), QStringLiteral("magma"), QStringLiteral("diverging"),
            QStringLiteral("okabe-ito"), QStringLiteral("gray")};
}

int Colormap::indexOf(double value01) {
    if (std::isnan(value01))
        return -1;
    const double v = std::clamp(value01, 0.0, 1.0);
    return std::min(TableSize - 1, int(v * TableSize));
}

QRgb Colormap::lookup(double value01) const {
    const int i = indexOf(value01);
    return i < 0 ? m_nan : m_table.at(i);
}

double Colormap::lightness(QRgb rgb) {
    return toLab(rgb)[0];
}

} // namespace pl::gui
