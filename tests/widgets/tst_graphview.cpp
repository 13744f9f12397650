// Graph figures, offscreen: deterministic layouts (VTK strategies, built-in fallbacks, worker
// thread = GUI thread), GraphView (async layout, hover read-out, selection, dragging, zoom,
// restyling without re-layout), exports (PNG/SVG/PDF not blank, CSV, JSON with positions and
// round trip), scene data export and JSON without OpenGL, and screenshot baselines (light, dark).

#include "SampleScenes.h"
#include "widgets/FigureExporter.h"
#include "sdk/figure/FigureSpecJson.h"
#include "widgets/FigureView.h"
#include "widgets/GraphLayoutProvider.h"
#include "widgets/GraphPainter.h"
#include "widgets/GraphView.h"
#include "widgets/SceneRendererRegistry.h"
#include "widgets/ScreenshotHelper.h"
#include "widgets/vtk/VtkGraphLayout.h"
#include "widgets/vtk/VtkViews.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace pl::gui;

Q_DECLARE_METATYPE(pl::gui::FigureSpec)

namespace {

QString baseline(const QString& name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/baselines/%1.png").arg(name);
}

bool sameLayout(const QVector<QPointF>& a, const QVector<QPointF>& b) {
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

/// Shows \a view at 640 x 480 and waits for its layout.
bool showGraph(GraphView& view, const FigureSpec& f) {
    view.resize(640, 480);
    view.setSpec(f.graph, f.title);
    view.show();
    return QTest::qWaitFor([&] { return !view.isLayoutPending(); }, 20000);
}

void sendMouse(QWidget* w, QEvent::Type type, const QPointF& pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, mods);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestGraphView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void vtkLayoutIsDeterministic();
    void layoutOnWorkerThreadMatchesGuiThread();
    void builtInLayouts();
    void viewLaysOutOffTheGuiThread();
    void hoverSelectAndDrag();
    void zoomAndRestyleKeepLayout();
    void figureViewShowsGraph();
    void exportsAreNotBlank_data();
    void exportsAreNotBlank();
    void csvAndJson();
    void emptyGraphPaintsMessage();
    void sceneDataWithoutOpenGL();
    void baselines_data();
    void baselines();

private:
    QTemporaryDir m_dir;
};

void TestGraphView::initTestCase() {
    QVERIFY(m_dir.isValid());
    registerVtkViews();
    QVERIFY(GraphLayoutProvider::hasLayoutFunction());
}

void TestGraphView::vtkLayoutIsDeterministic() {
    const GraphSpec g = samples::communityGraph().graph;
    const QVector<QPointF> a = computeLayout(g, 7);
    const QVector<QPointF> b = computeLayout(g, 7);
    QCOMPARE(a.size(), g.nodes.size());
    QVERIFY(sameLayout(a, b));
    QVERIFY(!sameLayout(a, computeLayout(g, 8))); // the seed matters
    const QRectF box = GraphPainter::bounds(a);
    QVERIFY(box.width() > 0 && box.height() > 0); // not collapsed
    QVERIFY(a[0] != a[5]);
    // Large graphs use the fast 2D strategy: same determinism.
    const GraphSpec big = samples::randomGraph(600).graph;
    QVERIFY(sameLayout(computeLayout(big, 1), computeLayout(big, 1)));
    // Circular through VTK; Given and Spectral are not VTK's (empty = handled by the provider).
    GraphSpec c = g;
    c.layout = GraphLayout::Circular;
    QCOMPARE(computeLayout(c, 1).size(), g.nodes.size());
    c.layout = GraphLayout::Spectral;
    QVERIFY(computeLayout(c, 1).isEmpty());
    // The provider (cached or not) gives the VTK result for the spec's seed.
    GraphLayoutProvider::clearCache();
    QVERIFY(sameLayout(GraphLayoutProvider::compute(g), a));
    QVERIFY(sameLayout(GraphLayoutProvider::compute(g), a));
}

void TestGraphView::layoutOnWorkerThreadMatchesGuiThread() {
    const GraphSpec g = samples::randomGraph(400).graph;
    const QVector<QPointF> gui = computeLayout(g, 5);
    QVector<QPointF> t1, t2;
    std::thread a([&] { t1 = computeLayout(g, 5); });
    std::thread b([&] { t2 = computeLayout(g, 5); });
    a.join();
    b.join();
    QVERIFY(sameLayout(gui, t1));
    QVERIFY(sameLayout(gui, t2));
}

void TestGraphView::builtInLayouts() {
    GraphSpec g = samples::communityGraph(GraphLayout::Spectral).graph;
    const QVector<QPointF> s1 = GraphLayoutProvider::computeBuiltIn(g);
    QVERIFY(sameLayout(s1, GraphLayoutProvider::computeBuiltIn(g)));
    for (const QPointF& p : s1)
        QVERIFY(std::isfinite(p.x()) && std::isfinite(p.y()));
    QVERIFY(GraphPainter::bounds(s1).width() > 0);
    // Given: node coordinates, missing ones placed around them.
    g.layout = GraphLayout::Given;
    for (int i = 0; i < g.nodes.size(); ++i)
        if (i != 3) {
            g.nodes[i].x = i;
            g.nodes[i].y = -i;
        }
    const QVector<QPointF> given = GraphLayoutProvider::compute(g);
    QCOMPARE(given[5], QPointF(5, -5));
    QVERIFY(std::isfinite(given[3].x()));
    // Without the VTK function, "force" falls back to the spectral layout.
    GraphLayoutProvider::setLayoutFunction({});
    GraphSpec f = samples::communityGraph().graph;
    const QVector<QPointF> fallback = GraphLayoutProvider::compute(f);
    f.layout = GraphLayout::Spectral;
    QVERIFY(sameLayout(fallback, GraphLayoutProvider::compute(f)));
    registerVtkViews();
}

void TestGraphView::viewLaysOutOffTheGuiThread() {
    GraphLayoutProvider::clearCache();
    const FigureSpec f = samples::randomGraph(2000, 9);
    GraphView view;
    view.resize(640, 480);
    QSignalSpy ready(&view, &GraphView::layoutReady);
    QElapsedTimer t;
    t.start();
    view.setSpec(f.graph, f.title);
    QVERIFY(t.elapsed() < 150); // the GUI thread did not lay out 2000 nodes
    QVERIFY(view.isLayoutPending());
    QVERIFY(ready.wait(30000));
    QVERIFY(!view.isLayoutPending());
    QCOMPARE(view.positions().size(), 2000);
    QVERIFY(sameLayout(view.positions(), GraphLayoutProvider::compute(f.graph))); // cached, same
    // Destroying a view while its layout runs must not crash (the destructor waits).
    GraphLayoutProvider::clearCache();
    auto* doomed = new GraphView;
    doomed->setSpec(samples::randomGraph(1500, 4).graph);
    delete doomed;
}

void TestGraphView::hoverSelectAndDrag() {
    const FigureSpec f = samples::communityGraph();
    GraphView view;
    QVERIFY(showGraph(view, f));
    QWidget* vp = view.viewport();
    QSignalSpy hover(&view, &GraphView::hoverTextChanged);
    QSignalSpy selected(&view, &GraphView::nodeSelected);
    QSignalSpy moved(&view, &GraphView::nodeMoved);
    const int i = 4;
    const QPointF at = view.nodeViewportPosition(i);
    QCOMPARE(view.nodeAt(at.toPoint()), i);
    sendMouse(vp, QEvent::MouseMove, at + QPointF(20, 20), Qt::NoButton, Qt::NoButton);
    sendMouse(vp, QEvent::MouseMove, at, Qt::NoButton, Qt::NoButton);
    QTRY_VERIFY(!hover.isEmpty());
    QVERIFY2(hover.last().at(0).toString().startsWith(QLatin1String("p4")),
             qPrintable(hover.last().at(0).toString()));
    QVERIFY(view.hoverText().contains(QLatin1String("payoff")));

    // Click selects; Ctrl+click adds; the incident edges are redrawn highlighted.
    const int paints = view.edgePaintCount();
    QTest::mouseClick(vp, Qt::LeftButton, Qt::NoModifier, at.toPoint());
    QCOMPARE(view.selectedNode(), i);
    QCOMPARE(selected.last().at(0).toInt(), i);
    const QPointF at2 = view.nodeViewportPosition(15);
    QTest::mouseClick(vp, Qt::LeftButton, Qt::ControlModifier, at2.toPoint());
    QCOMPARE(view.selectedNodes(), (QVector<int>{4, 15}));
    view.viewport()->repaint();
    QVERIFY(view.edgePaintCount() > paints);

    // Drag node 4 alone by (60, 30) px: only it moves, edges follow.
    view.selectNode(-1);
    const QVector<QPointF> before = view.positions();
    sendMouse(vp, QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
    for (int k = 1; k <= 6; ++k)
        sendMouse(vp, QEvent::MouseMove, at + QPointF(10 * k, 5 * k), Qt::NoButton, Qt::LeftButton);
    sendMouse(vp, QEvent::MouseButtonRelease, at + QPointF(60, 30), Qt::LeftButton, Qt::NoButton);
    QVERIFY(!moved.isEmpty());
    const QVector<QPointF> after = view.positions();
    QVERIFY(after[i] != before[i]);
    QVERIFY((view.nodeViewportPosition(i) - (at + QPointF(60, 30))).manhattanLength() < 3);
    QCOMPARE(after[0], before[0]);
    QCOMPARE(after[15], before[15]);
}

void TestGraphView::zoomAndRestyleKeepLayout() {
    FigureSpec f = samples::communityGraph();
    GraphView view;
    QVERIFY(showGraph(view, f));
    const int requests = view.layoutRequests();
    QCOMPARE(view.zoomLevel(), 1.0);
    const QPoint c(320, 240);
    QWheelEvent wheel(QPointF(c), view.viewport()->mapToGlobal(QPointF(c)), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.viewport(), &wheel);
    QVERIFY(view.zoomLevel() > 1.2);
    QVERIFY(view.isInteracting()); // aliased edges while zooming ...
    QTRY_VERIFY(!view.isInteracting()); // ... antialiased again once it settles
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_0);
    QCOMPARE(view.zoomLevel(), 1.0);

    // A drag, then new colours and sizes with the same structure: no new layout, drag kept.
    view.selectNode(-1);
    const QPointF at = view.nodeViewportPosition(2);
    sendMouse(view.viewport(), QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
    sendMouse(view.viewport(), QEvent::MouseMove, at + QPointF(40, 0), Qt::NoButton, Qt::LeftButton);
    sendMouse(view.viewport(), QEvent::MouseButtonRelease, at + QPointF(40, 0), Qt::LeftButton, Qt::NoButton);
    const QVector<QPointF> dragged = view.positions();
    for (GraphNodeSpec& n : f.graph.nodes)
        n.value = -n.value;
    f.graph.colormap = QStringLiteral("magma");
    view.setSpec(f.graph, f.title);
    QCOMPARE(view.layoutRequests(), requests);
    QVERIFY(sameLayout(view.positions(), dragged));
    QCOMPARE(view.style().colormap().name(), QStringLiteral("magma"));
    // A new structure lays out again.
    f.graph.edges.removeLast();
    view.setSpec(f.graph, f.title);
    QTRY_VERIFY(!view.isLayoutPending());
    QCOMPARE(view.layoutRequests(), requests + 1);
}

void TestGraphView::figureViewShowsGraph() {
    FigureView fv;
    fv.resize(640, 500);
    fv.setSpec(samples::communityGraph());
    fv.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fv));
    QVERIFY(fv.graphView()->isVisible());
    QTRY_VERIFY(!fv.graphView()->isLayoutPending());
    QVERIFY(ScreenshotHelper::distinctColors(ScreenshotHelper::grab(&fv)) > 50);
    QVERIFY(ScreenshotHelper::distinctColors(fv.snapshot()) > 50);
}

