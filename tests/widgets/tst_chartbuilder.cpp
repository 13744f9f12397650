// ChartBuilder: axes (linear, log, categories), NaN and non-positive points, markers, legend,
// decimation, in-place updates and restyling; FigureView reuse of charts.

#include "SampleFigures.h"
#include "widgets/ChartBuilder.h"
#include "widgets/FigureView.h"
#include "widgets/HeatmapView.h"
#include "widgets/ThemeManager.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace pl::gui;

namespace {

QXYSeries* dataSeries(QChart* chart, int i) {
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == QStringLiteral("data:%1").arg(i))
            return qobject_cast<QXYSeries*>(s);
    return nullptr;
}

QLineSeries* markerSeries(QChart* chart, int i) {
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == QStringLiteral("marker:%1").arg(i))
            return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

template <class T> T* axis(QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? nullptr : qobject_cast<T*>(axes.first());
}

} // namespace

class TestChartBuilder : public QObject {
    Q_OBJECT
private slots:
    void logAxesSkipNonPositiveAndNaN();
    void linearAxesAndScatter();
    void markersAreLinesWithLabelsOutsideLegend();
    void barsUseCategories();
    void noAnimationsNoOpenGL();
    void longSeriesAreDecimated();
    void updateInPlace();
    void applyThemeRestyles();
    void emptySpecIsHarmless();
    void figureViewReusesChart();
    void figureViewFollowsTheme();
};

void TestChartBuilder::logAxesSkipNonPositiveAndNaN() {
    const FigureSpec f = samples::convergenceChart();
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light()));
    QVERIFY(axis<QLogValueAxis>(chart.get(), Qt::Vertical));
    QVERIFY(axis<QValueAxis>(chart.get(), Qt::Horizontal));
    auto* ly = axis<QLogValueAxis>(chart.get(), Qt::Vertical);
    QVERIFY(ly->min() > 0);
    QVERIFY(ly->min() <= 1e-12 * 1.0001);
    QVERIFY(ly->max() >= 1.0);
    QXYSeries* a = dataSeries(chart.get(), 0);
    QXYSeries* b = dataSeries(chart.get(), 1);
    QVERIFY(a && b);
    QCOMPARE(a->count(), 1000); // 1001 points minus one NaN
    QCOMPARE(b->count(), 1000); // 1001 points minus one negative value
    for (const QPointF& p : a->points())
        QVERIFY(std::isfinite(p.y()) && p.y() > 0);
    // Step series: 21 points -> 41 step vertices.
    QCOMPARE(dataSeries(chart.get(), 2)->count(), 41);
    QCOMPARE(chart->title(), f.title);
    QCOMPARE(axis<QValueAxis>(chart.get(), Qt::Horizontal)->titleText(), f.chart.xLabel);
}

void TestChartBuilder::linearAxesAndScatter() {
    const FigureSpec f = samples::scatterChart(300);
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light()));
    auto* x = axis<QValueAxis>(chart.get(), Qt::Horizontal);
    auto* y = axis<QValueAxis>(chart.get(), Qt::Vertical);
    QVERIFY(x && y);
    QVERIFY(x->min() <= 0 && x->max() >= 10);
    QVERIFY(y->min() < -1 && y->max() > 1);
    QCOMPARE(x->tickType(), QValueAxis::TicksDynamic);
    QVERIFY(qobject_cast<QScatterSeries*>(dataSeries(chart.get(), 0)));
    QCOMPARE(dataSeries(chart.get(), 0)->count(), 300);
    QCOMPARE(dataSeries(chart.get(), 0)->color(), Theme::light().seriesColor(0));
    QCOMPARE(dataSeries(chart.get(), 1)->color(), Theme::light().seriesColor(1));
}

