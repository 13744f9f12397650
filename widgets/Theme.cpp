#include "Theme.h"

#include "ThemeManager.h"

#include <QApplication>
#include <QStyleFactory>

namespace pl::gui {

namespace {

// Okabe & Ito (2008), "Color Universal Design": distinguishable under the common forms of
// colour-vision deficiency. Ordered so that the first colours contrast best with the background.
QVector<QColor> okabeItoLight() {
    return {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73),
            QColor(0xCC, 0x79, 0xA7), QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
            QColor(0x00, 0x00, 0x00), QColor(0xF0, 0xE4, 0x42)};
}

QVector<QColor> okabeItoDark() {
    return {QColor(0x56, 0xB4, 0xE9), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
            QColor(0xCC, 0x79, 0xA7), QColor(0xF0, 0xE4, 0x42), QColor(0xD5, 0x5E, 0x00),
            QColor(0xDD, 0xDD, 0xDD), QColor(0x33, 0x8F, 0xD0)};
}

Theme& currentStorage() {
    static Theme s_current = Theme::light();
    return s_current;
}

} // namespace

Theme Theme::light() {
    Theme t;
    t.name = QStringLiteral("light");
    t.isDark = false;
    t.window = QColor(0xEF, 0xEF, 0xEF);
    t.windowText = QColor(0x1A, 0x1A, 0x1A);
    t.base = QColor(0xFF, 0xFF, 0xFF);
    t.alternateBase = QColor(0xF5, 0xF5, 0xF5);
    t.text = QColor(0x1A, 0x1A, 0x1A);
    t.button = QColor(0xEF, 0xEF, 0xEF);
    t.buttonText = QColor(0x1A, 0x1A, 0x1A);
    t.highlight = QColor(0x00, 0x72, 0xB2);
    t.highlightedText = QColor(0xFF, 0xFF, 0xFF);
    t.link = QColor(0x00, 0x5A, 0x9C);
    t.toolTipBase = QColor(0xFF, 0xFF, 0xE8);
    t.toolTipText = QColor(0x1A, 0x1A, 0x1A);
    t.disabledText = QColor(0x9A, 0x9A, 0x9A);
    t.mid = QColor(0xB8, 0xB8, 0xB8);

    t.chartBackground = QColor(0xFF, 0xFF, 0xFF);
    t.plotBackground = QColor(0xFF, 0xFF, 0xFF);
    t.chartText = QColor(0x1A, 0x1A, 0x1A);
    t.mutedText = QColor(0x5A, 0x5A, 0x5A);
    t.axisLine = QColor(0x4A, 0x4A, 0x4A);
    t.gridLine = QColor(0xDC, 0xDC, 0xDC);
    t.minorGridLine = QColor(0xEE, 0xEE, 0xEE);
    t.markerLine = QColor(0x55, 0x55, 0x55);
    t.highlightOutline = QColor(0xD5, 0x5E, 0x00);
    t.series = okabeItoLight();
    return t;
}

Theme Theme::dark() {
    Theme t;
    t.name = QStringLiteral("dark");
    t.isDark = true;
    t.window = QColor(0x2B, 0x2B, 0x2E);
    t.windowText = QColor(0xE6, 0xE6, 0xE6);
    t.base = QColor(0x1E, 0x1E, 0x21);
    t.alternateBase = QColor(0x26, 0x26, 0x2A);
    t.text = QColor(0xE6, 0xE6, 0xE6);
    t.button = QColor(0x35, 0x35, 0x39);
    t.buttonText = QColor(0xE6, 0xE6, 0xE6);
    t.highlight = QColor(0x33, 0x8F, 0xD0);
    t.highlightedText = QColor(0xFF, 0xFF, 0xFF);
    t.link = QColor(0x56, 0xB4, 0xE9);
    t.toolTipBase = QColor(0x3A, 0x3A, 0x3F);
    t.toolTipText = QColor(0xE6, 0xE6, 0xE6);
    t.disabledText = QColor(0x80, 0x80, 0x80);
    t.mid = QColor(0x55, 0x55, 0x5A);

    t.chartBackground = QColor(0x1E, 0x1E, 0x21);
    t.plotBackground = QColor(0x1E, 0x1E, 0x21);
    t.chartText = QColor(0xE6, 0xE6, 0xE6);
    t.mutedText = QColor(0xA8, 0xA8, 0xA8);
    t.axisLine = QColor(0xA0, 0xA0, 0xA0);
    t.gridLine = QColor(0x3C, 0x3C, 0x42);
    t.minorGridLine = QColor(0x2C, 0x2C, 0x31);
    t.markerLine = QColor(0xB0, 0xB0, 0xB0);
    t.highlightOutline = QColor(0xF0, 0xE4, 0x42);
    t.series = okabeItoDark();
    return t;
}

