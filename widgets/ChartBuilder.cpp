#include "ChartBuilder.h"

#include "NiceScale.h"
#include "SeriesDecimator.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {

const QString kStateName = QStringLiteral("pl_chart_state");

/// Everything build() created, kept as a child of the chart so update and restyle need no search.
class ChartState : public QObject {
public:
    explicit ChartState(QObject* parent) : QObject(parent) { setObjectName(kStateName); }
    ChartSpec spec;
    QSize plotSize;
    QVector<QXYSeries*> xy;    ///< per spec.series index; nullptr for bar series
    QVector<QBarSet*> barSets; ///< per spec.series index; nullptr for non-bar series
    QVector<int> colors;       ///< palette index per spec.series index
    QBarSeries* bars = nullptr;
    QVector<QLineSeries*> markers;
    QVector<QGraphicsSimpleTextItem*> markerLabels;
    QVector<bool> markerShown;
    QVector<bool> dense; ///< per spec.series index: drawn decimated ///< label has text and the marker is
                         ///< drawable on these axes
    QAbstractAxis* axisX = nullptr;
    QAbstractAxis* axisY = nullptr;
    Theme theme;
};

ChartState* stateOf(const QChart* chart) {
    if (!chart)
        return nullptr;
    for (QObject* child : chart->children())
        if (child->objectName() == kStateName)
            return static_cast<ChartState*>(child);
    return nullptr;
}

bool hasBars(const ChartSpec& spec) {
    return std::any_of(spec.series.begin(), spec.series.end(),
                       [](const SeriesSpec& s) { return s.style == SeriesSpec::Style::Bars; });
}

bool usesCategories(const ChartSpec& spec) {
    return hasBars(spec) || !spec.categories.isEmpty();
}

int categoryCount(const ChartSpec& spec) {
    qsizetype n = spec.categories.size();
    for (const SeriesSpec& s : spec.series)
        if (s.style == SeriesSpec::Style::Bars)
            n = std::max(n, s.y.size());
    return int(n);
}

QStringList categoryLabels(const ChartSpec& spec) {
    QStringList labels = spec.categories;
    for (int i = int(labels.size()); i < categoryCount(spec); ++i)
        labels << QString::number(i);
    return labels;
}

struct Span {
    double lo = 0, hi = 0;
    bool valid = false;
    void add(double v) {
        if (!std::isfinite(v))
            return;
        lo = valid ? std::min(lo, v) : v;
        hi = valid ? std::max(hi, v) : v;
        valid = true;
    }
};

/// Final axis ranges for a spec (after padding / decade rounding).
struct Ranges {
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
};

