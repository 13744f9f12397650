#include "GraphPainter.h"

#include "NiceScale.h"

#include <QFontMetricsF>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {

constexpr double kMargin = 8.0;
constexpr double kBarWidth = 12.0;
constexpr double kTick = 3.0;

bool hasColorBar(const GraphSpec& spec, const GraphStyle& style) {
    return !spec.colorTitle.isEmpty() && style.hasNodeValues();
}

double arrowLength(double width) {
    return 5.0 + 2.0 * width;
}

} // namespace

QRectF GraphPainter::bounds(const QVector<QPointF>& points) {
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    bool any = false;
    for (const QPointF& p : points) {
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
            continue;
        x0 = any ? std::min(x0, p.x()) : p.x();
        x1 = any ? std::max(x1, p.x()) : p.x();
        y0 = any ? std::min(y0, p.y()) : p.y();
        y1 = any ? std::max(y1, p.y()) : p.y();
        any = true;
    }
    return any ? QRectF(QPointF(x0, y0), QPointF(x1, y1)) : QRectF();
}

QTransform GraphPainter::fit(const QRectF& b, const QRectF& target) {
    const double w = b.width(), h = b.height();
    double s = 1.0;
    if (w > 0 && h > 0)
        s = std::min(target.width() / w, target.height() / h);
    else if (w > 0)
        s = target.width() / w;
    else if (h > 0)
        s = target.height() / h;
    QTransform t;
    t.translate(target.center().x(), target.center().y());
    t.scale(s, s);
    t.translate(-b.center().x(), -b.center().y());
    return t;
}

QSizeF GraphPainter::legendSize(const GraphSpec& spec, const Theme& theme) {
    if (spec.legend.isEmpty())
        return {};
    const QFontMetricsF fm(theme.font(Theme::FontRole::Legend));
    double w = 0;
    for (const GraphLegendEntry& e : spec.legend)
        w = std::max(w, fm.horizontalAdvance(e.label));
    return QSizeF(8 + 20 + 6 + w + 8, 6 + spec.legend.size() * (fm.height() + 4) + 2);
}

double GraphPainter::colorBarBlockWidth(const GraphSpec& spec, const GraphStyle& style, const Theme& theme) {
    if (!hasColorBar(spec, style))
        return 0;
    const QFontMetricsF fm(theme.font(Theme::FontRole::TickLabel));
    const QFontMetricsF fa(theme.font(Theme::FontRole::AxisTitle));
    const QVector<double> ticks = NiceScale::ticks(style.valueMin(), style.valueMax(), 6);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
    double w = 0;
    for (double t : ticks)
        w = std::max(w, fm.horizontalAdvance(NiceScale::formatTick(t, step)));
    return std::max(kBarWidth + kTick + 3 + w + 4, std::min(160.0, fa.horizontalAdvance(spec.colorTitle)));
}

GraphPainter::Layout GraphPainter::layout(const GraphSpec& spec, const GraphStyle& style,
                                          const QVector<QPointF>& positions, const Theme& theme,
                                          const QRectF& rect, const Options& options) {
    Layout L;
    QRectF area = rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (!options.title.isEmpty()) {
        const QFontMetricsF ft(theme.font(Theme::FontRole::Title));
        L.title = QRectF(area.left(), area.top(), area.width(), ft.height() + 4);
        area.setTop(L.title.bottom() + 4);
    }
    const QSizeF legend = legendSize(spec, theme);
    const double barBlock = colorBarBlockWidth(spec, style, theme);
    const double column = std::max(legend.width(), barBlock);
    if (column > 0 && area.width() > column * 2.5) {
        const double x = area.right() - column;
        double y = area.top();
        if (!legend.isEmpty()) {
            L.legend = QRectF(x, y, legend.width(), legend.height());
            y = L.legend.bottom() + 12;
        }
        if (barBlock > 0) {
            const QFontMetricsF fa(theme.font(Theme::FontRole::AxisTitle));
            const double top = y + fa.height() + 4;
            const double h = std::clamp(area.bottom() - top - 8, 10.0, std::max(10.0, area.height() * 0.6));
            L.colorBar = QRectF(x, top, kBarWidth, h);
        }
        area.setRight(x - 10);
    }
    // Pad so that discs and labels stay inside.
    const double r = style.maxNodeRadius() + 3;
    double rightPad = r;
    if (labelsShown(spec)) {
        const QFontMetricsF fl(theme.font(Theme::FontRole::Annotation));
        double w = 0;
        for (const GraphNodeSpec& n : spec.nodes)
            w = std::max(w, fl.horizontalAdvance(n.label));
        rightPad += std::min(w + 4, area.width() * 0.25);
    }
    L.plot = area.adjusted(r, r, -rightPad, -r);
    if (L.plot.width() < 4 || L.plot.height() < 4)
        return L;
    L.toPlot = fit(bounds(positions), L.plot);
    L.valid = true;
    return L;
}

