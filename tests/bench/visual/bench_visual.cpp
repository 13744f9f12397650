// Frame-time benchmark of the visual kit (one thread for painting; the graph layout is the
// function GraphView runs on its worker thread):
//  * graph with 2000 nodes and ~6000 edges: VTK force layout (fast 2D strategy), the built-in
//    spectral layout, GraphView's first frame (cold item caches), pan frames and zoom frames
//    (cached edge layer / nodes), and the export paint (GraphPainter) at 1280 x 800;
//  * 3D scene of 10 000 spheres: scene build + first frame, and camera-orbit frames, offscreen
//    at 1280 x 800 and in an on-screen VtkViewport (Xvfb + Mesa llvmpipe in CI).
// Prints one line per measurement and a JSON summary on the last line. --quick: fewer frames.

#include "SampleScenes.h"
#include "widgets/FigureExporter.h"
#include "widgets/GraphLayoutProvider.h"
#include "widgets/GraphPainter.h"
#include "widgets/GraphView.h"
#include "widgets/vtk/VtkGraphLayout.h"
#include "widgets/vtk/VtkOffscreenRenderer.h"
#include "widgets/vtk/VtkSceneView.h"
#include "widgets/vtk/VtkViewport.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QScrollBar>
#include <QSurfaceFormat>
#include <QTest>
#include <QTextStream>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace pl::gui;

namespace {

struct Stats {
    double median = 0, mean = 0, p95 = 0;
};

Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, size_t(std::ceil(v.size() * 0.95)) - 1)];
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean = sum / double(v.size());
    return s;
}

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}

void report(QJsonObject& json, const QString& name, const Stats& s) {
    out() << QStringLiteral("%1  median %2 ms  mean %3 ms  p95 %4 ms\n")
                 .arg(name, -46)
                 .arg(s.median, 8, 'f', 2)
                 .arg(s.mean, 8, 'f', 2)
                 .arg(s.p95, 8, 'f', 2);
    out().flush();
    json[name] = QJsonObject{{QStringLiteral("median_ms"), s.median},
                             {QStringLiteral("mean_ms"), s.mean},
                             {QStringLiteral("p95_ms"), s.p95}};
}