Ranges computeRanges(const ChartSpec& spec) {
    Span sx, sy;
    bool scatterOnly = !spec.series.isEmpty();
    for (const SeriesSpec& s : spec.series) {
        if (s.style != SeriesSpec::Style::Scatter)
            scatterOnly = false;
        if (s.style == SeriesSpec::Style::Bars) {
            for (double y : s.y)
                if (!spec.logY || y > 0)
                    sy.add(y);
            if (!spec.logY)
                sy.add(0.0); // bars grow from zero
            continue;
        }
        const qsizetype n = std::min(s.x.size(), s.y.size());
        for (qsizetype i = 0; i < n; ++i) {
            const double x = s.x[i], y = s.y[i];
            if (!std::isfinite(x) || !std::isfinite(y) || (spec.logX && !(x > 0)) || (spec.logY && !(y > 0)))
                continue;
            sx.add(x);
            sy.add(y);
        }
    }
    for (const MarkerSpec& m : spec.markers) {
        if (m.axis == MarkerSpec::Axis::X && (!spec.logX || m.value > 0))
            sx.add(m.value);
        if (m.axis == MarkerSpec::Axis::Y && (!spec.logY || m.value > 0))
            sy.add(m.value);
    }

    Ranges r;
    auto linear = [](Span s, double padFraction, double* lo, double* hi) {
        if (!s.valid) {
            *lo = 0;
            *hi = 1;
            return;
        }
        double span = s.hi - s.lo;
        if (span <= 0) {
            span = s.hi != 0 ? std::fabs(s.hi) * 0.2 : 1.0;
            padFraction = 0.5;
        }
        *lo = s.lo - padFraction * span;
        *hi = s.hi + padFraction * span;
    };
    auto decades = [](Span s, double* lo, double* hi) {
        if (!s.valid || !(s.lo > 0)) {
            *lo = 1;
            *hi = 10;
            return;
        }
        *lo = std::pow(10.0, std::floor(std::log10(s.lo) + 1e-9));
        *hi = std::pow(10.0, std::ceil(std::log10(s.hi) - 1e-9));
        if (*hi <= *lo)
            *hi = *lo * 10.0;
    };

    if (usesCategories(spec)) {
        r.x0 = -0.5;
        r.x1 = std::max(1, categoryCount(spec)) - 0.5;
    } else if (spec.fixedXRange && spec.xMax > spec.xMin) {
        r.x0 = spec.xMin;
        r.x1 = spec.xMax;
    } else if (spec.logX) {
        decades(sx, &r.x0, &r.x1);
    } else {
        linear(sx, scatterOnly ? 0.04 : 0.0, &r.x0, &r.x1);
    }

    if (spec.fixedYRange && spec.yMax > spec.yMin) {
        r.y0 = spec.yMin;
        r.y1 = spec.yMax;
    } else if (spec.logY) {
        decades(sy, &r.y0, &r.y1);
    } else {
        const double dataLo = sy.lo, dataHi = sy.hi;
        linear(sy, 0.05, &r.y0, &r.y1);
        if (hasBars(spec) && sy.valid) { // bars stand on zero: no padding below / above it
            if (dataLo >= 0)
                r.y0 = 0;
            if (dataHi <= 0)
                r.y1 = 0;
        }
    }
    return r;
}

void setupLinearAxis(QValueAxis* axis, double lo, double hi, int maxTicks) {
    const double step = NiceScale::step(hi - lo, maxTicks);
    axis->setRange(lo, hi);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setMinorTickCount(0);
    axis->setLabelFormat(NiceScale::labelFormat(step, std::max(std::fabs(lo), std::fabs(hi))));
}

void setupLogAxis(QLogValueAxis* axis, double lo, double hi) {
    // More than ~8 decades: label every 2nd (3rd, ...) decade by using base 10^stride.
    const double decadeCount = std::log10(hi / lo);
    const int stride = std::max(1, int(std::ceil(decadeCount / 8.0 - 1e-9)));
    if (stride > 1) {
        const double e0 = std::floor(std::log10(lo) / stride + 1e-9) * stride;
        const double e1 = std::ceil(std::log10(hi) / stride - 1e-9) * stride;
        lo = std::pow(10.0, e0);
        hi = std::pow(10.0, e1);
    }
    axis->setBase(std::pow(10.0, stride));
    // Nudge outwards: Qt Charts places decade labels at ceil(log(min)), which rounding in
    // pow() could push past the first decade.
    axis->setRange(lo * (1 - 1e-9), hi * (1 + 1e-9));
    axis->setMinorTickCount(stride == 1 && decadeCount <= 6 ? 8 : 0);
    axis->setLabelFormat(QStringLiteral("%g"));
}

void applyRanges(ChartState* st, const Ranges& r) {
    const QSize px = st->plotSize;
    if (auto* vx = qobject_cast<QValueAxis*>(st->axisX))
        setupLinearAxis(vx, r.x0, r.x1, std::clamp(px.width() / 90, 3, 12));
    else if (auto* lx = qobject_cast<QLogValueAxis*>(st->axisX))
        setupLogAxis(lx, r.x0, r.x1);
    else if (auto* cx = qobject_cast<QBarCategoryAxis*>(st->axisX))
        cx->setCategories(categoryLabels(st->spec));
    if (auto* vy = qobject_cast<QValueAxis*>(st->axisY))
        setupLinearAxis(vy, r.y0, r.y1, std::clamp(px.height() / 45, 3, 10));
    else if (auto* ly = qobject_cast<QLogValueAxis*>(st->axisY))
        setupLogAxis(ly, r.y0, r.y1);
}

