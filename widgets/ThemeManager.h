#pragma once
/// Application-wide notifier for theme changes; views connect to themeChanged() and restyle.

#include <QObject>

namespace pl::gui {

struct Theme;

class ThemeManager : public QObject {
    Q_OBJECT
public:
    /// The process-wide instance (created on first use, lives until exit). GUI thread only.
    static ThemeManager* instance();

signals:
    /// Emitted by Theme::setCurrent() after the new theme is in place.
    void themeChanged();

private:
    explicit ThemeManager(QObject* parent = nullptr);
    friend struct Theme;
};

} // namespace pl::gui
