// FigureExporter: PNG (DPI metadata, not blank), SVG (valid, non-empty), PDF (header, size)
// for charts and heatmaps; CSV and JSON content; atomic writes; FigureSpecJson round trip.

#include "SampleFigures.h"
#include "sdk/figure/FigureSpecJson.h"
#include "widgets/FigureExporter.h"
#include "widgets/ScreenshotHelper.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pl::gui;

Q_DECLARE_METATYPE(pl::gui::FigureSpec)

class TestFigureExporter : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void png_data();
    void png();
    void svg_data();
    void svg();
    void pdf_data();
    void pdf();
    void darkThemeDiffers();
    void messageReplacesTheFigure();
    void renderToImageHonoursDpr();
    void unsupportedKinds();
    void csvChart();
    void csvHeatmap();
    void jsonRoundTrip();
    void jsonRejectsBadInput();
    void atomicWriteFailsCleanly();
    void atomicWriteReplacesWholeFile();
    void badOptionsAndFormats();
    void screenshotCompare();

private:
    QTemporaryDir m_dir;
};

static void addFigures() {
    QTest::addColumn<FigureSpec>("spec");
    QTest::newRow("chart-log") << samples::convergenceChart();
    QTest::newRow("chart-scatter") << samples::scatterChart();
    QTest::newRow("chart-bars") << samples::barChart();
    QTest::newRow("heatmap") << samples::payoffHeatmap();
    QTest::newRow("heatmap-large") << samples::bigHeatmap(300);
}

void TestFigureExporter::initTestCase() {
    QVERIFY(m_dir.isValid());
}

void TestFigureExporter::png_data() {
    addFigures();
}

void TestFigureExporter::png() {
    QFETCH(FigureSpec, spec);
    const QString path = m_dir.filePath(spec.id + QStringLiteral(".png"));
    ExportOptions o;
    o.dpi = 150;
    o.sizeInches = QSizeF(6, 4);
    QString error;
    QVERIFY2(FigureExporter::exportFile(spec, path, o, &error), qPrintable(error));
    QImageReader reader(path);
    QCOMPARE(reader.format(), QByteArray("png"));
    const QImage img = reader.read();
    QCOMPARE(img.size(), QSize(900, 600));
    QCOMPARE(img.dotsPerMeterX(), qRound(150 / 0.0254));
    QCOMPARE(img.dotsPerMeterY(), qRound(150 / 0.0254));
    // Not blank: text, lines and colour maps give many colours.
    QVERIFY2(ScreenshotHelper::distinctColors(img) > 50,
             qPrintable(QString::number(ScreenshotHelper::distinctColors(img))));
    // Background is the light theme's.
    QCOMPARE(QColor(img.pixel(2, 2)), Theme::light().chartBackground);
}

void TestFigureExporter::svg_data() {
    addFigures();
    // Markup characters in the title and caption: the SVG must stay well-formed XML.
    FigureSpec markup = samples::convergenceChart();
    markup.id = QStringLiteral("markup");
    markup.title = QStringLiteral("R_p for p < 0 & p > 1");
    markup.caption = QStringLiteral("FairLin <= 1.3 x LinUCB & \"oracle\" <best>");
    QTest::newRow("markup-in-text") << markup;
}

void TestFigureExporter::svg() {
    QFETCH(FigureSpec, spec);
    const QString path = m_dir.filePath(spec.id + QStringLiteral(".svg"));
    QString error;
    QVERIFY2(FigureExporter::exportFile(spec, path, {}, &error), qPrintable(error));
    QSvgRenderer renderer(path);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBoxF(), QRectF(0, 0, 7 * 96, 4.5 * 96));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    QVERIFY(svg.size() > 2000);
    // Text stays text (title element and drawn title), escaped as XML.
    QVERIFY(svg.contains(spec.title.toHtmlEscaped().toUtf8()));
    // Rasterise the SVG: it must draw something.
    QImage img(672, 432, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    renderer.render(&p);
    p.end();
    QVERIFY(ScreenshotHelper::distinctColors(img) > 20);
}

void TestFigureExporter::pdf_data() {
    addFigures();
}

