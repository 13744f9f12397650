// VtkViewport / VtkSceneView under X (Xvfb): renders a scene that is not blank and has the theme's
// background, mouse and wheel move the camera, key r resets it, clicks pick spheres, the context
// survives re-creation (reparenting), FigureView shows 3D figures, and screenshots of the viewport
// match the baselines in tests/baselines (light and dark).

#include "GlTestMain.h"
#include "SampleScenes.h"
#include "widgets/FigureView.h"
#include "widgets/ScreenshotHelper.h"
#include "widgets/vtk/SceneBuilder.h"
#include "widgets/vtk/VtkOffscreenRenderer.h"
#include "widgets/vtk/VtkSceneView.h"
#include "widgets/vtk/VtkViewport.h"

#include <QSignalSpy>
#include <QVBoxLayout>

#include <vtkCamera.h>
#include <vtkRenderer.h>

using namespace pl::gui;

Q_DECLARE_METATYPE(pl::gui::FigureSpec)

namespace {

QString baseline(const QString& name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/baselines/%1.png").arg(name);
}

/// Shows a scene view at a fixed size and waits for VTK's first frame.
bool showAndRender(VtkSceneView& view) {
    view.resize(480, 360);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return false;
    return QTest::qWaitFor([&] { return view.viewport()->renderCount() > 0; }, 5000);
}

QColor corner(const QImage& img) {
    return img.pixelColor(3, img.height() - 4);
}

bool near(const QColor& a, const QColor& b, int tol = 3) {
    return std::abs(a.red() - b.red()) <= tol && std::abs(a.green() - b.green()) <= tol &&
           std::abs(a.blue() - b.blue()) <= tol;
}

FigureSpec bigSpheres() {
    FigureSpec f;
    f.kind = FigureKind::Scene3D;
    SphereSetSpec s;
    s.style.name = QStringLiteral("players");
    s.centers = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1)};
    s.radius = 0.2;
    s.values = {1, 2, 3};
    s.labels = {QStringLiteral("origin"), QStringLiteral("x"), QStringLiteral("z")};
    f.scene.spheres << s;
    return f;
}

/// Widget position (logical px) of a world point in the view's viewport.
QPoint project(VtkSceneView& view, const Vec3& p) {
    vtkRenderer* r = view.viewport()->renderer();
    r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
    r->WorldToDisplay();
    double d[3];
    r->GetDisplayPoint(d);
    const double dpr = view.viewport()->pixelRatio();
    const double hDev = std::max(1, qRound(view.viewport()->height() * dpr));
    return QPoint(qRound(d[0] / dpr), qRound((hDev - 1 - d[1]) / dpr));
}

} // namespace

class TestVtkViewport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void rendersScene();
    void darkTheme();
    void mouseRotatesWheelZoomsKeyResets();
    void pickingSpheres();
    void survivesContextRecreation();
    void figureViewShows3D();
    void baselines_data();
    void baselines();
};

void TestVtkViewport::initTestCase() {
    QString why;
    if (!VtkOffscreenRenderer::isAvailable(&why))
        QSKIP(qPrintable(why));
    if (!VtkSceneView().isInteractive())
        QSKIP("this Qt platform cannot show OpenGL widgets (use xcb)");
}

void TestVtkViewport::rendersScene() {
    VtkSceneView view;
    view.setTheme(Theme::light());
    view.setScene(samples::spheresScene(300).scene, QStringLiteral("spheres"));
    QVERIFY(showAndRender(view));
    QVERIFY(view.viewport()->isReady());
    const QImage img = view.grabScene();
    QVERIFY(!img.isNull());
    QCOMPARE(img.size(), QSize(480, view.viewport()->height()) * view.viewport()->pixelRatio());
    QVERIFY2(ScreenshotHelper::distinctColors(img) > 100, "the viewport looks blank");
    QVERIFY(near(corner(img), Theme::light().chartBackground));
    QVERIFY(
        !near(img.pixelColor(img.width() / 2 - 60, img.height() / 2), Theme::light().chartBackground, 10) ||
        !near(img.pixelColor(img.width() / 2, img.height() / 2), Theme::light().chartBackground, 10));
    // The widget grab (what the window shows) carries the same pixels: alpha was forced to 1.
    const QImage widget = view.viewport()->grab().toImage();
    QVERIFY(ScreenshotHelper::distinctColors(widget) > 100);
}