void styleSeries(QChart* chart, ChartState* st, qsizetype i);

/// Drawable points of a series; *decimated tells whether decimation dropped any.
QList<QPointF> seriesPoints(const ChartSpec& spec, const SeriesSpec& s, const Ranges& r, QSize plotPx,
                            bool* decimated) {
    QList<QPointF> pts = SeriesDecimator::finitePoints(s.x, s.y, spec.logX, spec.logY);
    const qsizetype finite = pts.size();
    const int width = std::max(100, plotPx.width());
    if (s.style == SeriesSpec::Style::Scatter) {
        const QRectF box(QPointF(r.x0, r.y0), QPointF(r.x1, r.y1));
        pts = SeriesDecimator::gridThin(pts, box, width, std::max(60, plotPx.height()), spec.logX, spec.logY);
    } else {
        pts = SeriesDecimator::minMax(pts, width, spec.logX);
    }
    *decimated = pts.size() < finite;
    if (s.style == SeriesSpec::Style::Step)
        pts = SeriesDecimator::toSteps(pts);
    return pts;
}

void setData(ChartState* st) {
    const ChartSpec& spec = st->spec;
    const Ranges r = computeRanges(spec);
    applyRanges(st, r);
    const int nCat = categoryCount(spec);
    for (qsizetype i = 0; i < spec.series.size(); ++i) {
        const SeriesSpec& s = spec.series[i];
        if (QXYSeries* xy = st->xy.value(i)) {
            bool decimated = false;
            const QList<QPointF> pts = seriesPoints(spec, s, r, st->plotSize, &decimated);
            const bool dense = decimated && s.style != SeriesSpec::Style::Scatter;
            xy->replace(pts);
            if (st->dense.value(i) != dense) {
                st->dense[i] = dense;
                styleSeries(xy->chart(), st, i);
            }
        } else if (QBarSet* set = st->barSets.value(i)) {
            QList<qreal> values;
            values.reserve(nCat);
            for (int k = 0; k < nCat; ++k) {
                const double v = k < s.y.size() ? s.y[k] : 0.0;
                values << (std::isfinite(v) && (!spec.logY || v > 0) ? v : (spec.logY ? r.y0 : 0.0));
            }
            if (set->count() > 0)
                set->remove(0, set->count());
            set->append(values);
        }
    }
    for (qsizetype i = 0; i < spec.markers.size() && i < st->markers.size(); ++i) {
        const MarkerSpec& m = spec.markers[i];
        QList<QPointF> line;
        const bool usable =
            m.axis == MarkerSpec::Axis::X ? (!spec.logX || m.value > 0) : (!spec.logY || m.value > 0);
        if (usable && std::isfinite(m.value)) {
            if (m.axis == MarkerSpec::Axis::X)
                line = {QPointF(m.value, r.y0), QPointF(m.value, r.y1)};
            else
                line = {QPointF(r.x0, m.value), QPointF(r.x1, m.value)};
        }
        st->markers[i]->replace(line);
        st->markerLabels[i]->setText(m.label);
        st->markerShown[i] = usable && std::isfinite(m.value) && !m.label.isEmpty();
        st->markerLabels[i]->setVisible(st->markerShown[i]);
    }
}

QAbstractAxis* makeAxis(bool log, bool categories) {
    if (categories)
        return new QBarCategoryAxis;
    if (log)
        return new QLogValueAxis;
    return new QValueAxis;
}

