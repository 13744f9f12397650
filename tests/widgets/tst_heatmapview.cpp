// HeatmapImage pyramid, HeatmapPainter layout and label thinning, HeatmapView hover mapping,
// zoom, pan and selection at 4096 x 4096 (correctness, not timing).

#include "SampleFigures.h"
#include "widgets/HeatmapView.h"
#include "widgets/ScreenshotHelper.h"

#include <QMouseEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <cmath>

using namespace pl::gui;

class TestHeatmapView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void imageRangeAndNaN();
    void pyramidLevels();
    void colormapSwapIsTableOnly();
    void labelStep();
    void hoverMapping();
    void clickSelectsCell();
    void zoomKeepsAnchorAndClamps();
    void panMovesWindow();
    void paintsVisibleWindowOnly();
    void prebuiltImage();
    void themeColours();

private:
    HeatmapSpec m_big;
};

void TestHeatmapView::initTestCase() {
    m_big = samples::bigHeatmap(4096).heatmap;
}

void TestHeatmapView::imageRangeAndNaN() {
    const HeatmapSpec s = samples::payoffHeatmap().heatmap; // diverging, centreZero, one NaN
    const HeatmapImage img(s);
    QVERIFY(!img.isNull());
    QVERIFY(img.hasNaN());
    QCOMPARE(img.minValue(), -img.maxValue());
    QCOMPARE(img.level(0).format(), QImage::Format_Indexed8);
    QCOMPARE(img.level(0).pixelIndex(3, 2), HeatmapImage::NaNIndex);
    QCOMPARE(img.level(0).color(HeatmapImage::NaNIndex), img.colormap().nanColor());
    QCOMPARE(img.colorOf(0.0), Colormap::byName(QStringLiteral("diverging")).lookup(0.5));
    HeatmapSpec bad = s;
    bad.values.removeLast();
    QVERIFY(HeatmapImage(bad).isNull());
    HeatmapSpec flat = s;
    flat.centreZero = false;
    flat.values.fill(2.0);
    const HeatmapImage fi(flat);
    QVERIFY(fi.maxValue() > fi.minValue());
    HeatmapSpec fixed = s;
    fixed.fixedRange = true;
    fixed.vMin = -10;
    fixed.vMax = 10;
    QCOMPARE(HeatmapImage(fixed).maxValue(), 10.0);
}

void TestHeatmapView::pyramidLevels() {
    const HeatmapImage img(m_big);
    QCOMPARE(img.rows(), 4096);
    QCOMPARE(img.level(0).size(), QSize(4096, 4096));
    QVERIFY(img.levelCount() >= 5);
    QCOMPARE(img.level(1).size(), QSize(2048, 2048));
    QCOMPARE(img.levelFor(1.0), 0);
    QCOMPARE(img.levelFor(0.5), 1);
    QCOMPARE(img.levelFor(0.2), 2);
    QRect covered;
    const QImage region = img.region(2, QRect(10, 10, 100, 50), &covered);
    QCOMPARE(region.format(), QImage::Format_ARGB32_Premultiplied);
    QVERIFY(covered.contains(QRect(10, 10, 100, 50)));
    QCOMPARE(region.width() * 4, covered.width());
    // Odd sizes: the last block overhangs, the level still covers the matrix.
    HeatmapSpec odd = samples::bigHeatmap(300).heatmap;
    odd.cols = 299;
    odd.values.resize(300 * 299);
    const HeatmapImage oi(odd);
    QCOMPARE(oi.level(1).size(), QSize(150, 150));
}

void TestHeatmapView::colormapSwapIsTableOnly() {
    HeatmapImage img(samples::bigHeatmap(600).heatmap);
    const uchar before = img.level(0).pixelIndex(123, 45);
    img.setColormap(Colormap::byName(QStringLiteral("magma")));
    QCOMPARE(uchar(img.level(0).pixelIndex(123, 45)), before);
    QCOMPARE(img.level(0).color(before),
             Colormap::byName(QStringLiteral("magma")).lookup((before + 0.5) / 255));
    QCOMPARE(img.level(1).color(0), img.level(0).color(0));
}

