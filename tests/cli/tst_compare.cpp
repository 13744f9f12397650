// A/B comparison (issue 34): compareFigures on charts (A dashed in B's colour, "A: "/"B: " names)
// and heatmaps (B − A, diverging, centred), parameterDifferences, and `paperlab report PANEL
// --compare A.json B.json` end to end on ssn-nash: HTML lists the differing parameters and the
// metric differences, the exported SVG and CSV carry both runs; wrong panel (1), unreadable file (3).
#include "common/CliTestSupport.h"
#include "sdk/RunComparison.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using pl::test::runCli;

class TstCompare : public QObject {
    Q_OBJECT
private slots:
    void chartsOverlayAndHeatmapsSubtract() {
        pl::gui::FigureSpec a, b;
        a.id = b.id = QStringLiteral("f");
        a.kind = b.kind = pl::gui::FigureKind::Chart;
        pl::gui::SeriesSpec s;
        s.name = QStringLiteral("loss");
        s.x = {0, 1};
        s.y = {2, 1};
        a.chart.series = {s};
        s.y = {3, 0.5};
        b.chart.series = {s};
        const pl::gui::FigureSpec o = pl::compareFigures(a, b, pl::CompareView::Overlay);
        QCOMPARE(o.chart.series.size(), 2);
        QCOMPARE(o.chart.series[0].name, QStringLiteral("A: loss"));
        QVERIFY(o.chart.series[0].dashed);
        QCOMPARE(o.chart.series[0].y, (QVector<double>{2, 1}));
        QCOMPARE(o.chart.series[1].name, QStringLiteral("B: loss"));
        QVERIFY(!o.chart.series[1].dashed);
        QCOMPARE(o.chart.series[0].colorIndex, o.chart.series[1].colorIndex);

        a.kind = b.kind = pl::gui::FigureKind::Heatmap;
        a.heatmap.rows = b.heatmap.rows = 1;
        a.heatmap.cols = b.heatmap.cols = 2;
        a.heatmap.values = {1, 5};
        b.heatmap.values = {4, 2};
        const pl::gui::FigureSpec d = pl::compareFigures(a, b, pl::CompareView::Difference);
        QCOMPARE(d.heatmap.values, (QVector<double>{3, -3}));
        QCOMPARE(d.heatmap.colormap, QStringLiteral("diverging"));
        QVERIFY(d.heatmap.centreZero);
        QCOMPARE(pl::compareFigures(a, b, pl::CompareView::OnlyA).heatmap.values, a.heatmap.values);
        b.heatmap.cols = 3;
        b.heatmap.values = {1, 2, 3};
        QCOMPARE(pl::compareFigures(a, b, pl::CompareView::Difference).heatmap.values, b.heatmap.values);

        pl::ResultDocument ra, rb;
        ra.seed = 1;
        rb.seed = 2;
        ra.params = {{"rows", int64_t(30)}, {"solver", std::string("hybrid")}};
        rb.params = {{"rows", int64_t(40)}, {"solver", std::string("hybrid")}};
        const auto diff = pl::parameterDifferences(ra, rb);
        QCOMPARE(int(diff.size()), 2);
        QCOMPARE(QString::fromStdString(diff[0].key), QStringLiteral("seed"));
        QCOMPARE(QString::fromStdString(diff[1].key + "=" + diff[1].a + "->" + diff[1].b),
                 QStringLiteral("rows=30->40"));
    }

    void reportCompareEndToEnd() {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.json")), b = dir.filePath(QStringLiteral("b.json"));
        QCOMPARE(runCli({"run", "ssn-nash", "--set", "rows=30", "--set", "cols=20", "--out", a}), 0);
        QCOMPARE(runCli({"run", "ssn-nash", "--set", "rows=40", "--set", "cols=20", "--out", b}), 0);
        const QString out = dir.filePath(QStringLiteral("rep"));
        QString err;
        QCOMPARE(runCli({"report", "ssn-nash", "--compare", a, b, "--out", out}, &err), 0);
        QFile html(QDir(out).filePath(QStringLiteral("ssn-nash-compare.html")));
        QVERIFY2(html.open(QIODevice::ReadOnly), qPrintable(err));
        const QString text = QString::fromUtf8(html.readAll());
        const QString differs =
            text.section(QStringLiteral("What differs"), 1).section(QStringLiteral("<h2>"), 0, 0);
        QVERIFY2(differs.contains(QStringLiteral("<td>rows</td><td>30</td><td>40</td>")),
                 qPrintable(differs));
        QVERIFY(!differs.contains(QStringLiteral("<td>cols</td>"))); // equal in A and B
        QVERIFY(text.contains(QStringLiteral("B − A")));
        QVERIFY(QFileInfo(QDir(out).filePath(QStringLiteral("ssn-nash-compare.pdf"))).size() > 1000);
        QFile svg(QDir(out).filePath(QStringLiteral("figures/gap_vs_iteration.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString s = QString::fromUtf8(svg.readAll());
        QVERIFY(s.contains(QStringLiteral("A: PRM+")) && s.contains(QStringLiteral("B: PRM+")));
        QFile csv(QDir(out).filePath(QStringLiteral("figures/gap_vs_iteration.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString c = QString::fromUtf8(csv.readAll());
        QVERIFY(c.contains(QStringLiteral("\nA: PRM+,")) && c.contains(QStringLiteral("\nB: PRM+,")));
        // The payoff heatmap differs in shape (30 vs 40 rows): B with a note, not a difference.
        QCOMPARE(runCli({"report", "ftrl-potential-games", "--compare", a, b, "--out",
                         dir.filePath(QStringLiteral("x.html"))},
                        &err),
                 1);
        QCOMPARE(runCli({"report", "ssn-nash", "--compare", a, dir.filePath(QStringLiteral("none.json")),
                         "--out", dir.filePath(QStringLiteral("x.html"))},
                        &err),
                 3);
        QVERIFY2(err.contains(QStringLiteral("none.json")), qPrintable(err));
        QCOMPARE(runCli({"report", "ssn-nash", "--compare", a}, &err), 1);
    }
};

QTEST_MAIN(TstCompare)
#include "tst_compare.moc"
