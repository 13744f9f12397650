#pragma once
/// Screenshot tests: grab a widget offscreen at a fixed device pixel ratio, compare with a
/// baseline PNG within a tolerance and, on failure, write the actual and a diff image (the
/// ParaView pqCoreTestUtility pattern). Set PAPERLAB_UPDATE_BASELINES=1 to (re)write baselines;
/// failures go to $PAPERLAB_SCREENSHOT_DIR (default: the system temp folder). GUI thread.

#include <QImage>
#include <QString>

class QWidget;

namespace pl::gui {

class ScreenshotHelper {
public:
    struct Comparison {
        bool sameSize = false;
        int maxChannelDelta = 0;        ///< largest per-channel difference (0..255)
        double differingFraction = 1.0; ///< share of pixels differing by more than the tolerance
        QImage diff;                    ///< red where pixels differ, faded actual elsewhere
    };

    /// Renders \a widget (polished and laid out at its current size) into an ARGB32 image at
    /// \a dpr without showing it on a screen.
    static QImage grab(QWidget* widget, qreal dpr = 1.0);
    /// Pixel comparison; pixels whose channels all differ by at most \a tolerance count as equal.
    static Comparison compare(const QImage& actual, const QImage& expected, int tolerance = 8);
    /// Compares with the PNG at \a baselinePath. Missing baseline: writes it when
    /// PAPERLAB_UPDATE_BASELINES=1 (and passes), else fails. On mismatch writes
    /// <name>.actual.png and <name>.diff.png and explains in *message.
    static bool matchesBaseline(const QImage& actual, const QString& baselinePath, QString* message = nullptr,
                                int tolerance = 8, double maxDifferingFraction = 0.002);
    /// Number of distinct opaque colours, counting up to \a cap (a cheap "not blank" check).
    static int distinctColors(const QImage& image, int cap = 100000);
};

} // namespace pl::gui
