#include "HeatmapPainter.h"

#include "NiceScale.h"

#include <QFontMetricsF>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {

constexpr double kMargin = 8.0;
constexpr double kTick = 3.0;
constexpr double kBarWidth = 14.0;

QString rowText(const HeatmapSpec& s, int r) {
    return r < s.rowLabels.size() ? s.rowLabels[r] : QString::number(r);
}
QString colText(const HeatmapSpec& s, int c) {
    return c < s.colLabels.size() ? s.colLabels[c] : QString::number(c);
}

QRectF resolveWindow(const HeatmapSpec& spec, const QRectF& w) {
    const QRectF all(0, 0, spec.cols, spec.rows);
    if (w.isNull() || w.isEmpty())
        return all;
    QRectF r = w.intersected(all);
    return r.isEmpty() ? all : r;
}

/// Widest label among the visible ones (sampled when there are many).
double widestLabel(const QFontMetricsF& fm, const QStringList& labels, int from, int to, bool numeric) {
    if (numeric)
        return fm.horizontalAdvance(QString::number(std::max(0, to - 1)));
    double w = 0;
    const int n = std::max(0, to - from);
    const int stride = std::max(1, n / 512);
    for (int i = from; i < to && i < labels.size(); i += stride)
        w = std::max(w, fm.horizontalAdvance(labels[i]));
    return w;
}

QVector<double> colorBarTicks(const HeatmapImage& img, double barHeight) {
    return NiceScale::ticks(img.minValue(), img.maxValue(), std::clamp(int(barHeight / 28), 2, 9));
}

QString tickText(double v, const QVector<double>& ticks) {
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : std::max(1e-12, std::fabs(v));
    return NiceScale::formatTick(v, step);
}

bool isVectorDevice(QPainter* p) {
    const QPaintEngine* e = p->paintEngine();
    if (!e)
        return false;
    const auto t = e->type();
    return t == QPaintEngine::SVG || t == QPaintEngine::Pdf || t == QPaintEngine::Picture;
}

} // namespace

QPointF HeatmapPainter::Layout::toPoint(double col, double row) const {
    return QPointF(plot.left() + (col - window.left()) * plot.width() / window.width(),
                   plot.top() + (row - window.top()) * plot.height() / window.height());
}

QPointF HeatmapPainter::Layout::toCell(const QPointF& p) const {
    return QPointF(window.left() + (p.x() - plot.left()) * window.width() / plot.width(),
                   window.top() + (p.y() - plot.top()) * window.height() / plot.height());
}

std::optional<QPoint> HeatmapPainter::Layout::cellAt(const QPointF& p, int rows, int cols) const {
    if (!valid || !plot.contains(p))
        return std::nullopt;
    const QPointF c = toCell(p);
    const int col = int(std::floor(c.x())), row = int(std::floor(c.y()));
    if (col < 0 || row < 0 || col >= cols || row >= rows)
        return std::nullopt;
    return QPoint(col, row);
}

int HeatmapPainter::labelStep(double extentPx, double cellPx) {
    if (!(cellPx > 0))
        return 1;
    const double need = extentPx / cellPx;
    for (int mag = 1; mag < 1000000000; mag *= 10)
        for (int m : {1, 2, 5})
            if (double(m) * mag >= need)
                return m * mag;
    return 1000000000;
}

