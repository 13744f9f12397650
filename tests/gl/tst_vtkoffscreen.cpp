// VtkOffscreenRenderer and 3D exports under X (Xvfb): spheres, torus and tubes render to images
// that are not blank, have the theme's background and match the baselines (light and dark);
// 10 000 spheres render; PNG (any DPI), SVG and PDF exports of a 3D figure embed the image; and
// without an X server an export fails with "needs an X server" instead of crashing.

#include "GlTestMain.h"
#include "SampleScenes.h"
#include "widgets/FigureExporter.h"
#include "widgets/ScreenshotHelper.h"
#include "widgets/vtk/VtkOffscreenRenderer.h"

#include <QFile>
#include <QProcess>
#include <QSvgRenderer>
#include <QTemporaryDir>

using namespace pl::gui;

Q_DECLARE_METATYPE(pl::gui::FigureSpec)

namespace {

QString baseline(const QString& name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/baselines/%1.png").arg(name);
}

} // namespace

class TestVtkOffscreen : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void scenes_data();
    void scenes();
    void tenThousandSpheres();
    void rerenderAndResize();
    void exportFormats_data();
    void exportFormats();
    void pngHonoursDpi();
    void noXServerFailsCleanly();

private:
    QTemporaryDir m_dir;
};

void TestVtkOffscreen::initTestCase() {
    QVERIFY(m_dir.isValid());
    QString why;
    if (!VtkOffscreenRenderer::isAvailable(&why))
        QSKIP(qPrintable(why));
}

void TestVtkOffscreen::scenes_data() {
    QTest::addColumn<FigureSpec>("spec");
    QTest::addColumn<QString>("theme");
    for (const QString& theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
        QTest::newRow(qPrintable(QStringLiteral("spheres-") + theme)) << samples::spheresScene(400) << theme;
        QTest::newRow(qPrintable(QStringLiteral("torus-") + theme)) << samples::torusScene() << theme;
        QTest::newRow(qPrintable(QStringLiteral("tubes-") + theme)) << samples::tubesScene() << theme;
    }
}

void TestVtkOffscreen::scenes() {
    QFETCH(FigureSpec, spec);
    QFETCH(QString, theme);
    const Theme t = Theme::byName(theme);
    QString error;
    const QImage img = VtkOffscreenRenderer::shared().render(spec.scene, QSize(560, 400), t, &error);
    QVERIFY2(!img.isNull(), qPrintable(error));
    QCOMPARE(img.size(), QSize(560, 400));
    QVERIFY2(ScreenshotHelper::distinctColors(img) > 200, "the image looks blank");
    QCOMPARE(img.pixelColor(2, 2), t.chartBackground);                // top-left: background
    QCOMPARE(img.pixelColor(2, img.height() - 3), t.chartBackground); // flipped correctly: also
    QString message;
    QVERIFY2(
        ScreenshotHelper::matchesBaseline(
            img, baseline(QStringLiteral("vtk-offscreen-%1-%2").arg(spec.id, theme)), &message, 12, 0.01),
        qPrintable(message));
}

void TestVtkOffscreen::tenThousandSpheres() {
    QString error;
    const QImage img = VtkOffscreenRenderer::shared().render(samples::spheresScene(10000).scene,
                                                             QSize(640, 480), Theme::light(), &error);
    QVERIFY2(!img.isNull(), qPrintable(error));
    QVERIFY(ScreenshotHelper::distinctColors(img) > 500);
}

void TestVtkOffscreen::rerenderAndResize() {
    VtkOffscreenRenderer r;
    QString error;
    const QImage a = r.render(samples::tubesScene().scene, QSize(300, 200), Theme::light(), &error);
    QVERIFY2(!a.isNull(), qPrintable(error));
    const QImage b = r.renderAgain(&error);
    QCOMPARE(ScreenshotHelper::compare(a, b, 0).differingFraction, 0.0); // deterministic
    const QImage c = r.render(samples::tubesScene().scene, QSize(900, 600), Theme::light(), &error);
    QCOMPARE(c.size(), QSize(900, 600));
    QVERIFY(r.render(samples::tubesScene().scene, QSize(9000, 10), Theme::light(), &error).isNull());
    QVERIFY(error.contains(QLatin1String("8192")));
}

void TestVtkOffscreen::exportFormats_data() {
    QTest::addColumn<QString>("format");
    QTest::newRow("png") << QStringLiteral("png");
    QTest::newRow("svg") << QStringLiteral("svg");
    QTest::newRow("pdf") << QStringLiteral("pdf");
}

void TestVtkOffscreen::exportFormats() {
    QFETCH(QString, format);
    const FigureSpec f = samples::torusScene();
    ExportOptions o;
    o.dpi = 100;
    o.sizeInches = QSizeF(5, 4);
    const QString path = m_dir.filePath(QStringLiteral("torus.") + format);
    QString error;
    QVERIFY2(FigureExporter::exportFile(f, path, o, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    if (format == QLatin1String("png")) {
        const QImage img = QImage::fromData(bytes, "PNG");
        QCOMPARE(img.size(), QSize(500, 400));
        QVERIFY(ScreenshotHelper::distinctColors(img) > 300);
    } else if (format == QLatin1String("svg")) {
        QVERIFY(QSvgRenderer(bytes).isValid());
        QVERIFY(bytes.contains("<image"));                           // the scene, as an image
        QVERIFY(bytes.contains("Conditional density on the torus")); // the title, as text
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.size() > 20000); // carries the image
    }
}

void TestVtkOffscreen::pngHonoursDpi() {
    ExportOptions o;
    o.sizeInches = QSizeF(3, 2);
    o.dpi = 300;
    const QByteArray png = FigureExporter::render(samples::spheresScene(200), QStringLiteral("png"), o);
    const QImage img = QImage::fromData(png, "PNG");
    QCOMPARE(img.size(), QSize(900, 600));
    QCOMPARE(img.dotsPerMeterX(), qRound(300 / 0.0254));
    QVERIFY(ScreenshotHelper::distinctColors(img) > 300);
}

void TestVtkOffscreen::noXServerFailsCleanly() {
    // A child process of this test without DISPLAY (Qt's offscreen platform): the export must fail
    // with exit code 5 and the X server hint, and leave no file.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    const QString out = m_dir.filePath(QStringLiteral("nox.png"));
    p.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--export-3d"), out});
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 5);
    QVERIFY2(err.contains(QLatin1String("X server")) && err.contains(QLatin1String("xvfb-run -a")),
             qPrintable(err));
    QVERIFY(!QFile::exists(out));
}

/// Child mode of noXServerFailsCleanly: export a 3D figure, report like `paperlab figure`.
static int exportChild(const QString& path) {
    QString error;
    if (FigureExporter::exportFile(samples::spheresScene(50), path, {}, &error))
        return 0;
    fprintf(stderr, "paperlab: error: %s\n", qPrintable(error));
    return 5;
}

int main(int argc, char** argv) {
    // The child of noXServerFailsCleanly keeps the offscreen platform it was given.
    if (!(argc == 3 && qstrcmp(argv[1], "--export-3d") == 0))
        paperlabChooseGlPlatform();
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QSurfaceFormat::setDefaultFormat(pl::gui::vtkSurfaceFormat());
    QApplication app(argc, argv);
    pl::gui::registerVtkViews();
    if (argc == 3 && qstrcmp(argv[1], "--export-3d") == 0)
        return exportChild(QString::fromLocal8Bit(argv[2]));
    TestVtkOffscreen t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "tst_vtkoffscreen.moc"
