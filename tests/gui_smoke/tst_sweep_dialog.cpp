// The panel's Sweep dialog on ssn-nash (fast runs): a 2 x 3 grid of rows x seeds runs in the
// background, the sweep figures appear (claims per cell over 2 cells), a bad grid is refused with
// the parser's message, cancel keeps the finished runs, and Save… writes a directory that
// SweepResults reads back and `paperlab sweep` resumes. Screenshots (light and dark) are written
// to the working directory: sweep-dialog.png, sweep-dialog-dark.png.
#include "common/CliTestSupport.h"
#include "gui/PanelWidget.h"
#include "gui/SweepDialog.h"
#include "sdk/BackgroundSweep.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/SweepResults.h"
#include "widgets/Theme.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using pl::gui::PanelWidget;
using pl::gui::SweepDialog;

class TestSweepDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        pl::gui::registerVtkViews();
        m_pm.scan();
    }
    void gridRunsDrawsSavesAndResumes() {
        const pl::PluginInfo* info = m_pm.info(QStringLiteral("ssn-nash"));
        QVERIFY(info);
        QString err;
        pl::IPaperPlugin* plugin = m_pm.load(info->id, &err);
        QVERIFY2(plugin, qPrintable(err));
        pl::JobRunner runner;
        auto* model = new pl::PanelModel(*info, plugin, &runner); // owned by the panel
        pl::ParamSet p = model->params();
        p.setText("cols", "10");
        model->setParams(p);
        PanelWidget panel(model);
        SweepDialog* dialog = panel.openSweepDialog();
        QVERIFY(dialog && dialog->isVisible());

        // A bad grid: refused before any run, with the parser's reason.
        dialog->setAxis(0, QStringLiteral("rows"), QStringLiteral("1:3:2"));
        dialog->startSweep();
        QVERIFY(!dialog->sweep()->isRunning());
        QVERIFY(dialog->findChild<QLabel*>() != nullptr);
        bool refused = false;
        for (QLabel* l : dialog->findChildren<QLabel*>())
            refused = refused || l->text().contains(QStringLiteral("rows"));
        QVERIFY(refused);

        dialog->setAxis(0, QStringLiteral("rows"), QStringLiteral("8,12"));
        dialog->setSeeds(3);
        QSignalSpy finished(dialog->sweep(), &pl::BackgroundSweep::finished);
        dialog->startSweep();
        QVERIFY(dialog->sweep()->isRunning());
        QVERIFY(finished.wait(120000));
        QCOMPARE(dialog->sweep()->finishedRuns(), 6);
        QVERIFY(!dialog->sweep()->wasCancelled());
        // Figures: claims x cells with 2 cells, and one chart per claim against rows.
        const auto& figs = dialog->figures();
        QVERIFY(figs.size() >= 2);
        QCOMPARE(figs[0].id, QStringLiteral("claims_by_cell"));
        QCOMPARE(figs[0].heatmap.cols, 2);
        for (double v : figs[0].heatmap.values)
            QVERIFY(std::isnan(v) || (v >= 0 && v <= 1));
        auto* chooser = dialog->findChild<QComboBox*>(QStringLiteral("SweepFigure"));
        QCOMPARE(chooser->count(), figs.size());
        QVERIFY(dialog->grab().save(QDir::current().absoluteFilePath(QStringLiteral("sweep-dialog.png"))));
        chooser->setCurrentIndex(1);
        pl::gui::Theme::setCurrent(pl::gui::Theme::dark());
        QTest::qWait(50); // palette change events
        QVERIFY(
            dialog->grab().save(QDir::current().absoluteFilePath(QStringLiteral("sweep-dialog-dark.png"))));
        pl::gui::Theme::setCurrent(pl::gui::Theme::light());

        // Save: read back as a finished sweep, and `paperlab sweep` with the same grid finds every run.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("gui-sweep"));
        QVERIFY(dialog->saveTo(out));
        pl::SweepResults back;
        QVERIFY2(pl::SweepResults::read(out, &back, &err), qPrintable(err));
        QCOMPARE(int(back.docs.size()), 6);
        QCOMPARE(runCliResume(out, &err), 0);
        QVERIFY2(err.contains(QStringLiteral("6 of 6 runs already done")), qPrintable(err));

        // Cancel: a longer sweep stopped at once keeps what finished and reports it.
        dialog->setAxis(0, QStringLiteral("rows"), QStringLiteral("8:40:5"));
        dialog->setSeeds(20);
        finished.clear();
        dialog->startSweep();
        dialog->sweep()->cancel();
        QVERIFY(finished.wait(120000));
        QVERIFY(dialog->sweep()->wasCancelled());
        QVERIFY(dialog->sweep()->finishedRuns() < 100);
    }

private:
    /// `paperlab sweep` with the grid the dialog ran (the panel's defaults but cols = 10).
    static int runCliResume(const QString& out, QString* err) {
        return pl::test::runCli({QStringLiteral("sweep"), QStringLiteral("ssn-nash"), QStringLiteral("--set"),
                                 QStringLiteral("cols=10"), QStringLiteral("--grid"),
                                 QStringLiteral("rows=8,12"), QStringLiteral("--seeds"), QStringLiteral("3"),
                                 QStringLiteral("--out"), out},
                                err);
    }
    pl::PluginManager m_pm;
};

QTEST_MAIN(TestSweepDialog)
#include "tst_sweep_dialog.moc"
