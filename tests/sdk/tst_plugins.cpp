// Plugin manager: metadata is read without loading, good plugins load on first use, and each
// kind of broken plugin is listed with its error without taking the process down.
#include "sdk/PanelModel.h"
#include "sdk/PaperPlugin.h"
#include "sdk/PluginManager.h"

#include <QtTest>

class TstPlugins : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void listsEveryPluginWithoutLoading();
    void goodPluginLoadsAndRuns();
    void brokenPluginsAreListedWithErrors_data();
    void brokenPluginsAreListedWithErrors();
    void figureTableMismatchIsListed();
    void throwingEngineFailsOnlyItsJob();
    void realPanelsAreInstalled();

private:
    pl::PluginManager m_pm;
};

void TstPlugins::initTestCase() {
    m_pm.scan({QStringLiteral(FIXTURE_DIR)});
}

void TstPlugins::listsEveryPluginWithoutLoading() {
    QStringList ids;
    for (const auto& p : m_pm.plugins())
        ids << p.id;
    for (const char* id : {"fixture-good", "fixture-throws", "fixture-badinit", "fixture-missingsym",
                           "fixture-wrongiid", "fixture-badapi", "fixture-oldapi", "fixture-badtable"})
        QVERIFY2(ids.contains(QString::fromLatin1(id)), qPrintable(ids.join(',')));
    const pl::PluginInfo* good = m_pm.info("fixture-good");
    QVERIFY(good->error.isEmpty());
    QCOMPARE(good->figures.size(), 1);
    QCOMPARE(good->presets.first().name, QStringLiteral("tiny"));
    // Metadata problems are known before loading anything.
    QVERIFY(m_pm.info("fixture-badapi")->error.contains("API version"));
    QVERIFY(m_pm.info("fixture-wrongiid")->error.contains("wrong interface id"));
    // A plugin built for the previous interface is refused before loading, saying why.
    const QString old = m_pm.info("fixture-oldapi")->error;
    QVERIFY2(old.contains("built for plugin API 1") && old.contains("rebuild"), qPrintable(old));
}

void TstPlugins::goodPluginLoadsAndRuns() {
    QString err;
    pl::IPaperPlugin* p = m_pm.load("fixture-good", &err);
    QVERIFY2(p, qPrintable(err));
    QCOMPARE(m_pm.load("fixture-good"), p); // loaded once
    pl::JobRunner runner;
    pl::PanelModel model(*m_pm.info("fixture-good"), p, &runner);
    QVERIFY(model.applyPreset("tiny"));
    QCOMPARE(model.params().getInt("n"), int64_t(10));
    QSignalSpy done(&model, &pl::PanelModel::resultChanged);
    model.requestRun();
    QVERIFY(done.wait(5000));
    QVERIFY(model.result()->metrics.at("sum") > 1.5);
}

void TstPlugins::brokenPluginsAreListedWithErrors_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("reason");
    QTest::newRow("initialize fails") << "fixture-badinit"
                                      << "initialize() failed";
    QTest::newRow("missing symbol") << "fixture-missingsym"
                                    << "cannot load";
    QTest::newRow("wrong interface") << "fixture-wrongiid"
                                     << "wrong interface id";
    QTest::newRow("future api") << "fixture-badapi"
                                << "API version";
    QTest::newRow("old api") << "fixture-oldapi"
                             << "built for plugin API 1";
    QTest::newRow("figure table disagrees") << "fixture-badtable"
                                            << "paper.json and the figure table disagree";
    QTest::newRow("absent") << "no-such-plugin"
                            << "no plugin";
}

void TstPlugins::brokenPluginsAreListedWithErrors() {
    QFETCH(QString, id);
    QFETCH(QString, reason);
    QString err;
    QVERIFY(!m_pm.load(id, &err));
    QVERIFY2(err.contains(reason), qPrintable(err));
    if (const pl::PluginInfo* info = m_pm.info(id))
        QVERIFY(!info->error.isEmpty());
    // The manager still works for the good plugin afterwards.
    QVERIFY(m_pm.load("fixture-good"));
}

void TstPlugins::figureTableMismatchIsListed() {
    QString err;
    QVERIFY(!m_pm.load("fixture-badtable", &err));
    const QString listed = m_pm.info("fixture-badtable")->error;
    QCOMPARE(listed, err);
    for (const char* what :
         {"figure 'sum': paper.json says kind 'chart', the code says 'heatmap'",
          "figure 'sum': paper.json says title \"Partial sums\", the code says \"Partial sums of 1/i²\"",
          "figure 'only_in_code' is in the code's table but not in paper.json",
          "figure 'only_in_json' is in paper.json but not in the code's table"})
        QVERIFY2(listed.contains(QString::fromUtf8(what)), qPrintable(listed));
}

void TstPlugins::throwingEngineFailsOnlyItsJob() {
    pl::IPaperPlugin* bad = m_pm.load("fixture-throws");
    pl::IPaperPlugin* good = m_pm.load("fixture-good");
    QVERIFY(bad && good);
    pl::JobRunner runner;
    pl::PanelModel badModel(*m_pm.info("fixture-throws"), bad, &runner);
    pl::PanelModel goodModel(*m_pm.info("fixture-good"), good, &runner);
    QSignalSpy err(&badModel, &pl::PanelModel::errorOccurred);
    QSignalSpy ok(&goodModel, &pl::PanelModel::resultChanged);
    badModel.requestRun();
    goodModel.requestRun();
    QVERIFY(err.wait(5000));
    QVERIFY(err.first().first().toString().contains("fixture engine failure"));
    QTRY_COMPARE_WITH_TIMEOUT(ok.size(), 1, 5000);
    QVERIFY(!badModel.result());
}

void TstPlugins::realPanelsAreInstalled() {
    pl::PluginManager pm;
    pm.scan(); // PAPERLAB_PLUGIN_PATH points at the build's plugin folder
    for (const char* id : {"ssn-nash", "ftrl-potential-games", "tilesparse", "torus-graph",
                           "curve-scene-graph", "bottleneck-keypoints", "promise-protein-states"}) {
        const pl::PluginInfo* info = pm.info(QString::fromLatin1(id));
        QVERIFY2(info, id);
        QVERIFY2(info->error.isEmpty(), qPrintable(info->error));
        QVERIFY(pm.load(QString::fromLatin1(id)));
        QVERIFY(!info->figures.isEmpty());
        QVERIFY(!info->presets.isEmpty());
        // The help page comes from the plugin's resources, not a fallback.
        QVERIFY2(pm.load(QString::fromLatin1(id))->helpMarkdown().size() > 200, id);
    }
    for (const char* id : {"ssn-nash", "ftrl-potential-games"})
        QVERIFY(pm.info(QString::fromLatin1(id))->preset("paper defaults"));
}

QTEST_GUILESS_MAIN(TstPlugins)
#include "tst_plugins.moc"
