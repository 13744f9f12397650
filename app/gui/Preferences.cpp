#include "Preferences.h"

#include "widgets/Theme.h"

#include <QGuiApplication>
#include <QPalette>
#include <QSettings>
#include <QThread>

#include <algorithm>

namespace pl::gui {

int Preferences::maxThreads() {
    return std::max(1, QThread::idealThreadCount());
}

Preferences Preferences::load() {
    QSettings s;
    Preferences p;
    const QString theme = s.value(QStringLiteral("preferences/theme"), p.theme).toString();
    if (theme == QLatin1String("light") || theme == QLatin1String("dark") || theme == QLatin1String("system"))
        p.theme = theme;
    p.dpi = std::clamp(s.value(QStringLiteral("preferences/dpi"), p.dpi).toInt(), kMinDpi, kMaxDpi);
    p.threads =
        std::clamp(s.value(QStringLiteral("preferences/threads"), p.threads).toInt(), 1, maxThreads());
    return p;
}

void Preferences::save() const {
    QSettings s;
    s.setValue(QStringLiteral("preferences/theme"), theme);
    s.setValue(QStringLiteral("preferences/dpi"), dpi);
    s.setValue(QStringLiteral("preferences/threads"), threads);
}

bool Preferences::systemPrefersDark() {
    // Captured once: after Theme::applyTo() the application palette is ours, not the platform's.
    static const bool dark = [] {
        if (!qGuiApp)
            return false;
        const QColor window = QGuiApplication::palette().color(QPalette::Window);
        const QColor text = QGuiApplication::palette().color(QPalette::WindowText);
        return window.lightness() < text.lightness();
    }();
    return dark;
}

Theme Preferences::resolvedTheme() const {
    if (theme == QLatin1String("system"))
        return systemPrefersDark() ? Theme::dark() : Theme::light();
    return Theme::byName(theme);
}

} // namespace pl::gui