void TestFigureExporter::pdf() {
    QFETCH(FigureSpec, spec);
    const QString path = m_dir.filePath(spec.id + QStringLiteral(".pdf"));
    QString error;
    QVERIFY2(FigureExporter::exportFile(spec, path, {}, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pdf = f.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    QVERIFY2(pdf.size() > 5000, qPrintable(QString::number(pdf.size())));
    // Page size: 7 x 4.5 in = 504 x 324 pt.
    const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
    const QRegularExpressionMatch m = box.match(QString::fromLatin1(pdf));
    QVERIFY(m.hasMatch());
    QCOMPARE(m.captured(1).toDouble(), 504.0);
    QCOMPARE(m.captured(2).toDouble(), 324.0);
}

void TestFigureExporter::darkThemeDiffers() {
    const FigureSpec spec = samples::convergenceChart();
    const QImage light = FigureExporter::renderToImage(spec, QSize(400, 300), 1, Theme::light());
    const QImage dark = FigureExporter::renderToImage(spec, QSize(400, 300), 1, Theme::dark());
    QCOMPARE(QColor(light.pixel(1, 1)), Theme::light().chartBackground);
    QCOMPARE(QColor(dark.pixel(1, 1)), Theme::dark().chartBackground);
    // Same figure twice gives the same pixels (deterministic paint path).
    QCOMPARE(FigureExporter::renderToImage(spec, QSize(400, 300), 1, Theme::light()), light);
}

void TestFigureExporter::messageReplacesTheFigure() {
    // A figure with a message (e.g. one of another mode of the panel) paints title and text only,
    // for every kind, and keeps the message through JSON.
    for (FigureSpec f : {samples::convergenceChart(), samples::payoffHeatmap()}) {
        const QImage full = FigureExporter::renderToImage(f, QSize(400, 300), 1, Theme::light());
        f.message = QStringLiteral("This figure belongs to the other lab.");
        const QImage msg = FigureExporter::renderToImage(f, QSize(400, 300), 1, Theme::light());
        QVERIFY(msg != full);
        QVERIFY(ScreenshotHelper::distinctColors(msg) < ScreenshotHelper::distinctColors(full));
        FigureSpec back;
        QString error;
        QVERIFY(FigureSpecJson::fromJson(QJsonDocument::fromJson(FigureExporter::exportJson(f)).object(), &back,
                                         &error));
        QCOMPARE(back.message, f.message);
        QVERIFY(FigureExporter::exportFile(f, m_dir.filePath(QStringLiteral("msg.svg")), {}, &error));
    }
}

void TestFigureExporter::renderToImageHonoursDpr() {
    const QImage img =
        FigureExporter::renderToImage(samples::payoffHeatmap(), QSize(320, 200), 2.0, Theme::light());
    QCOMPARE(img.size(), QSize(640, 400));
    QCOMPARE(img.devicePixelRatio(), 2.0);
    QVERIFY(ScreenshotHelper::distinctColors(img) > 30);
    QVERIFY(FigureExporter::renderToImage(samples::payoffHeatmap(), QSize(), 1, Theme::light()).isNull());
}

void TestFigureExporter::unsupportedKinds() {
    FigureSpec g;
    g.kind = FigureKind::Graph;
    g.title = QStringLiteral("network");
    QImage img(200, 100, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    QVERIFY(!FigureExporter::paint(g, &p, QRectF(0, 0, 200, 100), Theme::light()));
    p.end();
    // Heatmap with inconsistent sizes: no crash, false.
    FigureSpec h = samples::payoffHeatmap();
    h.heatmap.values.removeLast();
    QPainter p2(&img);
    QVERIFY(!FigureExporter::paint(h, &p2, QRectF(0, 0, 200, 100), Theme::light()));
}

void TestFigureExporter::csvChart() {
    FigureSpec f;
    f.chart.xLabel = QStringLiteral("t");
    SeriesSpec a;
    a.name = QStringLiteral("loss, train");
    a.x = {0, 1, 2};
    a.y = {0.5, std::nan(""), 0.1};
    SeriesSpec b;
    b.name = QStringLiteral("val");
    b.x = {0};
    b.y = {1.0 / 3.0};
    f.chart.series = {a, b};
    const QString csv = QString::fromUtf8(FigureExporter::exportCsv(f));
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], QStringLiteral("series,x,y"));
    QCOMPARE(lines[1], QStringLiteral("\"loss, train\",0,0.5"));
    QCOMPARE(lines[2], QStringLiteral("\"loss, train\",1,NaN"));
    QCOMPARE(lines[4].section(QLatin1Char(','), 2).toDouble(), 1.0 / 3.0); // exact round trip
    const QString bars = QString::fromUtf8(FigureExporter::exportCsv(samples::barChart()));
    QVERIFY(bars.startsWith(QStringLiteral("series,category,x,y\n")));
    QVERIFY(bars.contains(QStringLiteral("ours,CIFAR-10,1,91.4")));
}

void TestFigureExporter::csvHeatmap() {
    const FigureSpec f = samples::payoffHeatmap(3, 4);
    const QString csv = QString::fromUtf8(FigureExporter::exportCsv(f));
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("row strategy \\ column strategy,s1,s2,s3,s4"));
    QVERIFY(lines[1].startsWith(QStringLiteral("strategy 1,")));
    QCOMPARE(lines[2].split(QLatin1Char(',')).size(), 5);
    QCOMPARE(lines[2].split(QLatin1Char(','))[1].toDouble(), f.heatmap.values[4]);
    QVERIFY(lines[3].contains(QStringLiteral("NaN")) == std::isnan(f.heatmap.values[2 * 4 + 3]));
}