void TestVtkViewport::darkTheme() {
    VtkSceneView view;
    view.setTheme(Theme::dark());
    view.setScene(samples::torusScene().scene, QString());
    QVERIFY(showAndRender(view));
    const QImage img = view.grabScene();
    if (qEnvironmentVariableIsSet("PAPERLAB_GL_DUMP")) {
        img.save(QStringLiteral("/tmp/vis-dark-grabscene.png"));
        view.grab().save(QStringLiteral("/tmp/vis-dark-grab.png"));
        qDebug() << "corner" << corner(img) << "dpr" << view.viewport()->pixelRatio() << img.size()
                 << img.format();
    }
    QVERIFY(near(corner(img), Theme::dark().chartBackground));
    QVERIFY(ScreenshotHelper::distinctColors(img) > 100);
}

void TestVtkViewport::mouseRotatesWheelZoomsKeyResets() {
    VtkSceneView view;
    view.setTheme(Theme::light());
    view.setScene(samples::tubesScene().scene, QString());
    QVERIFY(showAndRender(view));
    VtkViewport* vp = view.viewport();
    vtkCamera* cam = vp->renderer()->GetActiveCamera();
    double p0[3], p1[3];
    cam->GetPosition(p0);
    const double d0 = cam->GetDistance();
    const int renders = vp->renderCount();

    const QPoint c(vp->width() / 2, vp->height() / 2);
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, c);
    QVERIFY(vp->isInteracting());
    QVERIFY(view.builder().isInteractive()); // coarse spheres while dragging
    for (int i = 1; i <= 8; ++i) {
        QMouseEvent move(QEvent::MouseMove, QPointF(c + QPoint(10 * i, 4 * i)), vp->mapToGlobal(QPointF(c)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(vp, &move);
    }
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, c + QPoint(80, 32));
    QVERIFY(!vp->isInteracting());
    QVERIFY(!view.builder().isInteractive());
    cam->GetPosition(p1);
    QVERIFY2(std::hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]) > 1e-3, "drag did not rotate");
    QTRY_VERIFY(vp->renderCount() > renders);

    QWheelEvent wheel(QPointF(c), vp->mapToGlobal(QPointF(c)), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(vp, &wheel);
    QVERIFY2(cam->GetDistance() < d0 * 0.98, "wheel did not zoom in");

    vp->setFocus();
    QTest::keyClick(vp, Qt::Key_R);
    double p2[3];
    cam->GetPosition(p2);
    QVERIFY(std::hypot(p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]) < 1e-6 * std::max(1.0, d0));
}

void TestVtkViewport::pickingSpheres() {
    VtkSceneView view;
    view.setTheme(Theme::light());
    const FigureSpec f = bigSpheres();
    view.setScene(f.scene, QString());
    QVERIFY(showAndRender(view));
    QSignalSpy picked(&view, &AbstractSceneView::picked);
    QSignalSpy text(&view, &AbstractSceneView::hoverTextChanged);
    for (int i = 0; i < 3; ++i) {
        const QPoint at = project(view, f.scene.spheres[0].centers[i]);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(picked.size(), i + 1);
        QCOMPARE(picked.last().at(1).toInt(), i);
        QVERIFY(picked.last().at(0).toString().startsWith(QLatin1String("players")));
    }
    QVERIFY(text.last().at(0).toString().contains(QLatin1String("value 3")));
    // Empty space: no pick, empty read-out.
    QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(4, 4));
    QCOMPARE(picked.size(), 3);
    QVERIFY(text.last().at(0).toString().isEmpty());
    // Picking a tube and a torus goes through the cell picker.
    const FigureSpec tubes = samples::tubesScene();
    view.setScene(tubes.scene, QString());
    QTest::qWait(50);
    const Vec3 onTube = tubes.scene.polylines[0].points[150];
    const ScenePick p = view.pickAt(view.viewport()->mapTo(&view, project(view, onTube)));
    QVERIFY2(p.hit, "tube not picked");
    QCOMPARE(p.kind, QStringLiteral("polyline"));
    QVERIFY(std::abs(p.element - 150) <= 3);
}

