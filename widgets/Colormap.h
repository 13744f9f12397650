#pragma once
/// Named colour maps as 256-entry tables: perceptually uniform sequential maps (viridis, magma),
/// a diverging blue-white-red map, the Okabe-Ito qualitative palette and gray. Plain value,
/// immutable after construction, safe to use from any thread.

#include <QRgb>
#include <QString>
#include <QStringList>
#include <QVector>

namespace pl::gui {

class Colormap {
public:
    enum class Kind { Sequential, Diverging, Qualitative };
    static constexpr int TableSize = 256;

    /// viridis.
    Colormap();
    /// "viridis" | "magma" | "diverging" | "okabe-ito" | "gray" (case-insensitive; "rdbu",
    /// "coolwarm", "bwr" and "grey" are aliases). Unknown names give viridis and set *ok false.
    static Colormap byName(const QString& name, bool* ok = nullptr);
    /// The canonical names, in menu order.
    static QStringList names();

    const QString& name() const { return m_name; }
    Kind kind() const { return m_kind; }
    bool isDiverging() const { return m_kind == Kind::Diverging; }

    /// Colour for a value scaled to [0, 1] (clamped); NaN gives nanColor(). Opaque.
    QRgb lookup(double value01) const;
    /// Table index (0..255) that lookup() uses for \a value01 (clamped). NaN gives -1.
    static int indexOf(double value01);
    /// The 256 opaque colours, index 0 = low end.
    const QVector<QRgb>& table() const { return m_table; }
    /// Colour for missing / non-finite values, chosen to stand out from this map.
    QRgb nanColor() const { return m_nan; }

    /// CIE L* (0..100, D65) of an sRGB colour; used to check perceptual ordering.
    static double lightness(QRgb rgb);

private:
    QString m_name;
    Kind m_kind = Kind::Sequential;
    QVector<QRgb> m_table;
    QRgb m_nan = 0xff808080;
};

} // namespace pl::gui
