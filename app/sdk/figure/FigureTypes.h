#pragma once
/// Small value types of figure descriptions that would otherwise come from QtGui: a 3D point and
/// an RGBA colour. Plain data (QtCore only), so the model side and the headless CLI build figure
/// descriptions without loading Qt Gui; widgets/ converts them (toQColor, VTK points) when drawing.

#include <QString>

#include <cmath>
#include <cstdint>

namespace pl::gui {

/// A point or direction in scene units, single precision (like VTK points and the former
/// QVector3D, so exported coordinates are unchanged).
class Vec3 {
public:
    constexpr Vec3() = default;
    constexpr Vec3(float x, float y, float z) : m_v{x, y, z} {}

    constexpr float x() const { return m_v[0]; }
    constexpr float y() const { return m_v[1]; }
    constexpr float z() const { return m_v[2]; }
    /// Coordinate \a i (0 = x, 1 = y, 2 = z).
    constexpr float& operator[](int i) { return m_v[i]; }
    constexpr float operator[](int i) const { return m_v[i]; }

    constexpr float lengthSquared() const { return dotProduct(*this, *this); }
    float length() const { return std::hypot(m_v[0], m_v[1], m_v[2]); }
    /// Scales to unit length; a zero vector stays zero.
    void normalize() {
        const float l = length();
        if (l > 0)
            for (float& c : m_v)
                c /= l;
    }
    static constexpr float dotProduct(const Vec3& a, const Vec3& b) {
        return a.m_v[0] * b.m_v[0] + a.m_v[1] * b.m_v[1] + a.m_v[2] * b.m_v[2];
    }

    friend constexpr Vec3 operator+(const Vec3& a, const Vec3& b) {
        return {a.m_v[0] + b.m_v[0], a.m_v[1] + b.m_v[1], a.m_v[2] + b.m_v[2]};
    }
    friend constexpr Vec3 operator-(const Vec3& a, const Vec3& b) {
        return {a.m_v[0] - b.m_v[0], a.m_v[1] - b.m_v[1], a.m_v[2] - b.m_v[2]};
    }
    friend constexpr Vec3 operator*(const Vec3& a, float s) {
        return {a.m_v[0] * s, a.m_v[1] * s, a.m_v[2] * s};
    }
    friend constexpr bool operator==(const Vec3& a, const Vec3& b) = default;

private:
    float m_v[3] = {0, 0, 0};
};

/// An sRGB colour with alpha, 8 bits per channel. Default-constructed = "no colour" (invalid),
/// as a default QColor was.
class Rgba {
public:
    constexpr Rgba() = default;
    /// Channels 0..255 (clamped).
    constexpr Rgba(int r, int g, int b, int a = 255)
        : m_r(clamp(r)), m_g(clamp(g)), m_b(clamp(b)), m_a(clamp(a)), m_valid(true) {}

    constexpr bool isValid() const { return m_valid; }
    constexpr int red() const { return m_r; }
    constexpr int green() const { return m_g; }
    constexpr int blue() const { return m_b; }
    constexpr int alpha() const { return m_a; }

    /// "#aarrggbb" in lower case (what QColor::name(QColor::HexArgb) writes); empty when invalid.
    QString name() const;
    /// Parses "#rgb", "#rrggbb" or "#aarrggbb" (any case); anything else gives an invalid colour.
    static Rgba fromName(const QString& name);

    friend constexpr bool operator==(const Rgba& a, const Rgba& b) = default;

private:
    static constexpr std::uint8_t clamp(int v) { return std::uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }

    std::uint8_t m_r = 0;
    std::uint8_t m_g = 0;
    std::uint8_t m_b = 0;
    std::uint8_t m_a = 255;
    bool m_valid = false;
};

} // namespace pl::gui