void TestFigureExporter::jsonRoundTrip() {
    for (const FigureSpec& f : {samples::convergenceChart(), samples::payoffHeatmap(), samples::barChart()}) {
        const QByteArray bytes = FigureExporter::exportJson(f);
        const QJsonDocument doc = QJsonDocument::fromJson(bytes);
        QVERIFY(doc.isObject());
        QCOMPARE(doc.object().value(QStringLiteral("format")).toString(), FigureSpecJson::formatTag());
        QCOMPARE(doc.object().value(QStringLiteral("title")).toString(), f.title);
        FigureSpec back;
        QString error;
        QVERIFY2(FigureSpecJson::fromJson(doc.object(), &back, &error), qPrintable(error));
        QVERIFY(back.kind == f.kind);
        QCOMPARE(back.id, f.id);
        QCOMPARE(FigureExporter::exportJson(back), bytes); // lossless, NaN included
    }
    const QJsonObject o =
        QJsonDocument::fromJson(FigureExporter::exportJson(samples::convergenceChart())).object();
    const QJsonArray y =
        o[QStringLiteral("chart")][QStringLiteral("series")][0][QStringLiteral("y")].toArray();
    QVERIFY(y.at(500).isNull()); // NaN -> null
}

void TestFigureExporter::jsonRejectsBadInput() {
    FigureSpec out;
    QString error;
    QVERIFY(!FigureSpecJson::fromJson(QJsonObject{{QStringLiteral("kind"), QStringLiteral("pie")}}, &out,
                                      &error));
    QVERIFY(error.contains(QStringLiteral("pie")));
    QJsonObject h = FigureSpecJson::toJson(samples::payoffHeatmap(2, 2));
    QJsonObject hm = h[QStringLiteral("heatmap")].toObject();
    hm[QStringLiteral("rows")] = 3;
    h[QStringLiteral("heatmap")] = hm;
    QVERIFY(!FigureSpecJson::fromJson(h, &out, &error));
    QVERIFY(error.contains(QStringLiteral("needs 6 values")));
}