void styleAxis(QAbstractAxis* axis, const Theme& t) {
    axis->setTitleFont(t.font(Theme::FontRole::AxisTitle));
    axis->setTitleBrush(t.chartText);
    axis->setLabelsFont(t.font(Theme::FontRole::TickLabel));
    axis->setLabelsBrush(t.chartText);
    axis->setLabelsColor(t.chartText);
    axis->setLinePen(QPen(t.axisLine, 1.0));
    axis->setGridLinePen(QPen(t.gridLine, 1.0));
    axis->setMinorGridLinePen(QPen(t.minorGridLine, 1.0));
    axis->setShadesVisible(false);
    axis->setGridLineVisible(!qobject_cast<QBarCategoryAxis*>(axis));
}

void styleSeries(QChart* chart, ChartState* st, qsizetype i) {
    const SeriesSpec& s = st->spec.series[i];
    const Theme& t = st->theme;
    const QColor c = t.seriesColor(st->colors[i]);
    if (QBarSet* set = st->barSets.value(i)) {
        set->setColor(c);
        set->setBorderColor(c.darker(115));
        set->setLabelColor(t.chartText);
        for (QLegendMarker* m : chart->legend()->markers(st->bars))
            if (m->label() == set->label()) {
                m->setShape(QLegend::MarkerShapeRectangle);
                m->setBrush(c);
                m->setPen(QPen(c.darker(115), 1.0));
            }
        return;
    }
    QXYSeries* xy = st->xy.value(i);
    if (!xy)
        return;
    if (auto* sc = qobject_cast<QScatterSeries*>(xy)) {
        const qsizetype n = s.x.size();
        sc->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        sc->setMarkerSize(n > 5000 ? 3.5 : n > 500 ? 5.0 : 7.5);
        sc->setColor(c);
        sc->setBorderColor(n > 500 ? c : t.plotBackground);
        return;
    }
    // Dense (decimated) lines zig-zag between bucket minima and maxima: a thin pen keeps them
    // readable and avoids stroking a heavily self-overlapping wide path (several times slower).
    const double width = st->dense.value(i) ? std::min(1.0, s.lineWidth) : s.lineWidth;
    QPen pen(c, std::max(0.5, width));
    pen.setStyle(s.dashed ? Qt::DashLine : Qt::SolidLine);
    pen.setCapStyle(Qt::RoundCap);
    pen.setJoinStyle(Qt::RoundJoin);
    xy->setPen(pen);
    xy->setColor(c);
    if (s.style == SeriesSpec::Style::LineWithPoints) {
        xy->setPointsVisible(true);
        xy->setMarkerSize(std::max(5.0, 3.0 * s.lineWidth));
    }
}

} // namespace

QChart* ChartBuilder::build(const FigureSpec& spec, const Theme& theme, QSize plotSizePx) {
    Options o;
    o.title = spec.title;
    o.plotSizePx = plotSizePx;
    return build(spec.chart, theme, o);
}

