// Figure layouts (issue 34) on ssn-nash: two panes side by side, two stacked and four, each pane
// drawing its own figure after a run and again after the next run; keyboard shortcuts switch
// layouts and move focus between panes; the layout survives a session round trip through the main
// window; paper.json's "layout" is validated. Screenshots per layout in both themes
// (layout-<mode>[-dark].png in the working directory). The event loop stays responsive (< 50 ms
// stalls) while four panes redraw after each run.
#include "gui/FigureArea.h"
#include "gui/FigureGrid.h"
#include "gui/MainWindow.h"
#include "gui/PanelWidget.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginInfo.h"
#include "sdk/PluginManager.h"
#include "widgets/FigureView.h"
#include "widgets/Theme.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <limits>

using namespace pl;
using namespace pl::gui;

class TestFigureLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PaperlabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_figure_layout"));
        QSettings().clear();
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        registerVtkViews();
        m_pm.scan();
    }

    void panesDrawTheirFigures() {
        JobRunner runner;
        MainWindow window(&m_pm, &runner);
        window.resize(1500, 950);
        window.show();
        QString err;
        PanelWidget* panel = window.openPanel(QStringLiteral("ssn-nash"), &err);
        QVERIFY2(panel, qPrintable(err));
        QSignalSpy shown(panel, &PanelWidget::resultShown);
        if (!panel->model()->result())
            QVERIFY(shown.wait(120000));
        FigureArea* area = panel->figureArea();
        QCOMPARE(area->layoutMode(), FigureLayoutMode::Single);
        const QStringList ids = panel->figureIds();
        QVERIFY(ids.size() >= 4);

        for (FigureLayoutMode mode :
             {FigureLayoutMode::SideBySide, FigureLayoutMode::Stacked, FigureLayoutMode::Quad}) {
            area->setLayoutMode(mode);
            FigureGrid* grid = area->grid();
            QCOMPARE(grid->paneCount(), figureLayoutPanes(mode));
            QVERIFY(grid->isVisible());
            for (int i = 0; i < grid->paneCount(); ++i) {
                QVERIFY(grid->paneView(i)->isVisible());
                QCOMPARE(grid->paneView(i)->spec().id, grid->paneFigures()[i]);
            }
            QTest::qWait(50);
            const QString name = figureLayoutName(mode);
            QVERIFY(window.grab().save(QStringLiteral("layout-%1.png").arg(name)));
            Theme::setCurrent(Theme::dark());
            QTest::qWait(50);
            QVERIFY(window.grab().save(QStringLiteral("layout-%1-dark.png").arg(name)));
            Theme::setCurrent(Theme::light());
        }
        // A pane's chooser: another figure is drawn there at once; the next run redraws it.
        FigureGrid* grid = area->grid();
        grid->setPaneFigure(3, ids[0]);
        QCOMPARE(grid->paneView(3)->spec().id, ids[0]);
        const QString before = grid->paneView(1)->spec().title;
        shown.clear();
        panel->model()->setSeed(panel->model()->seed() + 1);
        panel->model()->requestRun();
        QVERIFY(shown.wait(120000));
        QCOMPARE(grid->paneView(1)->spec().id, grid->paneFigures()[1]);
        QVERIFY(!before.isEmpty());

        // Keyboard: Ctrl+Alt+2 = side by side, Ctrl+Alt+1 = tabs; Ctrl+Alt+Right moves the focus.
        panel->activateWindow();
        area->setFocus();
        QTest::keyClick(area, Qt::Key_2, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(area->layoutMode(), FigureLayoutMode::SideBySide);
        QTest::keyClick(area, Qt::Key_Right, Qt::ControlModifier | Qt::AltModifier);
        QTest::keyClick(area, Qt::Key_Right, Qt::ControlModifier | Qt::AltModifier);
        QVERIFY(grid->isAncestorOf(QApplication::focusWidget()));
        QTest::keyClick(area, Qt::Key_1, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(area->layoutMode(), FigureLayoutMode::Single);

        // Session round trip: a four-pane layout with chosen figures comes back.
        area->setLayoutMode(FigureLayoutMode::Quad, {ids[3], ids[2], ids[1], ids[0]});
        const QJsonObject saved = area->layoutState();
        QCOMPARE(saved.value("mode").toString(), QStringLiteral("quad"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.paperlab.json"));
        QVERIFY2(window.saveSession(path, &err), qPrintable(err));
        window.closeAllPanels();
        QVERIFY2(window.openSession(path, &err), qPrintable(err));
        PanelWidget* back = window.findChild<PanelWidget*>();
        QVERIFY(back);
        QCOMPARE(back->figureArea()->layoutState(), saved);
        QCOMPARE(back->figureArea()->grid()->paneFigures(), (QStringList{ids[3], ids[2], ids[1], ids[0]}));
        window.closeAllPanels();
    }

    // The foundation's stall probe (tst_jobrunner) with four panes redrawing: a 2 ms timer runs while
    // the engine computes on the pool and each new result is drawn into the four panes (and the
    // tabs); the largest gap between ticks is the longest the user's clicks would wait.
    void fourPanesDoNotStallTheEventLoop() {
        JobRunner runner;
        MainWindow window(&m_pm, &runner);
        window.resize(1500, 950);
        window.show();
        QString err;
        PanelWidget* panel = window.openPanel(QStringLiteral("ssn-nash"), &err);
        QVERIFY2(panel, qPrintable(err));
        QSignalSpy shown(panel, &PanelWidget::resultShown);
        if (!panel->model()->result())
            QVERIFY(shown.wait(120000));
        panel->figureArea()->setLayoutMode(FigureLayoutMode::Quad);
        QTest::qWait(100); // first paint of the panes, not part of the probe
        // Three attempts of four runs each; the smallest worst stall counts: a busy machine (CI
        // runs two tests at once on two cores) delays single ticks, a slow redraw shows in all.
        qint64 best = std::numeric_limits<qint64>::max();
        for (int attempt = 0; attempt < 3; ++attempt) {
            QElapsedTimer clock;
            clock.start();
            qint64 last = 0, worst = 0;
            QTimer tick;
            tick.setInterval(2);
            connect(&tick, &QTimer::timeout, [&] {
                const qint64 now = clock.elapsed();
                worst = std::max(worst, now - last);
                last = now;
            });
            tick.start();
            for (int run = 0; run < 4; ++run) {
                shown.clear();
                panel->model()->setSeed(panel->model()->seed() + 1);
                panel->model()->requestRun();
                QVERIFY(shown.wait(120000));
                QTest::qWait(30); // let the panes paint inside the probe
            }
            tick.stop();
            qInfo("attempt %d: largest event-loop stall with four panes updating: %lld ms", attempt + 1,
                  worst);
            best = std::min(best, worst);
        }
        QVERIFY2(best < 50, qPrintable(QString::number(best)));
        window.closeAllPanels();
    }

    void paperJsonLayoutIsChecked() {
        const PluginInfo* info = m_pm.info(QStringLiteral("ssn-nash"));
        QVERIFY(info);
        // Minimal metadata: id, API version and the panel's figures (no presets or tours).
        QJsonObject meta{{"id", info->id}, {"apiVersion", info->apiVersion}};
        meta["figures"] = info->toJson().value("figures");
        PluginInfo out;
        QString err;
        meta["layout"] = QJsonObject{{"mode", "side_by_side"},
                                     {"figures", QJsonArray{info->figures[1].id, info->figures[0].id}}};
        QVERIFY2(PluginInfo::fromJson(meta, &out, &err), qPrintable(err));
        QCOMPARE(out.layout.value("mode").toString(), QStringLiteral("side_by_side"));
        meta["layout"] = QJsonObject{{"mode", "sideways"}};
        QVERIFY(!PluginInfo::fromJson(meta, &out, &err));
        QVERIFY2(err.contains(QStringLiteral("side_by_side")), qPrintable(err));
        meta["layout"] = QJsonObject{{"mode", "quad"}, {"figures", QJsonArray{"no_such_figure"}}};
        QVERIFY(!PluginInfo::fromJson(meta, &out, &err));
        QVERIFY2(err.contains(QStringLiteral("no_such_figure")), qPrintable(err));
    }

private:
    PluginManager m_pm;
};

QTEST_MAIN(TestFigureLayout)
#include "tst_figure_layout.moc"
