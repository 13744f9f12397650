#pragma once
/// Application and figure themes: a Fusion palette for widgets, chart colours, a colour-blind-safe
/// series palette (Okabe-Ito) and pinned figure fonts. A Theme is a plain value (copyable, safe to
/// pass to worker threads); Theme::current() is the application-wide one (GUI thread).

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>
#include <QVector>

class QApplication;

namespace pl::gui {

struct Theme {
    /// Text roles of a figure; each has a fixed pixel size so figures lay out identically on
    /// screen, in PNG at any DPI, in SVG and in PDF.
    enum class FontRole { Title, AxisTitle, TickLabel, Legend, Annotation };

    QString name; ///< "light" or "dark"
    bool isDark = false;

    // Widget colours (used for the QPalette).
    QColor window, windowText, base, alternateBase, text, button, buttonText, highlight, highlightedText,
        link, toolTipBase, toolTipText, disabledText, mid;

    // Figure colours.
    QColor chartBackground; ///< outside the plot area
    QColor plotBackground;  ///< inside the plot area
    QColor chartText;       ///< titles, tick labels, legend
    QColor mutedText;       ///< captions, secondary labels
    QColor axisLine;
    QColor gridLine;
    QColor minorGridLine;
    QColor markerLine;       ///< reference lines
    QColor highlightOutline; ///< outlined heatmap rows / columns and selected cell
    QVector<QColor> series;  ///< qualitative series palette (Okabe-Ito order)

    QString fontFamily = QStringLiteral("DejaVu Sans"); ///< pinned: same metrics everywhere
    double fontScale = 1.0;                             ///< multiplies all figure font pixel sizes

    /// Light theme (default for exports: white background, black text).
    static Theme light();
    /// Dark theme (dark grey background, light text, lightened palette).
    static Theme dark();
    /// "light" or "dark"; unknown names give light().
    static Theme byName(const QString& name);
    /// Names accepted by byName().
    static QStringList names();

    /// The application-wide theme. GUI thread only; copy it before handing it to a worker.
    static const Theme& current();
    /// Replaces the application-wide theme, applies it to qApp (if it is a QApplication) and emits
    /// ThemeManager::themeChanged(). GUI thread only.
    static void setCurrent(const Theme& theme);

    /// Sets the Fusion style, this palette and the UI font on \a app.
    void applyTo(QApplication* app) const;

    /// Widget palette (all colour groups, disabled state included).
    QPalette palette() const;
    /// Series colour for \a index (wraps around the palette); index < 0 gives the first colour.
    QColor seriesColor(int index) const;
    /// Font for a figure text role, with a pixel size in logical pixels (1/96 inch).
    QFont font(FontRole role) const;
    /// Pixel size used by font(role), before fontScale.
    static int pixelSize(FontRole role);
};

} // namespace pl::gui