void TestChartBuilder::markersAreLinesWithLabelsOutsideLegend() {
    const FigureSpec f = samples::convergenceChart();
    QGraphicsScene scene; // legend items report visibility only inside a scene
    QChart* owned = ChartBuilder::build(f, Theme::light());
    scene.addItem(owned);
    struct NoDelete {
        void operator()(QChart*) const {}
    };
    std::unique_ptr<QChart, NoDelete> chart(owned);
    chart->setGeometry(0, 0, 800, 500);
    chart->layout()->activate();
    QCoreApplication::processEvents(); // legend markers become visible once laid out
    QLineSeries* m = markerSeries(chart.get(), 0);
    QVERIFY(m);
    QCOMPARE(m->count(), 2);
    QCOMPARE(m->at(0).x(), 600.0);
    QCOMPARE(m->at(1).x(), 600.0);
    QLineSeries* tol = markerSeries(chart.get(), 1);
    QCOMPARE(tol->at(0).y(), 1e-8);
    for (QLegendMarker* lm : chart->legend()->markers(m))
        QVERIFY(!lm->isVisible());
    for (QLegendMarker* lm : chart->legend()->markers(dataSeries(chart.get(), 0)))
        QVERIFY(lm->isVisible());
    QCOMPARE(chart->legend()->alignment(), Qt::AlignBottom);
    QStringList labels;
    for (QGraphicsItem* item : chart->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item))
            labels << t->text();
    QVERIFY(labels.contains(QStringLiteral("switch to Newton")));
    QVERIFY(labels.contains(QStringLiteral("tolerance")));
}

void TestChartBuilder::barsUseCategories() {
    const FigureSpec f = samples::barChart();
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light()));
    auto* cats = axis<QBarCategoryAxis>(chart.get(), Qt::Horizontal);
    QVERIFY(cats);
    QCOMPARE(cats->categories(), f.chart.categories);
    QBarSeries* bars = nullptr;
    for (QAbstractSeries* s : chart->series())
        if ((bars = qobject_cast<QBarSeries*>(s)))
            break;
    QVERIFY(bars);
    QCOMPARE(bars->count(), 2);
    QCOMPARE(bars->barSets().at(0)->at(1), 91.4);
    QCOMPARE(axis<QValueAxis>(chart.get(), Qt::Vertical)->min(), 0.0); // bars stand on zero
}

void TestChartBuilder::noAnimationsNoOpenGL() {
    for (const FigureSpec& f : {samples::convergenceChart(), samples::scatterChart(), samples::barChart()}) {
        std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::dark()));
        QCOMPARE(chart->animationOptions(), QChart::NoAnimation);
        for (QAbstractSeries* s : chart->series())
            QVERIFY(!s->useOpenGL());
    }
}

void TestChartBuilder::longSeriesAreDecimated() {
    FigureSpec f;
    f.chart.series.resize(1);
    SeriesSpec& s = f.chart.series[0];
    for (int i = 0; i < 100000; ++i) {
        s.x << i;
        s.y << std::sin(i * 0.01) + (i == 43210 ? 10.0 : 0.0);
    }
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light(), QSize(800, 400)));
    QXYSeries* xy = dataSeries(chart.get(), 0);
    QVERIFY(xy->count() <= 2 * 800 + 2);
    QVERIFY(xy->count() >= 800);
    bool spike = false;
    for (const QPointF& p : xy->points())
        spike = spike || p.y() > 9.0;
    QVERIFY(spike); // min/max buckets keep the spike
    QVERIFY(ChartBuilder::updatePlotSize(chart.get(), QSize(200, 100)));
    QVERIFY(xy->count() <= 2 * 200 + 2);
}