void TestGraphView::exportsAreNotBlank_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("theme");
    for (const char* fmt : {"png", "svg", "pdf"})
        for (const char* th : {"light", "dark"})
            QTest::newRow(qPrintable(QStringLiteral("%1-%2").arg(fmt, th)))
                << QString::fromLatin1(fmt) << QString::fromLatin1(th);
}

void TestGraphView::exportsAreNotBlank() {
    QFETCH(QString, format);
    QFETCH(QString, theme);
    const FigureSpec f = samples::communityGraph();
    ExportOptions o;
    o.dpi = 120;
    o.sizeInches = QSizeF(6, 4);
    o.theme = Theme::byName(theme);
    const QString path = m_dir.filePath(QStringLiteral("graph-%1.%2").arg(theme, format));
    QString error;
    QVERIFY2(FigureExporter::exportFile(f, path, o, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    if (format == QLatin1String("png")) {
        const QImage img = QImage::fromData(bytes, "PNG");
        QCOMPARE(img.size(), QSize(720, 480));
        QVERIFY(ScreenshotHelper::distinctColors(img) > 50);
        QCOMPARE(img.pixelColor(2, 2), o.theme.chartBackground);
    } else if (format == QLatin1String("svg")) {
        QVERIFY(QSvgRenderer(bytes).isValid());
        QVERIFY(bytes.count("<path") + bytes.count("<polyline") + bytes.count("<ellipse") > 24);
        QVERIFY(bytes.contains("player 4"));
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.size() > 2000);
    }
}

void TestGraphView::csvAndJson() {
    const FigureSpec f = samples::communityGraph();
    const QString csv = QString::fromUtf8(FigureExporter::exportCsv(f));
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines[0].startsWith(QLatin1String("element,index,id,label,group,x,y")));
    QCOMPARE(lines.size(), 1 + f.graph.nodes.size() + f.graph.edges.size());
    for (const QString& l : lines)
        QCOMPARE(l.count(QLatin1Char(',')), 14);
    const QVector<QPointF> pos = GraphLayoutProvider::compute(f.graph);
    QVERIFY(lines[1].contains(QStringLiteral(",p0,player 0,A,")));
    const QJsonObject json = QJsonDocument::fromJson(FigureExporter::exportJson(f)).object();
    const QJsonArray positions =
        json[QStringLiteral("graph")].toObject()[QStringLiteral("positions")].toArray();
    QCOMPARE(positions.size(), f.graph.nodes.size());
    QCOMPARE(positions[3].toArray()[0].toDouble(), pos[3].x());
    FigureSpec back;
    QString error;
    QVERIFY2(FigureSpecJson::fromJson(json, &back, &error), qPrintable(error));
    QVERIFY(back.kind == FigureKind::Graph);
    QCOMPARE(back.graph.nodes.size(), f.graph.nodes.size());
    QCOMPARE(back.graph.edges.size(), f.graph.edges.size());
    QCOMPARE(back.graph.edges[5].weight, f.graph.edges[5].weight);
    QCOMPARE(back.graph.edges[5].dashed, f.graph.edges[5].dashed);
    QCOMPARE(back.graph.legend.size(), 3);
    QCOMPARE(back.graph.layoutSeed, 7);
    QCOMPARE(FigureSpecJson::toJson(back), FigureSpecJson::toJson(f));
    // A bad edge is refused with a message.
    QJsonObject bad = json;
    QJsonObject g = bad[QStringLiteral("graph")].toObject();
    QJsonArray edges = g[QStringLiteral("edges")].toArray();
    QJsonObject e = edges[0].toObject();
    e[QStringLiteral("target")] = 999;
    edges[0] = e;
    g[QStringLiteral("edges")] = edges;
    bad[QStringLiteral("graph")] = g;
    QVERIFY(!FigureSpecJson::fromJson(bad, &back, &error));
    QVERIFY(error.contains(QLatin1String("999")));
}