void GraphPainter::drawEdges(QPainter* p, const GraphSpec& spec, const GraphStyle& style,
                             const QVector<QPointF>& pts, const QRectF& clip, const QVector<int>& highlight,
                             bool interactive) {
    const int m = std::min(int(spec.edges.size()), style.edgeCount());
    const int n = int(pts.size());
    struct Batch {
        QRgb rgba;
        double width;
        bool dashed;
        QVector<QLineF> lines;
    };
    QHash<quint64, int> index;
    QVector<Batch> batches;
    QHash<QRgb, QVector<QPolygonF>> arrows;
    QVector<bool> hot;
    if (!highlight.isEmpty()) {
        hot.fill(false, n);
        for (int i : highlight)
            if (i >= 0 && i < n)
                hot[i] = true;
    }
    QVector<QLineF> hotLines;
    const bool cull = !clip.isNull();
    const int stride =
        interactive && m > kInteractiveEdges ? (m + kInteractiveEdges - 1) / kInteractiveEdges : 1;
    for (int k = 0; k < m; ++k) {
        if (!style.edgeValid(k))
            continue;
        const GraphEdgeSpec& e = spec.edges[k];
        if (e.source >= n || e.target >= n)
            continue;
        if (stride > 1 && k % stride != 0 && (hot.isEmpty() || !(hot[e.source] || hot[e.target])))
            continue;
        const QPointF a = pts[e.source], b = pts[e.target];
        if (cull && (std::max(a.x(), b.x()) < clip.left() || std::min(a.x(), b.x()) > clip.right() ||
                     std::max(a.y(), b.y()) < clip.top() || std::min(a.y(), b.y()) > clip.bottom()))
            continue;
        const QPointF d = b - a;
        const double len = std::hypot(d.x(), d.y());
        const double ra = style.nodeRadius(e.source), rb = style.nodeRadius(e.target);
        if (!(len > ra + rb + 0.5))
            continue;
        const QPointF u = d / len;
        const QPointF from = a + u * ra;
        QPointF to = b - u * rb;
        const double w = style.edgeWidth(k);
        if (style.edgeArrow(k)) {
            const double al = std::min(arrowLength(w), len - ra - rb);
            const QPointF base = to - u * al;
            const QPointF nrm(-u.y(), u.x());
            arrows[style.edgeRgba(k)].append(
                QPolygonF{to, base + nrm * (al * 0.42), base - nrm * (al * 0.42)});
            to = base;
        }
        const quint64 key = (quint64(style.edgeRgba(k)) << 32) | (quint64(std::lround(w * 8)) << 1) |
                            quint64(style.edgeDashed(k));
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.insert(key, int(batches.size()));
            batches.append(Batch{style.edgeRgba(k), w, style.edgeDashed(k), {}});
        }
        batches[*it].lines.append(QLineF(from, to));
        if (!hot.isEmpty() && (hot[e.source] || hot[e.target]))
            hotLines.append(QLineF(from, to));
    }
    p->save();
    p->setRenderHint(QPainter::Antialiasing, !interactive);
    p->setBrush(Qt::NoBrush);
    for (const Batch& b : batches) {
        QPen pen(QColor::fromRgba(b.rgba), b.width, b.dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap);
        p->setPen(pen);
        p->drawLines(b.lines);
    }
    p->setPen(Qt::NoPen);
    for (auto it = arrows.cbegin(); it != arrows.cend(); ++it) {
        p->setBrush(QColor::fromRgba(it.key()));
        for (const QPolygonF& poly : it.value())
            p->drawPolygon(poly);
    }
    if (!hotLines.isEmpty()) {
        p->setPen(QPen(style.selectionColor(), 2.0));
        p->drawLines(hotLines);
    }
    p->restore();
}

void GraphPainter::drawNode(QPainter* p, const GraphStyle& style, int i, const QPointF& c, bool selected,
                            bool hovered) {
    const double r = style.nodeRadius(i);
    p->setBrush(style.nodeColor(i));
    if (selected)
        p->setPen(QPen(style.selectionColor(), 2.5));
    else
        p->setPen(QPen(hovered ? style.labelColor() : style.nodeOutline(), hovered ? 2.0 : 1.0));
    p->drawEllipse(c, r, r);
}

void GraphPainter::drawLabel(QPainter* p, const QString& text, const QPointF& c, double radius,
                             const Theme& theme) {
    if (text.isEmpty())
        return;
    const QFontMetricsF fm(theme.font(Theme::FontRole::Annotation));
    p->setFont(theme.font(Theme::FontRole::Annotation));
    p->setPen(theme.chartText);
    p->drawText(QPointF(c.x() + radius + 3, c.y() + (fm.ascent() - fm.descent()) / 2), text);
}

