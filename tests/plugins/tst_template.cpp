// The panel template (plugins/template) compiles, loads through the plugin manager, runs, and
// builds its figure; it is not installed with the real panels.
#include "sdk/PanelModel.h"
#include "sdk/PaperPlugin.h"
#include "sdk/PluginManager.h"

#include <QtTest>

class TstTemplate : public QObject {
    Q_OBJECT
private slots:
    void loadsRunsAndDraws() {
        pl::PluginManager pm;
        pm.scan({QStringLiteral(TEMPLATE_DIR)});
        QString err;
        pl::IPaperPlugin* p = pm.load("template", &err);
        QVERIFY2(p, qPrintable(err));
        pl::JobRunner runner;
        pl::PanelModel m(*pm.info("template"), p, &runner);
        QVERIFY(m.applyPreset("paper defaults"));
        QSignalSpy done(&m, &pl::PanelModel::resultChanged);
        m.requestRun();
        QVERIFY(done.wait(10000));
        QVERIFY(m.result()->claims.front().holds);
        pl::gui::FigureSpec f;
        QVERIFY(m.figure("msd", &f));
        QCOMPARE(f.chart.series.first().x.size(), 200);
        QVERIFY(p->helpMarkdown().contains("Panel template"));
    }
    void notInstalledWithThePanels() {
        pl::PluginManager pm;
        pm.scan();
        QVERIFY(!pm.info("template"));
    }
};

QTEST_GUILESS_MAIN(TstTemplate)
#include "tst_template.moc"