QChart* ChartBuilder::build(const ChartSpec& spec, const Theme& theme, const Options& options) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    chart->setMargins(QMargins(6, 6, 10, 6));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setTitle(options.title);

    auto* st = new ChartState(chart);
    st->spec = spec;
    st->plotSize = options.plotSizePx;
    st->axisX = makeAxis(spec.logX, usesCategories(spec));
    st->axisY = makeAxis(spec.logY, false);
    st->axisX->setTitleText(spec.xLabel);
    st->axisY->setTitleText(spec.yLabel);
    chart->addAxis(st->axisX, Qt::AlignBottom);
    chart->addAxis(st->axisY, Qt::AlignLeft);

    int nextColor = 0;
    st->xy.resize(spec.series.size());
    st->barSets.resize(spec.series.size());
    st->colors.resize(spec.series.size());
    st->dense.fill(false, spec.series.size());
    for (qsizetype i = 0; i < spec.series.size(); ++i) {
        const SeriesSpec& s = spec.series[i];
        st->colors[i] = s.colorIndex >= 0 ? s.colorIndex : nextColor++;
        if (s.style == SeriesSpec::Style::Bars) {
            if (!st->bars) {
                st->bars = new QBarSeries;
                st->bars->setObjectName(QStringLiteral("bars"));
                st->bars->setBarWidth(0.8);
            }
            auto* set = new QBarSet(s.name);
            st->bars->append(set);
            st->barSets[i] = set;
            continue;
        }
        QXYSeries* series = s.style == SeriesSpec::Style::Scatter
                                ? static_cast<QXYSeries*>(new QScatterSeries)
                                : static_cast<QXYSeries*>(new QLineSeries);
        series->setObjectName(QStringLiteral("data:%1").arg(i));
        series->setName(s.name);
        series->setUseOpenGL(false); // scene renders, SVG and PDF must contain every series
        chart->addSeries(series);
        series->attachAxis(st->axisX);
        series->attachAxis(st->axisY);
        st->xy[i] = series;
    }
    if (st->bars) {
        chart->addSeries(st->bars);
        st->bars->attachAxis(st->axisX);
        st->bars->attachAxis(st->axisY);
    }
    for (qsizetype i = 0; i < spec.markers.size(); ++i) {
        auto* line = new QLineSeries;
        line->setObjectName(QStringLiteral("marker:%1").arg(i));
        line->setName(spec.markers[i].label);
        chart->addSeries(line);
        line->attachAxis(st->axisX);
        line->attachAxis(st->axisY);
        st->markers << line;
        st->markerShown << false;
        auto* label = new QGraphicsSimpleTextItem(chart);
        label->setZValue(20);
        st->markerLabels << label;
    }

    QLegend* legend = chart->legend();
    legend->setAlignment(Qt::AlignBottom);
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries);
    legend->setShowToolTips(true);
    bool anyNamed = false;
    for (QAbstractSeries* series : chart->series()) {
        const bool isMarker = series->objectName().startsWith(QLatin1String("marker:"));
        for (QLegendMarker* m : legend->markers(series)) {
            const bool show = !isMarker && !m->label().isEmpty();
            m->setVisible(show);
            anyNamed = anyNamed || show;
        }
    }
    legend->setVisible(anyNamed);

    QObject::connect(chart, &QChart::plotAreaChanged, chart,
                     [chart](const QRectF&) { layoutAnnotations(chart); });
    applyTheme(chart, theme);
    setData(st);
    return chart;
}

bool ChartBuilder::sameStructure(const ChartSpec& a, const ChartSpec& b) {
    if (a.logX != b.logX || a.logY != b.logY || a.series.size() != b.series.size() ||
        a.markers.size() != b.markers.size() || a.categories != b.categories || a.xLabel != b.xLabel ||
        a.yLabel != b.yLabel || categoryCount(a) != categoryCount(b))
        return false;
    for (qsizetype i = 0; i < a.series.size(); ++i) {
        const SeriesSpec& x = a.series[i];
        const SeriesSpec& y = b.series[i];
        if (x.style != y.style || x.name != y.name || x.colorIndex != y.colorIndex || x.dashed != y.dashed ||
            x.lineWidth != y.lineWidth)
            return false;
    }
    for (qsizetype i = 0; i < a.markers.size(); ++i)
        if (a.markers[i].axis != b.markers[i].axis)
            return false;
    return true;
}

bool ChartBuilder::updateData(QChart* chart, const ChartSpec& spec, QSize plotSizePx) {
    ChartState* st = stateOf(chart);
    if (!st || !sameStructure(st->spec, spec))
        return false;
    st->spec = spec;
    st->plotSize = plotSizePx;
    setData(st);
    layoutAnnotations(chart);
    return true;
}