void GraphPainter::drawLegend(QPainter* p, const GraphSpec& spec, const GraphStyle& style, const Theme& theme,
                              const QRectF& box) {
    if (spec.legend.isEmpty() || box.isEmpty())
        return;
    const QFont font = theme.font(Theme::FontRole::Legend);
    const QFontMetricsF fm(font);
    p->save();
    p->setRenderHint(QPainter::Antialiasing, true);
    QColor frame = theme.gridLine;
    p->setPen(QPen(frame, 1));
    QColor fill = theme.chartBackground;
    fill.setAlpha(230);
    p->setBrush(fill);
    p->drawRoundedRect(box, 3, 3);
    p->setFont(font);
    double y = box.top() + 6;
    for (const GraphLegendEntry& e : spec.legend) {
        const double cy = y + fm.height() / 2;
        const QColor c = style.legendColor(e);
        if (e.edge) {
            QPen pen(c, 2.0, e.dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap);
            p->setPen(pen);
            p->drawLine(QPointF(box.left() + 8, cy), QPointF(box.left() + 28, cy));
        } else {
            p->setPen(QPen(style.nodeOutline(), 1));
            p->setBrush(c);
            p->drawEllipse(QPointF(box.left() + 18, cy), 5.5, 5.5);
        }
        p->setPen(theme.chartText);
        p->drawText(QRectF(box.left() + 34, y, box.width() - 38, fm.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, e.label);
        y += fm.height() + 4;
    }
    p->restore();
}

void GraphPainter::drawColorBar(QPainter* p, const GraphSpec& spec, const GraphStyle& style,
                                const Theme& theme, const QRectF& bar) {
    if (bar.isEmpty())
        return;
    p->save();
    const QFont axis = theme.font(Theme::FontRole::AxisTitle);
    const QFontMetricsF fa(axis);
    p->setFont(axis);
    p->setPen(theme.chartText);
    p->drawText(QRectF(bar.left(), bar.top() - fa.height() - 4, 200, fa.height()),
                Qt::AlignLeft | Qt::AlignVCenter, spec.colorTitle);
    QImage grad(1, 256, QImage::Format_RGB32);
    const QVector<QRgb>& table = style.colormap().table();
    for (int i = 0; i < 256; ++i)
        grad.setPixel(0, 255 - i, table.value(i));
    p->setRenderHint(QPainter::SmoothPixmapTransform, false);
    p->drawImage(bar, grad);
    p->setPen(QPen(theme.axisLine, 1));
    p->setBrush(Qt::NoBrush);
    p->drawRect(bar);
    const QFont tf = theme.font(Theme::FontRole::TickLabel);
    const QFontMetricsF ft(tf);
    p->setFont(tf);
    const double lo = style.valueMin(), hi = style.valueMax();
    const QVector<double> ticks = NiceScale::ticks(lo, hi, std::clamp(int(bar.height() / 28), 2, 8));
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
    for (double t : ticks) {
        const double y = hi > lo ? bar.bottom() - (t - lo) / (hi - lo) * bar.height() : bar.center().y();
        p->setPen(QPen(theme.axisLine, 1));
        p->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTick, y));
        p->setPen(theme.chartText);
        p->drawText(QRectF(bar.right() + kTick + 3, y - ft.height() / 2, 120, ft.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, NiceScale::formatTick(t, step));
    }
    p->restore();
}

bool GraphPainter::paint(QPainter* p, const QRectF& rect, const GraphSpec& spec,
                         const QVector<QPointF>& positions, const Theme& theme, const Options& options) {
    p->save();
    p->fillRect(rect, theme.chartBackground);
    auto message = [&](const QString& text) {
        p->setPen(theme.mutedText);
        p->setFont(theme.font(Theme::FontRole::AxisTitle));
        p->drawText(rect.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, text);
        p->restore();
        return false;
    };
    if (spec.nodes.isEmpty())
        return message(QStringLiteral("%1: the graph has no nodes").arg(options.title));
    if (positions.size() != spec.nodes.size())
        return message(QStringLiteral("%1: no layout for this graph").arg(options.title));
    const GraphStyle style(spec, theme);
    const Layout L = layout(spec, style, positions, theme, rect, options);
    if (!L.valid)
        return message(QStringLiteral("too small"));
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setRenderHint(QPainter::TextAntialiasing, true);
    if (!options.title.isEmpty()) {
        p->setFont(theme.font(Theme::FontRole::Title));
        p->setPen(theme.chartText);
        p->drawText(L.title, Qt::AlignCenter, options.title);
    }
    QVector<QPointF> pts(positions.size());
    for (qsizetype i = 0; i < positions.size(); ++i)
        pts[i] = L.toPlot.map(positions[i]);
    QVector<int> selected = options.selected;
    selected += spec.linkedNodes; // the linked selection is drawn as a selection
    drawEdges(p, spec, style, pts, {}, selected);
    for (qsizetype i = 0; i < pts.size(); ++i)
        drawNode(p, style, int(i), pts[i], selected.contains(int(i)), options.hovered == int(i));
    if (labelsShown(spec))
        for (qsizetype i = 0; i < pts.size(); ++i)
            drawLabel(p, spec.nodes[i].label, pts[i], style.nodeRadius(int(i)), theme);
    drawLegend(p, spec, style, theme, L.legend);
    if (!L.colorBar.isEmpty())
        drawColorBar(p, spec, style, theme, L.colorBar);
    p->restore();
    return true;
}

} // namespace pl::gui
