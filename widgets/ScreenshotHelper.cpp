#include "ScreenshotHelper.h"

#include <QDir>
#include <QFileInfo>
#include <QLayout>
#include <QPainter>
#include <QSet>
#include <QWidget>

#include <cstdlib>

namespace pl::gui {

QImage ScreenshotHelper::grab(QWidget* widget, qreal dpr) {
    if (!widget)
        return QImage();
    widget->ensurePolished();
    if (widget->layout())
        widget->layout()->activate();
    const QSize size = widget->size();
    QImage img(size * dpr, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(widget->palette().color(QPalette::Window));
    widget->render(&img, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    return img.convertToFormat(QImage::Format_ARGB32);
}

ScreenshotHelper::Comparison ScreenshotHelper::compare(const QImage& actualIn, const QImage& expectedIn,
                                                       int tolerance) {
    Comparison c;
    const QImage a = actualIn.convertToFormat(QImage::Format_ARGB32);
    const QImage e = expectedIn.convertToFormat(QImage::Format_ARGB32);
    c.sameSize = !a.isNull() && a.size() == e.size();
    if (!c.sameSize)
        return c;
    c.diff = QImage(a.size(), QImage::Format_ARGB32);
    qint64 differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const QRgb* pa = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const QRgb* pe = reinterpret_cast<const QRgb*>(e.constScanLine(y));
        QRgb* pd = reinterpret_cast<QRgb*>(c.diff.scanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int d =
                std::max({std::abs(qRed(pa[x]) - qRed(pe[x])), std::abs(qGreen(pa[x]) - qGreen(pe[x])),
                          std::abs(qBlue(pa[x]) - qBlue(pe[x])), std::abs(qAlpha(pa[x]) - qAlpha(pe[x]))});
            c.maxChannelDelta = std::max(c.maxChannelDelta, d);
            if (d > tolerance) {
                ++differing;
                pd[x] = qRgb(255, 0, 0);
            } else {
                const int g = 160 + qGray(pa[x]) * 95 / 255;
                pd[x] = qRgb(g, g, g);
            }
        }
    }
    c.differingFraction = double(differing) / double(qint64(a.width()) * a.height());
    return c;
}

bool ScreenshotHelper::matchesBaseline(const QImage& actual, const QString& baselinePath, QString* message,
                                       int tolerance, double maxDifferingFraction) {
    auto say = [message](const QString& m) {
        if (message)
            *message = m;
    };
    const bool update = qEnvironmentVariableIntValue("PAPERLAB_UPDATE_BASELINES") == 1;
    const QImage expected(baselinePath);
    if (expected.isNull() || update) {
        if (!update) {
            say(QStringLiteral("no baseline at %1 (run with PAPERLAB_UPDATE_BASELINES=1 to create it)")
                    .arg(baselinePath));
            return false;
        }
        QDir().mkpath(QFileInfo(baselinePath).absolutePath());
        if (!actual.save(baselinePath, "PNG")) {
            say(QStringLiteral("cannot write baseline %1").arg(baselinePath));
            return false;
        }
        say(QStringLiteral("baseline written: %1").arg(baselinePath));
        return true;
    }
    const Comparison c = compare(actual, expected, tolerance);
    if (c.sameSize && c.differingFraction <= maxDifferingFraction)
        return true;
    QString dir = qEnvironmentVariable("PAPERLAB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        dir = QDir::tempPath();
    QDir().mkpath(dir);
    const QString base = dir + QLatin1Char('/') + QFileInfo(baselinePath).completeBaseName();
    actual.save(base + QStringLiteral(".actual.png"), "PNG");
    if (!c.diff.isNull())
        c.diff.save(base + QStringLiteral(".diff.png"), "PNG");
    if (!c.sameSize)
        say(QStringLiteral("size %1x%2 differs from baseline %3x%4; actual written to %5.actual.png")
                .arg(actual.width())
                .arg(actual.height())
                .arg(expected.width())
                .arg(expected.height())
                .arg(base));
    else
        say(QStringLiteral("%1% of pixels differ (max delta %2); see %3.actual.png and %3.diff.png")
                .arg(c.differingFraction * 100, 0, 'f', 3)
                .arg(c.maxChannelDelta)
                .arg(base));
    return false;
}

int ScreenshotHelper::distinctColors(const QImage& image, int cap) {
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> seen;
    for (int y = 0; y < img.height(); ++y) {
        const QRgb* p = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            seen.insert(p[x] | 0xff000000u);
            if (seen.size() >= cap)
                return cap;
        }
    }
    return int(seen.size());
}

} // namespace pl::gui
