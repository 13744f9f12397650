// The ftrl-potential-games "cube3d" figure end to end: the engine runs on a 2x2x2 three-player
// game (FTRL and fictitious play), the plugin builds the 3D figure, the offscreen renderer and the
// on-screen view draw it (baselines in tests/baselines, light and dark), and a two-player run
// gives a figure that explains what is needed and exports without OpenGL.

#include "GlTestMain.h"
#include "core/RunContext.h"
#include "games/FtrlPotentialEngine.h"
#include "sdk/PanelDefinition.h"
#include "widgets/FigureExporter.h"
#include "widgets/FigureView.h"
#include "widgets/ScreenshotHelper.h"
#include "widgets/vtk/VtkOffscreenRenderer.h"
#include "widgets/vtk/VtkSceneView.h"
#include "widgets/vtk/VtkViewport.h"

#include <QTemporaryDir>

using namespace pl::gui;

namespace pl::ftrl {
/// The panel's definition (plugins/ftrl-potential-games/FtrlFigures.cpp, linked through its _impl).
const pl::PanelDefinition& panel();
} // namespace pl::ftrl

namespace {

const char* kGame = PAPERLAB_SOURCE_DIR "/tests/gl/data/three_player_potential.nfg";

QString baseline(const QString& name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/baselines/%1.png").arg(name);
}

pl::ResultDocument run(const std::string& dynamics, bool threePlayers, const char* start = "first_pure") {
    pl::games::FtrlPotentialEngine e;
    pl::ParamSet ps(e.params());
    ps.setText("dynamics", dynamics);
    ps.setText("start", start);
    ps.setText("max_steps", "20000");
    pl::InputList in;
    if (threePlayers)
        in.push_back(e.load(kGame));
    pl::RunContext ctx(42);
    return pl::runEngine(e, in, ps, ctx);
}

bool glAvailable(QString* why) {
    return VtkOffscreenRenderer::isAvailable(why);
}

} // namespace

class TestFtrlCube3d : public QObject {
    Q_OBJECT
private slots:
    void twoPlayerGameExplains();
    void threePlayerCube_data();
    void threePlayerCube();
    void viewAndBaselines_data();
    void viewAndBaselines();
};

void TestFtrlCube3d::twoPlayerGameExplains() {
    const pl::ResultDocument d = run("ftrl_entropic", false);
    const FigureSpec f = pl::ftrl::panel().build(QStringLiteral("cube3d"), d);
    QVERIFY(f.kind == FigureKind::Scene3D);
    QVERIFY(f.scene.message.contains(QLatin1String("three-player")));
    // No OpenGL needed for the explanation: this also works without an X server.
    QTemporaryDir dir;
    QString error;
    QVERIFY2(FigureExporter::exportFile(f, dir.filePath(QStringLiteral("c.png")), {}, &error),
             qPrintable(error));
}

void TestFtrlCube3d::threePlayerCube_data() {
    QTest::addColumn<QString>("dynamics");
    QTest::newRow("ftrl") << QStringLiteral("ftrl_entropic");
    QTest::newRow("fp") << QStringLiteral("fictitious_play");
}

void TestFtrlCube3d::threePlayerCube() {
    QFETCH(QString, dynamics);
    const pl::ResultDocument d = run(dynamics.toStdString(), true);
    const FigureSpec f = pl::ftrl::panel().build(QStringLiteral("cube3d"), d);
    QVERIFY2(f.scene.message.isEmpty(), qPrintable(f.scene.message));
    QCOMPARE(f.scene.spheres.size(), 2); // corners, start and end
    QCOMPARE(f.scene.spheres[0].centers.size(), 8);
    QCOMPARE(f.scene.spheres[0].values[7], 5.0); // (2,2,2): the common payoff 5
    QCOMPARE(f.scene.surfaces[0].triangles.size(), 36);
    const PolylineSpec& traj = f.scene.polylines.last();
    QVERIFY(traj.points.size() >= 10);
    QVERIFY(traj.style.name.contains(dynamics));
    for (const Vec3& p : traj.points)
        QVERIFY(p.x() >= -1e-6f && p.x() <= 1.000001f && p.y() >= -1e-6f && p.z() <= 1.000001f);
    // The play ends at the best profile (2,2,2), i.e. P(strategy 1) = 0 for everyone.
    QVERIFY(traj.points.last().length() < 0.05f);
    QString why;
    if (!glAvailable(&why))
        QSKIP(qPrintable(why));
    ExportOptions o;
    o.dpi = 150;
    o.sizeInches = QSizeF(6, 4.5);
    const QImage img = QImage::fromData(FigureExporter::render(f, QStringLiteral("png"), o, &why), "PNG");
    QVERIFY2(!img.isNull(), qPrintable(why));
    QVERIFY(ScreenshotHelper::distinctColors(img) > 500);
}

void TestFtrlCube3d::viewAndBaselines_data() {
    QTest::addColumn<QString>("theme");
    QTest::newRow("light") << QStringLiteral("light");
    QTest::newRow("dark") << QStringLiteral("dark");
}

void TestFtrlCube3d::viewAndBaselines() {
    QFETCH(QString, theme);
    QString why;
    if (!glAvailable(&why))
        QSKIP(qPrintable(why));
    // From the uniform profile (the centre of the cube) the path crosses the inside.
    const FigureSpec f =
        pl::ftrl::panel().build(QStringLiteral("cube3d"), run("ftrl_entropic", true, "uniform"));
    const Theme t = Theme::byName(theme);
    // The export picture.
    const QImage exported = FigureExporter::renderToImage(f, QSize(640, 480), 1.0, t);
    QString message;
    QVERIFY2(ScreenshotHelper::matchesBaseline(
                 exported, baseline(QStringLiteral("ftrl-cube3d-export-") + theme), &message, 12, 0.01),
             qPrintable(message));
    // The on-screen view inside a FigureView.
    FigureView fv;
    fv.resize(640, 520);
    fv.setSpec(f);
    auto* sv = qobject_cast<VtkSceneView*>(fv.sceneView());
    QVERIFY(sv);
    sv->setTheme(t);
    fv.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fv));
    if (!sv->isInteractive()) { // offscreen platform: a static image from the offscreen renderer
        QTRY_VERIFY(ScreenshotHelper::distinctColors(sv->grabScene()) > 300);
        QSKIP("this Qt platform cannot show OpenGL widgets; the view shows a static image");
    }
    QTRY_VERIFY(sv->viewport()->renderCount() > 0);
    const QImage view = sv->grabScene().convertToFormat(QImage::Format_ARGB32);
    QVERIFY(ScreenshotHelper::distinctColors(view) > 300);
    QVERIFY2(ScreenshotHelper::matchesBaseline(view, baseline(QStringLiteral("ftrl-cube3d-view-") + theme),
                                               &message, 12, 0.01),
             qPrintable(message));
}

PAPERLAB_GL_TEST_MAIN(TestFtrlCube3d)
#include "tst_ftrl_cube3d.moc"