Stats time(int n, const std::function<void(int)>& f) {
    std::vector<double> ms;
    for (int i = 0; i < n; ++i) {
        QElapsedTimer t;
        t.start();
        f(i);
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    return stats(ms);
}

/// One frame of a QGraphicsView, painted into an image the size of its viewport (what the
/// backing store would receive).
void paintView(QGraphicsView& view, QImage& target) {
    QPainter p(&target);
    view.viewport()->render(&p);
}

void graphBench(QJsonObject& json, bool quick) {
    const FigureSpec f = samples::randomGraph(2000, 9);
    out()
        << QStringLiteral("graph: %1 nodes, %2 edges\n").arg(f.graph.nodes.size()).arg(f.graph.edges.size());
    report(json, QStringLiteral("graph layout (VTK fast 2D, 2000 nodes)"),
           time(quick ? 1 : 3, [&](int) { computeLayout(f.graph, 1); }));
    GraphSpec spectral = f.graph;
    spectral.layout = GraphLayout::Spectral;
    report(json, QStringLiteral("graph layout (built-in spectral, 2000 nodes)"),
           time(quick ? 1 : 3, [&](int) { GraphLayoutProvider::computeBuiltIn(spectral); }));

    GraphView view;
    view.resize(1280, 800);
    view.setSpec(f.graph, f.title);
    view.show();
    if (!QTest::qWaitFor([&] { return !view.isLayoutPending(); }, 60000))
        out() << "graph layout did not finish\n";
    QImage frame(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    report(json, QStringLiteral("graph view first frame (cold caches)"),
           time(1, [&](int) { paintView(view, frame); }));
    const int frames = quick ? 10 : 40;
    report(json, QStringLiteral("graph view pan frame (cached)"), time(frames, [&](int i) {
               view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->value() + (i % 2 ? 7 : -7));
               paintView(view, frame);
           }));
    report(json, QStringLiteral("graph view zoom frame (aliased while zooming)"), time(frames, [&](int i) {
               view.zoomBy(i % 2 ? 1.0 / 1.1 : 1.1);
               paintView(view, frame);
           }));
    QTest::qWait(200); // the view settles: one antialiased frame
    report(json, QStringLiteral("graph view settle frame (antialiased)"), time(1, [&](int) { paintView(view, frame); }));
    report(json, QStringLiteral("graph view restyle (no relayout) + frame"), time(quick ? 3 : 10, [&](int i) {
               GraphSpec g = f.graph;
               g.colormap = i % 2 ? QStringLiteral("magma") : QStringLiteral("viridis");
               view.setSpec(g, f.title);
               paintView(view, frame);
           }));
    QImage exportImg(1280, 800, QImage::Format_ARGB32_Premultiplied);
    report(json, QStringLiteral("graph export paint 1280x800 (layout cached)"),
           time(quick ? 3 : 10, [&](int) {
               exportImg.fill(Qt::white);
               QPainter p(&exportImg);
               FigureExporter::paint(f, &p, QRectF(0, 0, 1280, 800), Theme::light());
           }));
}

void sceneBench(QJsonObject& json, bool quick) {
    QString why;
    if (!VtkOffscreenRenderer::isAvailable(&why)) {
        out() << QStringLiteral("3D: skipped (%1)\n").arg(why);
        return;
    }
    const FigureSpec f = samples::spheresScene(10000);
    const int frames = quick ? 10 : 30;
    VtkOffscreenRenderer r;
    report(json, QStringLiteral("3D offscreen 10k spheres: build + first frame"),
           time(1, [&](int) { r.render(f.scene, QSize(1280, 800), Theme::light(), &why); }));
    report(json, QStringLiteral("3D offscreen 10k spheres: orbit frame"), time(frames, [&](int) {
               r.renderer()->GetActiveCamera()->Azimuth(3);
               r.renderAgain(&why);
           }));

    VtkSceneView view;
    view.setTheme(Theme::light());
    view.resize(1280, 800);
    view.setScene(f.scene, QString());
    QElapsedTimer t;
    t.start();
    view.show();
    if (!QTest::qWaitForWindowExposed(&view) || !view.viewport() ||
        !QTest::qWaitFor([&] { return view.viewport()->renderCount() > 0; }, 30000)) {
        out() << "3D viewport: skipped (no OpenGL widget on this platform)\n";
        return;
    }
    report(json, QStringLiteral("3D viewport 10k spheres: show + first frame"),
           stats({double(t.nsecsElapsed()) / 1e6}));
    VtkViewport* vp = view.viewport();
    auto orbit = [&](int) {
        vp->renderer()->GetActiveCamera()->Azimuth(3);
        vp->requestRender();
        vp->repaint();
        QCoreApplication::processEvents();
    };
    report(json, QStringLiteral("3D viewport 10k spheres: orbit frame (full)"), time(frames, orbit));
    // While a mouse button is down the view draws coarse spheres (interaction level of detail).
    const QPoint c(vp->width() / 2, vp->height() / 2);
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, c);
    report(json, QStringLiteral("3D viewport 10k spheres: orbit frame (dragging)"), time(frames, orbit));
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, c);
}

} // namespace

int main(int argc, char** argv) {
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QSurfaceFormat::setDefaultFormat(vtkSurfaceFormat());
    // The viewport needs a platform with OpenGL widgets: xcb whenever there is a display.
    qputenv("QT_QPA_PLATFORM", qEnvironmentVariableIsEmpty("DISPLAY") ? "offscreen" : "xcb");
    QApplication app(argc, argv);
    registerVtkViews();
    const bool quick = app.arguments().contains(QStringLiteral("--quick"));
    QJsonObject json;
    graphBench(json, quick);
    sceneBench(json, quick);
    out() << QJsonDocument(json).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}