void TestVtkViewport::survivesContextRecreation() {
    QWidget a, b;
    auto* la = new QVBoxLayout(&a);
    new QVBoxLayout(&b);
    auto* view = new VtkSceneView;
    view->setTheme(Theme::light());
    view->setScene(samples::spheresScene(50).scene, QString());
    la->addWidget(view);
    a.resize(400, 300);
    a.show();
    QVERIFY(QTest::qWaitForWindowExposed(&a));
    QTRY_VERIFY(view->viewport()->renderCount() > 0);
    // Moving the widget to another top-level window destroys and re-creates its GL context.
    b.layout()->addWidget(view);
    b.resize(400, 300);
    b.show();
    QVERIFY(QTest::qWaitForWindowExposed(&b));
    view->viewport()->requestRender();
    QTRY_VERIFY(view->viewport()->isReady());
    const QImage img = view->grabScene();
    QVERIFY(ScreenshotHelper::distinctColors(img) > 30);
}

void TestVtkViewport::figureViewShows3D() {
    FigureView fv;
    fv.resize(500, 400);
    FigureSpec f = samples::spheresScene(100);
    fv.setSpec(f);
    QVERIFY(fv.sceneView() != nullptr);
    fv.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fv));
    auto* sv = qobject_cast<VtkSceneView*>(fv.sceneView());
    QVERIFY(sv);
    QTRY_VERIFY(sv->viewport()->renderCount() > 0);
    QVERIFY(ScreenshotHelper::distinctColors(sv->grabScene()) > 50);
    // A scene with a message shows the text, not the viewport.
    f.scene.message = QStringLiteral("needs a three-player game");
    fv.setSpec(f);
    QVERIFY(sv->grabScene().isNull());
    // The snapshot goes through the export path (offscreen renderer).
    f.scene.message.clear();
    fv.setSpec(f);
    QVERIFY(ScreenshotHelper::distinctColors(fv.snapshot()) > 50);
}

void TestVtkViewport::baselines_data() {
    QTest::addColumn<FigureSpec>("spec");
    QTest::addColumn<QString>("theme");
    for (const QString& theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
        QTest::newRow(qPrintable(QStringLiteral("spheres-") + theme)) << samples::spheresScene(400) << theme;
        QTest::newRow(qPrintable(QStringLiteral("torus-") + theme)) << samples::torusScene() << theme;
        QTest::newRow(qPrintable(QStringLiteral("tubes-") + theme)) << samples::tubesScene() << theme;
    }
}

void TestVtkViewport::baselines() {
    QFETCH(FigureSpec, spec);
    QFETCH(QString, theme);
    VtkSceneView view;
    view.setTheme(Theme::byName(theme));
    view.setScene(spec.scene, QString());
    QVERIFY(showAndRender(view));
    const QImage img = view.grabScene().convertToFormat(QImage::Format_ARGB32);
    QString message;
    // llvmpipe is deterministic; the tolerance absorbs Mesa version differences in shading.
    const bool ok = ScreenshotHelper::matchesBaseline(
        img, baseline(QStringLiteral("vtk-viewport-%1-%2").arg(spec.id, theme)), &message, 12, 0.01);
    QVERIFY2(ok, qPrintable(message));
}

PAPERLAB_GL_TEST_MAIN(TestVtkViewport)
#include "tst_vtkviewport.moc"