void TestGraphView::emptyGraphPaintsMessage() {
    FigureSpec g;
    g.kind = FigureKind::Graph;
    QImage img(200, 100, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    QVERIFY(!FigureExporter::paint(g, &p, QRectF(0, 0, 200, 100), Theme::light()));
}

void TestGraphView::sceneDataWithoutOpenGL() {
    // Data exports of 3D figures never need OpenGL.
    for (const FigureSpec& f : {samples::spheresScene(20), samples::torusScene(), samples::tubesScene()}) {
        const QJsonObject json = FigureSpecJson::toJson(f);
        FigureSpec back;
        QString error;
        QVERIFY2(FigureSpecJson::fromJson(json, &back, &error), qPrintable(error));
        QCOMPARE(FigureSpecJson::toJson(back), json);
        const QStringList lines =
            QString::fromUtf8(FigureExporter::exportCsv(f)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QStringLiteral("item,kind,index,x,y,z,u,v,w,radius,value,label"));
        for (const QString& l : lines)
            QCOMPARE(l.count(QLatin1Char(',')), 11);
    }
    QCOMPARE(QString::fromUtf8(FigureExporter::exportCsv(samples::spheresScene(20)))
                 .count(QLatin1String(",sphere,")),
             20);
    // Without a registered renderer a 3D export fails with a message; a message scene does not.
    const auto saved = SceneRendererRegistry::hasRenderer();
    QVERIFY(saved);
    SceneRendererRegistry::setRenderFunction({});
    QString error;
    QVERIFY(!FigureExporter::exportFile(samples::spheresScene(20), m_dir.filePath(QStringLiteral("s.png")),
                                        {}, &error));
    QVERIFY2(error.contains(QLatin1String("registerVtkViews")), qPrintable(error));
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("s.png"))));
    FigureSpec msg = samples::spheresScene(20);
    msg.scene.message = QStringLiteral("load a three-player game");
    for (const char* fmt : {"png", "svg", "pdf"})
        QVERIFY(FigureExporter::exportFile(msg, m_dir.filePath(QStringLiteral("m.") + QLatin1String(fmt)), {},
                                           &error));
    registerVtkViews();
}

void TestGraphView::baselines_data() {
    QTest::addColumn<QString>("theme");
    QTest::newRow("light") << QStringLiteral("light");
    QTest::newRow("dark") << QStringLiteral("dark");
}

void TestGraphView::baselines() {
    QFETCH(QString, theme);
    const FigureSpec f = samples::communityGraph();
    GraphView view;
    view.setTheme(Theme::byName(theme));
    QVERIFY(showGraph(view, f));
    view.selectNode(0);
    QString message;
    QVERIFY2(ScreenshotHelper::matchesBaseline(ScreenshotHelper::grab(&view),
                                               baseline(QStringLiteral("graph-view-") + theme), &message),
             qPrintable(message));
    const QImage exported = FigureExporter::renderToImage(f, QSize(640, 420), 1.0, Theme::byName(theme));
    QVERIFY2(ScreenshotHelper::matchesBaseline(exported, baseline(QStringLiteral("graph-export-") + theme),
                                               &message),
             qPrintable(message));
}

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