void TestChartBuilder::updateInPlace() {
    FigureSpec f = samples::convergenceChart();
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light()));
    QXYSeries* before = dataSeries(chart.get(), 0);
    QSignalSpy replaced(before, &QXYSeries::pointsReplaced);
    QSignalSpy added(before, &QXYSeries::pointAdded);
    FigureSpec g = f;
    for (double& y : g.chart.series[0].y)
        y *= 1e-3;
    g.chart.markers[0].value = 300;
    QVERIFY(ChartBuilder::sameStructure(f.chart, g.chart));
    QVERIFY(ChartBuilder::updateData(chart.get(), g.chart, QSize(900, 500)));
    QCOMPARE(dataSeries(chart.get(), 0), before); // same object
    QCOMPARE(replaced.count(), 1);                // one replace(), no append()s
    QCOMPARE(added.count(), 0);
    QCOMPARE(markerSeries(chart.get(), 0)->at(0).x(), 300.0);
    QVERIFY(axis<QLogValueAxis>(chart.get(), Qt::Vertical)->min() <= 1e-15 * 1.0001);
    // A different structure is refused.
    FigureSpec h = f;
    h.chart.series.removeLast();
    QVERIFY(!ChartBuilder::sameStructure(f.chart, h.chart));
    QVERIFY(!ChartBuilder::updateData(chart.get(), h.chart, QSize(900, 500)));
    QChart foreign;
    QVERIFY(!ChartBuilder::updateData(&foreign, g.chart, QSize(900, 500)));
}

void TestChartBuilder::applyThemeRestyles() {
    const FigureSpec f = samples::convergenceChart();
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light()));
    QCOMPARE(chart->backgroundBrush().color(), Theme::light().chartBackground);
    QVERIFY(ChartBuilder::applyTheme(chart.get(), Theme::dark()));
    QCOMPARE(chart->backgroundBrush().color(), Theme::dark().chartBackground);
    QCOMPARE(dataSeries(chart.get(), 0)->color(), Theme::dark().seriesColor(0));
    QCOMPARE(chart->legend()->labelColor(), Theme::dark().chartText);
    QCOMPARE(axis<QValueAxis>(chart.get(), Qt::Horizontal)->labelsBrush().color(), Theme::dark().chartText);
    QVERIFY(dataSeries(chart.get(), 1)->pen().style() == Qt::DashLine);
}

void TestChartBuilder::emptySpecIsHarmless() {
    FigureSpec f;
    std::unique_ptr<QChart> chart(ChartBuilder::build(f, Theme::light()));
    QVERIFY(chart);
    QVERIFY(!chart->legend()->isVisible());
    FigureSpec g;
    g.chart.logX = g.chart.logY = true;
    SeriesSpec s;
    s.x = {-1, 0, std::nan("")};
    s.y = {1, 2, 3};
    g.chart.series = {s};
    std::unique_ptr<QChart> c2(ChartBuilder::build(g, Theme::light()));
    QCOMPARE(dataSeries(c2.get(), 0)->count(), 0);
    QVERIFY(axis<QLogValueAxis>(c2.get(), Qt::Horizontal)->min() > 0);
}

void TestChartBuilder::figureViewReusesChart() {
    FigureView view;
    view.resize(640, 400);
    FigureSpec f = samples::convergenceChart();
    view.setSpec(f);
    QVERIFY(view.chart());
    QCOMPARE(view.chartRebuildCount(), 1);
    QChart* first = view.chart();
    f.chart.series[0].y[3] = 0.5;
    view.setSpec(f);
    QCOMPARE(view.chart(), first);
    QCOMPARE(view.chartRebuildCount(), 1);
    f.chart.series.removeLast();
    view.setSpec(f);
    QCOMPARE(view.chartRebuildCount(), 2);
    view.setSpec(samples::payoffHeatmap());
    QVERIFY(view.heatmapView()->isVisibleTo(&view));
    const QImage snap = view.snapshot();
    QCOMPARE(snap.size(), view.size());
}

void TestChartBuilder::figureViewFollowsTheme() {
    FigureView view;
    view.setSpec(samples::convergenceChart());
    QSignalSpy spy(ThemeManager::instance(), &ThemeManager::themeChanged);
    Theme::setCurrent(Theme::dark());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(Theme::current().name, QStringLiteral("dark"));
    QCOMPARE(view.chart()->backgroundBrush().color(), Theme::dark().chartBackground);
    QCOMPARE(qApp->palette().color(QPalette::Window), Theme::dark().window);
    Theme::setCurrent(Theme::light());
    QCOMPARE(view.chart()->backgroundBrush().color(), Theme::light().chartBackground);
}

QTEST_MAIN(TestChartBuilder)
#include "tst_chartbuilder.moc"