Theme Theme::byName(const QString& name) {
    return name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0 ? dark() : light();
}

QStringList Theme::names() {
    return {QStringLiteral("light"), QStringLiteral("dark")};
}

const Theme& Theme::current() {
    return currentStorage();
}

void Theme::setCurrent(const Theme& theme) {
    currentStorage() = theme;
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance()))
        theme.applyTo(app);
    emit ThemeManager::instance()->themeChanged();
}

void Theme::applyTo(QApplication* app) const {
    if (!app)
        return;
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion); // the application takes ownership
    QApplication::setPalette(palette());
}

QPalette Theme::palette() const {
    QPalette p;
    for (auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool disabled = group == QPalette::Disabled;
        p.setColor(group, QPalette::Window, window);
        p.setColor(group, QPalette::WindowText, disabled ? disabledText : windowText);
        p.setColor(group, QPalette::Base, disabled ? window : base);
        p.setColor(group, QPalette::AlternateBase, alternateBase);
        p.setColor(group, QPalette::Text, disabled ? disabledText : text);
        p.setColor(group, QPalette::Button, button);
        p.setColor(group, QPalette::ButtonText, disabled ? disabledText : buttonText);
        p.setColor(group, QPalette::BrightText, isDark ? QColor(Qt::white) : QColor(0xD5, 0x5E, 0x00));
        p.setColor(group, QPalette::Highlight, disabled ? mid : highlight);
        p.setColor(group, QPalette::HighlightedText, highlightedText);
        p.setColor(group, QPalette::Link, link);
        p.setColor(group, QPalette::LinkVisited, link.darker(120));
        p.setColor(group, QPalette::ToolTipBase, toolTipBase);
        p.setColor(group, QPalette::ToolTipText, toolTipText);
        p.setColor(group, QPalette::PlaceholderText, disabledText);
        p.setColor(group, QPalette::Mid, mid);
        p.setColor(group, QPalette::Light, isDark ? button.lighter(130) : QColor(Qt::white));
        p.setColor(group, QPalette::Midlight, isDark ? button.lighter(115) : button.lighter(105));
        p.setColor(group, QPalette::Dark, isDark ? base.darker(130) : mid.darker(120));
        p.setColor(group, QPalette::Shadow, QColor(0, 0, 0, isDark ? 200 : 120));
    }
    return p;
}

QColor Theme::seriesColor(int index) const {
    if (series.isEmpty())
        return chartText;
    if (index < 0)
        index = 0;
    return series.at(index % series.size());
}

int Theme::pixelSize(FontRole role) {
    switch (role) {
    case FontRole::Title:
        return 15;
    case FontRole::AxisTitle:
        return 13;
    case FontRole::TickLabel:
        return 12;
    case FontRole::Legend:
        return 12;
    case FontRole::Annotation:
        return 11;
    }
    return 12;
}

QFont Theme::font(FontRole role) const {
    QFont f(fontFamily);
    f.setPixelSize(qMax(6, qRound(pixelSize(role) * fontScale)));
    f.setBold(role == FontRole::Title);
    f.setHintingPreference(QFont::PreferNoHinting); // identical glyph advances at every scale
    f.setStyleStrategy(QFont::PreferAntialias);
    return f;
}

} // namespace pl::gui
