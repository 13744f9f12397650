#pragma once
/// Application-wide preferences kept in QSettings ("preferences/..."): theme, default export
/// DPI and engine threads. A plain value; load(), change, save(). GUI thread for theme().

#include <QString>

namespace pl::gui {

struct Theme;

struct Preferences {
    QString theme = QStringLiteral("system"); ///< "light", "dark" or "system"
    int dpi = 300;                            ///< default raster DPI for figure export
    int threads = 1;                          ///< engine-internal threads per run

    static constexpr int kMinDpi = 72;
    static constexpr int kMaxDpi = 1200;
    /// The largest sensible thread count (the machine's ideal thread count, at least 1).
    static int maxThreads();

    /// Reads the stored preferences (defaults for missing or invalid values).
    static Preferences load();
    /// Writes them to QSettings.
    void save() const;
    /// The theme these preferences ask for, "system" resolved by systemPrefersDark().
    Theme resolvedTheme() const;
    /// True when the platform's palette (captured before Paperlab applied any theme) is dark.
    /// Call once early (MainWindow does) so the capture sees the platform palette.
    static bool systemPrefersDark();

    bool operator==(const Preferences& o) const = default;
};

} // namespace pl::gui