void TestFigureExporter::atomicWriteFailsCleanly() {
    const QString missingDir = m_dir.filePath(QStringLiteral("no/such/dir/fig.png"));
    QString error;
    QVERIFY(!FigureExporter::exportFile(samples::barChart(), missingDir, {}, &error));
    QVERIFY(error.contains(missingDir));
    QVERIFY(!QFileInfo::exists(missingDir));
    // A directory in the way of the file.
    const QString dirPath = m_dir.filePath(QStringLiteral("taken.svg"));
    QVERIFY(QDir().mkpath(dirPath));
    error.clear();
    QVERIFY(!FigureExporter::exportFile(samples::barChart(), dirPath, {}, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(QFileInfo(dirPath).isDir());
    // Data export to an unwritable place, and nothing left next to it.
    error.clear();
    QVERIFY(!FigureExporter::exportDataFile(samples::barChart(), QStringLiteral("/proc/paperlab-test.csv"),
                                            &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFileInfo::exists(QStringLiteral("/proc/paperlab-test.csv")));
    const QStringList leftovers =
        QDir(m_dir.filePath(QStringLiteral("."))).entryList({QStringLiteral("*.tmp*")});
    QVERIFY(leftovers.isEmpty());
}

void TestFigureExporter::atomicWriteReplacesWholeFile() {
    const QString path = m_dir.filePath(QStringLiteral("replace.csv"));
    QVERIFY(FigureExporter::writeAtomically(path, QByteArray(100000, 'x')));
    QVERIFY(FigureExporter::exportDataFile(samples::barChart(), path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), FigureExporter::exportCsv(samples::barChart()));
    // A failed export leaves the previous file untouched.
    const QString png = m_dir.filePath(QStringLiteral("keep.png"));
    QVERIFY(FigureExporter::exportFile(samples::barChart(), png));
    const qint64 size = QFileInfo(png).size();
    ExportOptions bad;
    bad.dpi = 0;
    QString error;
    QVERIFY(!FigureExporter::exportFile(samples::barChart(), png, bad, &error));
    QVERIFY(error.contains(QStringLiteral("dpi")));
    QCOMPARE(QFileInfo(png).size(), size);
}

void TestFigureExporter::badOptionsAndFormats() {
    QString error;
    QVERIFY(!FigureExporter::exportFile(samples::barChart(), m_dir.filePath(QStringLiteral("x.bmp")), {},
                                        &error));
    QVERIFY(error.contains(QStringLiteral("bmp")));
    QVERIFY(!FigureExporter::exportDataFile(samples::barChart(), m_dir.filePath(QStringLiteral("x.xlsx")),
                                            &error));
    ExportOptions huge;
    huge.sizeInches = QSizeF(500, 2);
    QVERIFY(FigureExporter::render(samples::barChart(), QStringLiteral("png"), huge, &error).isEmpty());
    QCOMPARE(FigureExporter::figureSuffixes(), (QStringList{"png", "svg", "pdf"}));
}

void TestFigureExporter::screenshotCompare() {
    QImage a(50, 40, QImage::Format_ARGB32);
    a.fill(Qt::white);
    QImage b = a;
    b.setPixel(3, 3, qRgb(250, 250, 250)); // within tolerance
    auto c = ScreenshotHelper::compare(a, b, 8);
    QVERIFY(c.sameSize);
    QCOMPARE(c.differingFraction, 0.0);
    b.setPixel(4, 4, qRgb(0, 0, 0));
    c = ScreenshotHelper::compare(a, b, 8);
    QCOMPARE(c.maxChannelDelta, 255);
    QVERIFY(c.differingFraction > 0);
    QCOMPARE(QColor(c.diff.pixel(4, 4)), QColor(Qt::red));
    QString msg;
    QVERIFY(!ScreenshotHelper::matchesBaseline(a, m_dir.filePath(QStringLiteral("missing.png")), &msg));
    QVERIFY(msg.contains(QStringLiteral("PAPERLAB_UPDATE_BASELINES")));
    const QString base = m_dir.filePath(QStringLiteral("base.png"));
    QVERIFY(a.save(base));
    QVERIFY(ScreenshotHelper::matchesBaseline(a, base, &msg));
    qputenv("PAPERLAB_SCREENSHOT_DIR", m_dir.filePath(QStringLiteral("shots")).toLocal8Bit());
    QVERIFY(!ScreenshotHelper::matchesBaseline(b, base, &msg, 8, 0.0));
    QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("shots/base.diff.png"))));
}

QTEST_MAIN(TestFigureExporter)
#include "tst_figureexporter.moc"
