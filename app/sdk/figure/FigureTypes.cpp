#include "FigureTypes.h"

namespace pl::gui {

QString Rgba::name() const {
    if (!m_valid)
        return {};
    const unsigned argb =
        (unsigned(m_a) << 24) | (unsigned(m_r) << 16) | (unsigned(m_g) << 8) | unsigned(m_b);
    return QStringLiteral("#%1").arg(argb, 8, 16, QLatin1Char('0'));
}

Rgba Rgba::fromName(const QString& name) {
    if (!name.startsWith(QLatin1Char('#')))
        return {};
    const QString hex = name.mid(1);
    bool ok = false;
    const unsigned v = hex.toUInt(&ok, 16);
    if (!ok)
        return {};
    switch (hex.size()) {
    case 3: // #rgb: each digit doubled
        return Rgba(int((v >> 8) & 0xF) * 17, int((v >> 4) & 0xF) * 17, int(v & 0xF) * 17);
    case 6:
        return Rgba(int((v >> 16) & 0xFF), int((v >> 8) & 0xFF), int(v & 0xFF));
    case 8:
        return Rgba(int((v >> 16) & 0xFF), int((v >> 8) & 0xFF), int(v & 0xFF), int((v >> 24) & 0xFF));
    default:
        return {};
    }
}

} // namespace pl::gui