HeatmapPainter::Layout HeatmapPainter::layout(const HeatmapSpec& spec, const HeatmapImage& image,
                                              const Theme& theme, const QRectF& rect, const Options& o) {
    Layout L;
    if (image.isNull() || rect.width() < 60 || rect.height() < 60)
        return L;
    L.window = resolveWindow(spec, o.window);
    const QFontMetricsF tick(theme.font(Theme::FontRole::TickLabel));
    const QFontMetricsF axis(theme.font(Theme::FontRole::AxisTitle));
    const QFontMetricsF title(theme.font(Theme::FontRole::Title));

    double top = rect.top() + kMargin;
    if (!o.title.isEmpty()) {
        L.title = QRectF(rect.left() + kMargin, top, rect.width() - 2 * kMargin, title.height());
        top += title.height() + 6;
    }
    double bottom = rect.bottom() - kMargin;
    double left = rect.left() + kMargin;
    double right = rect.right() - kMargin;

    // Colour bar on the right: bar, ticks, tick labels, unit.
    const QVector<double> ticks = colorBarTicks(image, rect.height() * 0.6);
    double tickW = 0;
    for (double t : ticks)
        tickW = std::max(tickW, tick.horizontalAdvance(tickText(t, ticks)));
    double barBlock = 12 + kBarWidth + kTick + 3 + tickW;
    if (!spec.unit.isEmpty())
        barBlock += 6 + axis.height();
    right -= barBlock;

    // Row labels and title on the left.
    const int r0 = int(std::floor(L.window.top())), r1 = int(std::ceil(L.window.bottom()));
    const int c0 = int(std::floor(L.window.left())), c1 = int(std::ceil(L.window.right()));
    if (!spec.rowTitle.isEmpty())
        left += axis.height() + 4;
    L.rowLabelWidth =
        std::min(rect.width() * 0.28, widestLabel(tick, spec.rowLabels, r0, r1, spec.rowLabels.isEmpty()));
    left += L.rowLabelWidth + kTick + 4;

    // Column labels and title at the bottom; vertical when named labels do not fit their cells.
    if (!spec.colTitle.isEmpty())
        bottom -= axis.height() + 4;
    L.colLabelWidth = widestLabel(tick, spec.colLabels, c0, c1, spec.colLabels.isEmpty());
    const double cellW = (right - left) / L.window.width();
    L.verticalColLabels = !spec.colLabels.isEmpty() && L.colLabelWidth + 6 > cellW;
    L.colLabelBlock = L.verticalColLabels ? std::min(rect.height() * 0.3, L.colLabelWidth) : tick.height();
    bottom -= L.colLabelBlock + kTick + 4;

    L.plot = QRectF(QPointF(left, top), QPointF(right, bottom));
    const double barTop = L.plot.top();
    double barBottom = L.plot.bottom();
    if (image.hasNaN())
        barBottom -= tick.height() + 8; // room for the NaN swatch
    L.colorBar = QRectF(L.plot.right() + 12, barTop, kBarWidth, std::max(10.0, barBottom - barTop));
    L.valid = L.plot.width() > 4 && L.plot.height() > 4;
    return L;
}