bool ChartBuilder::updatePlotSize(QChart* chart, QSize plotSizePx) {
    ChartState* st = stateOf(chart);
    if (!st)
        return false;
    if (st->plotSize == plotSizePx)
        return true;
    st->plotSize = plotSizePx;
    setData(st);
    layoutAnnotations(chart);
    return true;
}

const ChartSpec* ChartBuilder::specOf(const QChart* chart) {
    const ChartState* st = stateOf(chart);
    return st ? &st->spec : nullptr;
}

void ChartBuilder::setTitle(QChart* chart, const QString& title) {
    if (chart)
        chart->setTitle(title);
}

bool ChartBuilder::applyTheme(QChart* chart, const Theme& t) {
    ChartState* st = stateOf(chart);
    if (!st)
        return false;
    st->theme = t;
    chart->setBackgroundVisible(true);
    chart->setBackgroundBrush(t.chartBackground);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setPlotAreaBackgroundBrush(t.plotBackground);
    chart->setPlotAreaBackgroundPen(QPen(t.axisLine, 1.0));
    chart->setTitleFont(t.font(Theme::FontRole::Title));
    chart->setTitleBrush(t.chartText);
    QLegend* legend = chart->legend();
    legend->setFont(t.font(Theme::FontRole::Legend));
    legend->setLabelColor(t.chartText);
    legend->setBackgroundVisible(false);
    legend->setBorderColor(Qt::transparent);
    styleAxis(st->axisX, t);
    styleAxis(st->axisY, t);

    for (qsizetype i = 0; i < st->spec.series.size(); ++i)
        styleSeries(chart, st, i);
    for (qsizetype i = 0; i < st->markers.size(); ++i) {
        QPen pen(t.markerLine, 1.2, Qt::DashLine);
        pen.setDashPattern({5, 4});
        st->markers[i]->setPen(pen);
        st->markerLabels[i]->setFont(t.font(Theme::FontRole::Annotation));
        st->markerLabels[i]->setBrush(t.chartText);
    }
    layoutAnnotations(chart);
    return true;
}

void ChartBuilder::layoutAnnotations(QChart* chart) {
    ChartState* st = stateOf(chart);
    if (!st || st->markers.isEmpty())
        return;
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty())
        return;
    const double pad = 4.0;
    QVector<QRectF> placed;
    for (qsizetype i = 0; i < st->markers.size(); ++i) {
        QGraphicsSimpleTextItem* label = st->markerLabels[i];
        if (!st->markerShown.value(i) || st->markers[i]->count() < 2) {
            label->setVisible(false);
            continue;
        }
        const QRectF text = label->boundingRect();
        const MarkerSpec& m = st->spec.markers[i];
        QPointF p;
        if (m.axis == MarkerSpec::Axis::X) {
            const QPointF top = chart->mapToPosition(st->markers[i]->at(1), st->markers[i]);
            double x = top.x() + pad;
            if (x + text.width() > plot.right() - pad)
                x = top.x() - pad - text.width(); // flip to the left of the line
            p = QPointF(x, plot.top() + pad);
        } else {
            const QPointF right = chart->mapToPosition(st->markers[i]->at(1), st->markers[i]);
            double y = right.y() - pad / 2 - text.height();
            if (y < plot.top())
                y = right.y() + pad / 2;
            p = QPointF(plot.right() - pad - text.width(), y);
        }
        QRectF r(p, text.size());
        for (int guard = 0; guard < 8; ++guard) { // stagger labels that would overlap
            auto hit =
                std::find_if(placed.begin(), placed.end(), [&](const QRectF& q) { return q.intersects(r); });
            if (hit == placed.end())
                break;
            r.moveTop(hit->bottom() + 1);
        }
        r.moveLeft(
            std::clamp(r.left(), plot.left() + 1, std::max(plot.left() + 1, plot.right() - r.width() - 1)));
        label->setPos(r.topLeft());
        label->setVisible(plot.contains(r.center()));
        placed << r;
    }
}

} // namespace pl::gui