void TestHeatmapView::labelStep() {
    QCOMPARE(HeatmapPainter::labelStep(14, 20), 1);
    QCOMPARE(HeatmapPainter::labelStep(14, 10), 2);
    QCOMPARE(HeatmapPainter::labelStep(14, 4), 5);
    QCOMPARE(HeatmapPainter::labelStep(14, 0.2), 100);
}

void TestHeatmapView::hoverMapping() {
    HeatmapView view;
    view.resize(800, 600);
    view.setSpec(m_big, QStringLiteral("field"));
    const HeatmapPainter::Layout L = view.currentLayout();
    QVERIFY(L.valid);
    QCOMPARE(L.window, QRectF(0, 0, 4096, 4096));
    // Centre of cell (r, c) maps back to (c, r).
    for (auto [r, c] : {std::pair{0, 0}, std::pair{4095, 4095}, std::pair{1234, 3000}}) {
        const QPointF p = L.toPoint(c + 0.5, r + 0.5);
        const auto cell = view.cellAt(p);
        QVERIFY(cell);
        QCOMPARE(*cell, QPoint(c, r));
    }
    QVERIFY(!view.cellAt(QPointF(1, 1))); // margin, not a cell
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    QMouseEvent move(QEvent::MouseMove, L.toPoint(3000.5, 1234.5),
                     view.mapToGlobal(L.toPoint(3000.5, 1234.5)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QVERIFY(hovered.count() >= 1);
    QCOMPARE(hovered.last().at(0).toInt(), 1234);
    QCOMPARE(hovered.last().at(1).toInt(), 3000);
    QCOMPARE(hovered.last().at(2).toDouble(), m_big.values[qsizetype(1234) * 4096 + 3000]);
    QVERIFY(view.hoverText().startsWith(QStringLiteral("row 1234, column 3000: ")));
    QVERIFY(view.hoverText().endsWith(QStringLiteral(" score")));
    const HeatmapSpec small = samples::payoffHeatmap().heatmap;
    view.setSpec(small);
    QCOMPARE(view.describeCell(2, 3), QStringLiteral("row 2 (strategy 3), column 3 (s4): NaN payoff"));
}

void TestHeatmapView::clickSelectsCell() {
    HeatmapView view;
    view.resize(600, 400);
    view.setSpec(samples::payoffHeatmap().heatmap);
    QSignalSpy spy(&view, &HeatmapView::cellSelected);
    const QPointF p = view.currentLayout().toPoint(6.5, 4.5);
    QTest::mouseClick(&view, Qt::LeftButton, {}, p.toPoint());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 4);
    QCOMPARE(spy.at(0).at(1).toInt(), 6);
    QCOMPARE(view.selectedCell(), QPoint(6, 4));
}

void TestHeatmapView::zoomKeepsAnchorAndClamps() {
    HeatmapView view;
    view.resize(800, 600);
    view.setSpec(m_big);
    QSignalSpy spy(&view, &HeatmapView::windowChanged);
    const HeatmapPainter::Layout L0 = view.currentLayout();
    const QPointF anchor = L0.toPoint(1000.25, 3000.75);
    view.zoomBy(8.0, anchor);
    QCOMPARE(spy.count(), 1);
    QVERIFY(std::fabs(view.window().width() - 512) < 1e-9);
    const HeatmapPainter::Layout L1 = view.currentLayout();
    const QPointF c = L1.toCell(anchor);
    QVERIFY(std::fabs(c.x() - 1000.25) < 1e-6 && std::fabs(c.y() - 3000.75) < 1e-6);
    // Wheel zoom in keeps the hovered cell under the cursor.
    QWheelEvent wheel(anchor, view.mapToGlobal(anchor), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QVERIFY(view.window().width() < 512);
    QCOMPARE(*view.cellAt(anchor), QPoint(1000, 3000));
    // Extreme zoom in is limited to 2 x 2 cells; zoom out to the whole matrix.
    view.zoomBy(1e9, anchor);
    QCOMPARE(view.window().width(), 2.0);
    view.zoomBy(1e-9, anchor);
    QCOMPARE(view.window(), QRectF(0, 0, 4096, 4096));
    view.setWindow(QRectF(-100, 4000, 300, 300)); // clamped inside the matrix
    QCOMPARE(view.window(), QRectF(0, 3796, 300, 300));
    view.resetZoom();
    QCOMPARE(view.window(), QRectF(0, 0, 4096, 4096));
}

void TestHeatmapView::panMovesWindow() {
    HeatmapView view;
    view.resize(800, 600);
    view.setSpec(m_big);
    view.setWindow(QRectF(1000, 1000, 256, 256));
    const double cellPx = view.currentLayout().plot.width() / 256;
    const QPointF start = view.currentLayout().plot.center();
    auto send = [&view](QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent e(type, pos, view.mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(&view, &e);
    };
    send(QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, start + QPointF(50, 25), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseMove, start + QPointF(100, 50), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, start + QPointF(100, 50), Qt::LeftButton, Qt::NoButton);
    // Content follows the mouse: the window moves left/up by the dragged cells.
    QVERIFY(std::fabs(view.window().left() - (1000 - 100 / cellPx)) < 1.0);
    QVERIFY(view.window().top() < 1000);
    QCOMPARE(view.window().width(), 256.0);
    QCOMPARE(view.selectedCell(), QPoint(-1, -1)); // a drag is not a click
    view.panBy(QPointF(-1e6, -1e6));
    QCOMPARE(view.window().right(), 4096.0);
    QCOMPARE(view.window().bottom(), 4096.0);
}

void TestHeatmapView::paintsVisibleWindowOnly() {
    // Zoomed on a 4 x 4 corner of a checkerboard: the plot shows exactly those cells.
    HeatmapSpec s;
    s.rows = s.cols = 4096;
    s.values.resize(4096 * 4096);
    for (int r = 0; r < 4096; ++r)
        for (int c = 0; c < 4096; ++c)
            s.values[qsizetype(r) * 4096 + c] = (r + c) % 2;
    s.colormap = QStringLiteral("gray");
    HeatmapView view;
    view.resize(700, 500);
    view.setSpec(s);
    view.setTheme(Theme::light());
    view.setWindow(QRectF(100, 200, 4, 4));
    const QImage img = ScreenshotHelper::grab(&view);
    const HeatmapPainter::Layout L = view.currentLayout();
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
            const QPoint p = L.toPoint(100 + c + 0.5, 200 + r + 0.5).toPoint();
            const int gray = qGray(img.pixel(p));
            const bool white = (r + c) % 2 == 0 ? false : true; // (200 + r + 100 + c) % 2
            QVERIFY2(white ? gray > 200 : gray < 55,
                     qPrintable(QStringLiteral("cell %1,%2 gray %3").arg(r).arg(c).arg(gray)));
        }
    // Zoomed out, the whole matrix fits and the picture is mid-gray on average (mean pyramid).
    view.resetZoom();
    const QImage all = ScreenshotHelper::grab(&view);
    const QPoint mid = view.currentLayout().plot.center().toPoint();
    QVERIFY(std::abs(qGray(all.pixel(mid)) - 128) < 40);
}

void TestHeatmapView::prebuiltImage() {
    const HeatmapSpec s = samples::payoffHeatmap().heatmap;
    HeatmapImage img;
    QThread* worker = QThread::create([&img, s] { img.build(s); }); // QImage work off the GUI thread
    worker->start();
    QVERIFY(worker->wait(10000));
    delete worker;
    HeatmapView view;
    view.resize(400, 300);
    view.setSpec(s, img, QStringLiteral("prebuilt"));
    QCOMPARE(view.image().level(0).cacheKey(), img.level(0).cacheKey()); // shared, not rebuilt
    QVERIFY(view.currentLayout().valid);
}

void TestHeatmapView::themeColours() {
    HeatmapView view;
    view.resize(400, 300);
    view.setSpec(samples::payoffHeatmap().heatmap);
    view.setTheme(Theme::dark());
    const QImage img = ScreenshotHelper::grab(&view);
    QCOMPARE(QColor(img.pixel(2, 2)), Theme::dark().chartBackground);
}

QTEST_MAIN(TestHeatmapView)
#include "tst_heatmapview.moc"