bool HeatmapPainter::paint(QPainter* p, const QRectF& rect, const HeatmapSpec& spec,
                           const HeatmapImage& image, const Theme& theme, const Options& o) {
    p->save();
    p->fillRect(rect, theme.chartBackground);
    const Layout L = layout(spec, image, theme, rect, o);
    const QFont tickFont = theme.font(Theme::FontRole::TickLabel);
    const QFont axisFont = theme.font(Theme::FontRole::AxisTitle);
    const QFontMetricsF tick(tickFont);
    if (!L.valid) {
        p->setPen(theme.mutedText);
        p->setFont(axisFont);
        p->drawText(rect, Qt::AlignCenter | Qt::TextWordWrap,
                    image.isNull() ? QStringLiteral("No heatmap data") : QStringLiteral("Too small to draw"));
        p->restore();
        return false;
    }
    if (!L.title.isEmpty()) {
        p->setFont(theme.font(Theme::FontRole::Title));
        p->setPen(theme.chartText);
        p->drawText(L.title, Qt::AlignHCenter | Qt::AlignVCenter, o.title);
    }

    const QRectF& W = L.window;
    const double cellW = L.plot.width() / W.width(), cellH = L.plot.height() / W.height();
    const QRectF matrixArea = QRectF(L.toPoint(0, 0), L.toPoint(spec.cols, spec.rows)).intersected(L.plot);

    // Cells: pick the pyramid level matching the device resolution, copy only the visible part.
    {
        const QTransform dt = p->deviceTransform();
        const double sx = std::hypot(dt.m11(), dt.m12()), sy = std::hypot(dt.m21(), dt.m22());
        const bool vector = isVectorDevice(p);
        // Vector output: aim at 300 dpi for the embedded cells (logical units are 1/96 inch).
        const double fx = vector ? std::max(sx, 300.0 / 96.0) : sx;
        const double fy = vector ? std::max(sy, 300.0 / 96.0) : sy;
        const double pxPerCell = std::max(cellW * fx, cellH * fy);
        const int k = image.levelFor(pxPerCell);
        const QRect cells(QPoint(int(std::floor(W.left())), int(std::floor(W.top()))),
                          QPoint(int(std::ceil(W.right())) - 1, int(std::ceil(W.bottom())) - 1));
        QRect covered;
        QImage img;
        QRect source; // pixels of img to draw
        if (!vector && !image.argbLevel(k).isNull()) {
            source = image.levelRect(k, cells, &covered); // draw straight from the converted level
            img = image.argbLevel(k);
        } else {
            img = image.region(k, cells, &covered);
            source = img.rect();
        }
        if (vector && !img.isNull()) {
            // PDF/SVG viewers smooth embedded images; enlarge with nearest-neighbour so cells stay
            // crisp, up to about 300 dpi and 24 Mpixel.
            const double perPixel = pxPerCell * (1 << k);
            int up = std::max(1, int(std::ceil(perPixel)));
            const double cap = std::sqrt(24.0e6 / double(img.width()) / double(img.height()));
            up = std::max(1, std::min(up, int(cap)));
            if (up > 1)
                img = img.scaled(img.width() * up, img.height() * up, Qt::IgnoreAspectRatio,
                                 Qt::FastTransformation);
            source = img.rect();
        }
        const QRectF target(L.toPoint(covered.left(), covered.top()),
                            L.toPoint(covered.left() + covered.width(), covered.top() + covered.height()));
        p->save();
        p->setClipRect(matrixArea, Qt::IntersectClip);
        p->setRenderHint(QPainter::SmoothPixmapTransform, false);
        p->setRenderHint(QPainter::Antialiasing, false);
        p->drawImage(target, img, QRectF(source));
        p->restore();
    }

    const int r0 = std::max(0, int(std::floor(W.top()))),
              r1 = std::min(spec.rows, int(std::ceil(W.bottom())));
    const int c0 = std::max(0, int(std::floor(W.left()))),
              c1 = std::min(spec.cols, int(std::ceil(W.right())));
    p->save();
    p->setClipRect(L.plot.adjusted(-1, -1, 1, 1), Qt::IntersectClip);
    // Separators between large cells.
    if (cellW >= 18 && cellH >= 18) {
        p->setPen(QPen(theme.chartBackground, 1.0));
        for (int c = c0 + 1; c < c1; ++c)
            p->drawLine(L.toPoint(c, r0), L.toPoint(c, r1));
        for (int r = r0 + 1; r < r1; ++r)
            p->drawLine(L.toPoint(c0, r), L.toPoint(c1, r));
    }
    // Values printed in the cells.
    if (spec.annotateCells && cellH >= tick.height() + 2 && (r1 - r0) * (c1 - c0) <= 4096) {
        p->setFont(theme.font(Theme::FontRole::Annotation));
        const QFontMetricsF am(p->font());
        for (int r = r0; r < r1; ++r)
            for (int c = c0; c < c1; ++c) {
                const double v = spec.values[qsizetype(r) * spec.cols + c];
                const QString text = NiceScale::formatValue(v, 3);
                const QRectF cell(L.toPoint(c, r), L.toPoint(c + 1, r + 1));
                if (am.horizontalAdvance(text) + 4 > cell.width())
                    continue;
                const bool lightCell = Colormap::lightness(image.colorOf(v)) > 55;
                p->setPen(lightCell ? QColor(0x1A, 0x1A, 0x1A) : QColor(0xF5, 0xF5, 0xF5));
                p->drawText(cell, Qt::AlignCenter, text);
            }
    }
    // Highlighted rows / columns and the selected cell.
    p->setBrush(Qt::NoBrush);
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setPen(QPen(theme.highlightOutline, 2.0));
    for (int r : spec.highlightRows)
        if (r >= r0 && r < r1)
            p->drawRect(QRectF(L.toPoint(c0, r), L.toPoint(c1, r + 1)).adjusted(1, 1, -1, -1));
    for (int c : spec.highlightCols)
        if (c >= c0 && c < c1)
            p->drawRect(QRectF(L.toPoint(c, r0), L.toPoint(c + 1, r1)).adjusted(1, 1, -1, -1));
    // Linked selection (rows / columns picked in another figure of the panel): accent colour.
    // A translucent band under a solid outline, so it reads over any colour map and apart from
    // the orange highlight outlines.
    QColor band = theme.highlight;
    band.setAlpha(70);
    p->setBrush(band);
    p->setPen(QPen(theme.highlight, 2.5));
    for (int r : spec.linkedRows)
        if (r >= r0 && r < r1)
            p->drawRect(QRectF(L.toPoint(c0, r), L.toPoint(c1, r + 1)));
    for (int c : spec.linkedCols)
        if (c >= c0 && c < c1)
            p->drawRect(QRectF(L.toPoint(c, r0), L.toPoint(c + 1, r1)));
    p->setBrush(Qt::NoBrush);
    if (o.selected.x() >= 0 && o.selected.y() >= 0 && o.selected.x() < spec.cols &&
        o.selected.y() < spec.rows) {
        const QRectF cell(L.toPoint(o.selected.x(), o.selected.y()),
                          L.toPoint(o.selected.x() + 1, o.selected.y() + 1));
        const QRectF box = cell.width() < 6 ? QRectF(cell.center() - QPointF(4, 4), QSizeF(8, 8)) : cell;
        p->setPen(QPen(theme.plotBackground, 3.0));
        p->drawRect(box);
        p->setPen(QPen(theme.chartText, 1.5));
        p->drawRect(box);
    }
    p->restore();

    // Frame.
    p->setPen(QPen(theme.axisLine, 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawRect(L.plot);

    // Row labels (thinned to multiples of a 1-2-5 step so they stay put while panning).
    p->setFont(tickFont);
    p->setPen(theme.chartText);
    // Named labels may sit tight; bare indices read better with air between them.
    const int rowStep = labelStep(spec.rowLabels.isEmpty() ? tick.height() * 2.5 : tick.height() + 2, cellH);
    for (int r = (r0 + rowStep - 1) / rowStep * rowStep; r < r1; r += rowStep) {
        const double y = L.toPoint(0, r + 0.5).y();
        if (y < L.plot.top() - 0.5 || y > L.plot.bottom() + 0.5)
            continue;
        p->drawLine(QPointF(L.plot.left() - kTick, y), QPointF(L.plot.left(), y));
        const QString text = tick.elidedText(rowText(spec, r), Qt::ElideRight, L.rowLabelWidth + 1);
        p->drawText(QRectF(L.plot.left() - kTick - 4 - L.rowLabelWidth - 2, y - tick.height() / 2,
                           L.rowLabelWidth + 2, tick.height()),
                    Qt::AlignRight | Qt::AlignVCenter, text);
    }
    // Column labels.
    const double colExtent =
        L.verticalColLabels ? tick.height() + 2 : L.colLabelWidth + (spec.colLabels.isEmpty() ? 28 : 8);
    const int colStep = labelStep(colExtent, cellW);
    const double colBlock = L.colLabelBlock;
    for (int c = (c0 + colStep - 1) / colStep * colStep; c < c1; c += colStep) {
        const double x = L.toPoint(c + 0.5, 0).x();
        if (x < L.plot.left() - 0.5 || x > L.plot.right() + 0.5)
            continue;
        p->drawLine(QPointF(x, L.plot.bottom()), QPointF(x, L.plot.bottom() + kTick));
        const double y = L.plot.bottom() + kTick + 3;
        if (L.verticalColLabels) {
            p->save();
            p->translate(x, y);
            p->rotate(-90);
            const QString text = tick.elidedText(colText(spec, c), Qt::ElideRight, colBlock + 1);
            p->drawText(QRectF(-colBlock - 1, -tick.height() / 2, colBlock + 1, tick.height()),
                        Qt::AlignRight | Qt::AlignVCenter, text);
            p->restore();
        } else {
            const QString text = colText(spec, c);
            const double w = tick.horizontalAdvance(text) + 2;
            p->drawText(QRectF(x - w / 2, y, w, tick.height()), Qt::AlignCenter, text);
        }
    }
    // Axis titles.
    p->setFont(axisFont);
    const QFontMetricsF axis(axisFont);
    if (!spec.colTitle.isEmpty()) {
        const double y = L.plot.bottom() + kTick + 4 + colBlock + 4;
        p->drawText(QRectF(L.plot.left(), y, L.plot.width(), axis.height()), Qt::AlignHCenter | Qt::AlignTop,
                    spec.colTitle);
    }
    if (!spec.rowTitle.isEmpty()) {
        p->save();
        p->translate(rect.left() + kMargin, L.plot.center().y());
        p->rotate(-90);
        p->drawText(QRectF(-L.plot.height() / 2, 0, L.plot.height(), axis.height()), Qt::AlignCenter,
                    spec.rowTitle);
        p->restore();
    }

    // Colour bar: the map as an image (high values at the top), ticks, labels, unit, NaN swatch.
    const QRectF bar = L.colorBar;
    {
        QImage grad(1, Colormap::TableSize, QImage::Format_ARGB32);
        const QVector<QRgb>& table = image.colormap().table();
        for (int i = 0; i < Colormap::TableSize; ++i)
            grad.setPixel(0, Colormap::TableSize - 1 - i, table[i]);
        p->save();
        p->setRenderHint(QPainter::SmoothPixmapTransform,
                         image.colormap().kind() != Colormap::Kind::Qualitative);
        p->drawImage(bar, grad);
        p->restore();
        p->setPen(QPen(theme.axisLine, 1.0));
        p->setBrush(Qt::NoBrush);
        p->drawRect(bar);
    }
    p->setFont(tickFont);
    p->setPen(theme.chartText);
    const QVector<double> ticks = colorBarTicks(image, bar.height());
    double labelRight = bar.right() + kTick + 3;
    const double span = image.maxValue() - image.minValue();
    for (double t : ticks) {
        const double y = bar.bottom() - (t - image.minValue()) / span * bar.height();
        p->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTick, y));
        const QString text = tickText(t, ticks);
        const double w = tick.horizontalAdvance(text);
        p->drawText(QRectF(bar.right() + kTick + 3, y - tick.height() / 2, w + 2, tick.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, text);
        labelRight = std::max(labelRight, bar.right() + kTick + 3 + w);
    }
    if (image.hasNaN()) {
        const QRectF sw(bar.left(), L.plot.bottom() - tick.height() + 1, kBarWidth, tick.height() - 2);
        p->fillRect(sw, QColor::fromRgb(image.colormap().nanColor()));
        p->setPen(QPen(theme.axisLine, 1.0));
        p->drawRect(sw);
        p->setPen(theme.chartText);
        p->drawText(QRectF(sw.right() + kTick + 3, sw.top() - 1, 40, tick.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("NaN"));
    }
    if (!spec.unit.isEmpty()) {
        p->setFont(axisFont);
        p->save();
        p->translate(labelRight + 6, bar.center().y());
        p->rotate(-90);
        p->drawText(QRectF(-bar.height() / 2, 0, bar.height(), axis.height()), Qt::AlignCenter, spec.unit);
        p->restore();
    }
    p->restore();
    return true;
}

} // namespace pl::gui
