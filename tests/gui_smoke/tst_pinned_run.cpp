// "Pin as A" (issue 34) on ssn-nash: after pinning a run and running with other parameters, the
// charts carry A's series (dashed, "A: ") and B's, the metrics table shows A and B − A, the line
// names the parameters that differ; the views A only / B only switch what is drawn; an exported
// SVG and CSV of a compared figure and the exported report hold both runs; unpinning restores plain figures.
// Screenshots pinned-run.png (light) and pinned-run-dark.png.
#include "gui/PanelWidget.h"
#include "gui/PinnedRun.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "widgets/FigureExporter.h"
#include "widgets/FigureView.h"
#include "widgets/Theme.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace pl;
using namespace pl::gui;

namespace {

int seriesNamed(const FigureSpec& f, const QString& prefix) {
    int n = 0;
    for (const SeriesSpec& s : f.chart.series)
        n += s.name.startsWith(prefix) ? 1 : 0;
    return n;
}

} // namespace

class TestPinnedRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        registerVtkViews();
        m_pm.scan();
    }
    void pinCompareUnpin() {
        const PluginInfo* info = m_pm.info(QStringLiteral("ssn-nash"));
        QVERIFY(info);
        QString err;
        IPaperPlugin* plugin = m_pm.load(info->id, &err);
        QVERIFY2(plugin, qPrintable(err));
        JobRunner runner;
        auto* model = new PanelModel(*info, plugin, &runner); // owned by the panel
        ParamSet p = model->params();
        p.setText("rows", "30");
        model->setParams(p);
        PanelWidget panel(model);
        panel.resize(1400, 900);
        panel.show();
        QSignalSpy shown(&panel, &PanelWidget::resultShown);
        model->requestRun();
        QVERIFY(shown.wait(120000));
        PinnedRun* pin = panel.pinnedRun();
        QVERIFY(!pin->isPinned());
        emit pin->pinRequested(); // the "Pin as A" button
        QVERIFY(pin->isPinned());

        p.setText("rows", "40");
        model->setParams(p);
        shown.clear();
        model->requestRun();
        QVERIFY(shown.wait(120000));
        FigureSpec gap;
        QVERIFY(panel.figureSpec(QStringLiteral("gap_vs_iteration"), &gap));
        QVERIFY(seriesNamed(gap, QStringLiteral("A: ")) > 0);
        QCOMPARE(seriesNamed(gap, QStringLiteral("A: ")), seriesNamed(gap, QStringLiteral("B: ")));
        for (const SeriesSpec& s : gap.chart.series)
            if (s.name.startsWith(QStringLiteral("A: ")))
                QVERIFY(s.dashed);
        QCOMPARE(panel.figureView(QStringLiteral("gap_vs_iteration"))->spec().chart.series.size(),
                 gap.chart.series.size());
        auto* line = panel.findChild<QLabel*>(QStringLiteral("PinnedLine"));
        QVERIFY2(line->text().contains(QStringLiteral("rows 30 → 40")), qPrintable(line->text()));
        QTableWidget* metrics = panel.metricsTable();
        QCOMPARE(metrics->columnCount(), 4);
        bool anyDiff = false;
        for (int r = 0; r < metrics->rowCount(); ++r)
            anyDiff = anyDiff || (metrics->item(r, 3) && !metrics->item(r, 3)->text().isEmpty());
        QVERIFY(anyDiff);
        // Export: the figure file and its data hold both runs.
        QTemporaryDir dir;
        QString error;
        QVERIFY2(FigureExporter::exportFile(gap, dir.filePath(QStringLiteral("gap.svg")), {}, &error),
                 qPrintable(error));
        QVERIFY2(FigureExporter::exportDataFile(gap, dir.filePath(QStringLiteral("gap.csv")), &error),
                 qPrintable(error));
        for (const char* f : {"gap.svg", "gap.csv"}) {
            QFile file(dir.filePath(QLatin1String(f)));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            QVERIFY2(bytes.contains("A: PRM+") && bytes.contains("B: PRM+"), f);
        }
        // The report of a panel with a pinned run is the comparison: parameter diff, A, B, B − A.
        const QString report = dir.filePath(QStringLiteral("compare.html"));
        QVERIFY2(panel.exportReport(report, &error), qPrintable(error));
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(html.readAll());
        QVERIFY(text.contains(QStringLiteral("rows")) && text.contains(QStringLiteral("B − A")));
        QVERIFY(text.contains(QStringLiteral("A: PRM+")) && text.contains(QStringLiteral("B: PRM+")));
        QVERIFY2(panel.exportReport(dir.filePath(QStringLiteral("compare.pdf")), &error), qPrintable(error));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("compare.pdf"))).size() > 5000);
        panel.showFigure(QStringLiteral("gap_vs_iteration"));
        QTest::qWait(50);
        QVERIFY(panel.grab().save(QStringLiteral("pinned-run.png")));
        Theme::setCurrent(Theme::dark());
        QTest::qWait(50);
        QVERIFY(panel.grab().save(QStringLiteral("pinned-run-dark.png")));
        Theme::setCurrent(Theme::light());

        // Views: A only draws A's figure (30 rows), B only B's.
        pin->setView(CompareView::OnlyA);
        FigureSpec payoff;
        QVERIFY(panel.figureSpec(QStringLiteral("payoff"), &payoff));
        QCOMPARE(payoff.heatmap.rows, 30);
        pin->setView(CompareView::OnlyB);
        QVERIFY(panel.figureSpec(QStringLiteral("payoff"), &payoff));
        QCOMPARE(payoff.heatmap.rows, 40);

        pin->unpin();
        // Unpinned, the report is the plain one again.
        QVERIFY2(panel.exportReport(report, &error), qPrintable(error));
        QFile plain(report);
        QVERIFY(plain.open(QIODevice::ReadOnly));
        QVERIFY(!QString::fromUtf8(plain.readAll()).contains(QStringLiteral("B − A")));
        QVERIFY(panel.figureSpec(QStringLiteral("gap_vs_iteration"), &gap));
        QCOMPARE(seriesNamed(gap, QStringLiteral("A: ")), 0);
        QCOMPARE(metrics->columnCount(), 2);
    }

private:
    PluginManager m_pm;
};

QTEST_MAIN(TestPinnedRun)
#include "tst_pinned_run.moc"
