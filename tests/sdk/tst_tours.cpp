// Guided tours: paper.json "tours" parsing, tour files (both forms, refusals), validation against
// a panel's parameters/presets/figures, cumulative step parameters, every tour shipped by every
// installed plugin, and TourPlayer playback (next, previous, waiting for results) on a real panel.
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PaperPlugin.h"
#include "sdk/PluginManager.h"
#include "sdk/Tour.h"
#include "sdk/TourPlayer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace pl;

namespace {

QJsonObject meta() {
    return QJsonDocument::fromJson(R"({
      "id": "demo", "apiVersion": 2, "version": "1", "title": "Demo",
      "figures": [{"id": "curve", "kind": "chart"}, {"id": "map", "kind": "heatmap"}],
      "presets": [{"name": "big", "params": {"rows": 100}}],
      "tours": [{"name": "basics", "title": "The basics", "file": "tours/basics.json"}]
    })")
        .object();
}

std::vector<ParamSpec> specs() {
    return {ParamSpec::integer("rows", "Rows", 2, 2000, 50, "rows"),
            ParamSpec::choice("solver", "Solver", {"a", "b"}, "a", "solver")};
}

Tour parse(const char* json) {
    Tour t;
    QString error;
    if (!Tour::fromJson(json, &t, &error))
        qWarning() << error;
    return t;
}

} // namespace

class TstTours : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void pluginInfoListsTours();
    void pluginInfoRefusesBadTours();
    void tourFileForms();
    void tourFileRefusals_data();
    void tourFileRefusals();
    void validateChecksKeysPresetsFigures();
    void stepParamsAreCumulative();
    void everyShippedTourIsValid();
    void playerStepsThroughATour();

private:
    PluginManager m_plugins;
    std::unique_ptr<JobRunner> m_runner;
};

void TstTours::initTestCase() {
    m_plugins.scan();
    m_runner = std::make_unique<JobRunner>(nullptr, 2);
}

void TstTours::cleanupTestCase() {
    m_runner->cancelAll();
    QVERIFY(m_runner->waitForDone(10000));
}

void TstTours::pluginInfoListsTours() {
    PluginInfo info;
    QString error;
    QVERIFY2(PluginInfo::fromJson(meta(), &info, &error), qPrintable(error));
    QCOMPARE(info.tours.size(), 1);
    QVERIFY(info.tour("basics"));
    QCOMPARE(info.tour("basics")->title, QStringLiteral("The basics"));
    QCOMPARE(info.tour("basics")->file, QStringLiteral("tours/basics.json"));
    QVERIFY(!info.tour("other"));
    QCOMPARE(info.toJson().value("tours").toArray().size(), 1);
}

void TstTours::pluginInfoRefusesBadTours() {
    QJsonObject m = meta();
    m["tours"] = QJsonArray{QJsonObject{{"name", "x"}}};
    PluginInfo info;
    QString error;
    QVERIFY(!PluginInfo::fromJson(m, &info, &error));
    QVERIFY(error.contains("tour"));
}

void TstTours::tourFileForms() {
    const Tour list = parse(R"([{"caption": "one"}, {"caption": "two", "wait": false, "figure": "map"}])");
    QCOMPARE(list.steps.size(), 2);
    QVERIFY(list.steps[0].wait);
    QVERIFY(!list.steps[1].wait);
    QCOMPARE(list.steps[1].figure, QStringLiteral("map"));
    const Tour obj =
        parse(R"({"title": "T", "steps": [{"caption": "c", "preset": "big", "params": {"rows": 3}}]})");
    QCOMPARE(obj.title, QStringLiteral("T"));
    QCOMPARE(obj.steps[0].preset, QStringLiteral("big"));
    QCOMPARE(obj.steps[0].params.value("rows").toInt(), 3);
}

void TstTours::tourFileRefusals_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("not json") << QByteArray("[{");
    QTest::newRow("no steps") << QByteArray("[]");
    QTest::newRow("no caption") << QByteArray(R"([{"figure": "map"}])");
    QTest::newRow("step not object") << QByteArray(R"([1])");
    QTest::newRow("params not object") << QByteArray(R"([{"caption": "c", "params": [1]}])");
}

void TstTours::tourFileRefusals() {
    QFETCH(QByteArray, json);
    Tour t;
    QString error;
    QVERIFY(!Tour::fromJson(json, &t, &error));
    QVERIFY(!error.isEmpty());
}

void TstTours::validateChecksKeysPresetsFigures() {
    PluginInfo info;
    QVERIFY(PluginInfo::fromJson(meta(), &info, nullptr));
    QString error;
    QVERIFY(parse(R"([{"caption": "c", "preset": "big", "params": {"solver": "b"}, "figure": "map"}])")
                .validate(info, specs(), &error));
    QVERIFY(!parse(R"([{"caption": "c", "figure": "nope"}])").validate(info, specs(), &error));
    QVERIFY(error.contains("nope"));
    QVERIFY(!parse(R"([{"caption": "c", "params": {"colour": 1}}])").validate(info, specs(), &error));
    QVERIFY(error.contains("colour"));
    QVERIFY(!parse(R"([{"caption": "c", "params": {"rows": 1}}])").validate(info, specs(), &error));
    QVERIFY(!parse(R"([{"caption": "c", "params": {"rows": "many"}}])").validate(info, specs(), &error));
    QVERIFY(
        !parse(R"([{"caption": "c"}, {"caption": "d", "preset": "small"}])").validate(info, specs(), &error));
    QVERIFY(error.contains("step 2"));
}

void TstTours::stepParamsAreCumulative() {
    PluginInfo info;
    QVERIFY(PluginInfo::fromJson(meta(), &info, nullptr));
    const Tour t =
        parse(R"([{"caption": "1", "params": {"solver": "b"}}, {"caption": "2", "params": {"rows": 7}},
                             {"caption": "3", "preset": "big"}, {"caption": "4", "params": {"solver": "b"}}])");
    ParamSet base(specs());
    base.setText("rows", "9");
    QCOMPARE(t.paramsAt(0, base, info).getInt("rows"), int64_t(9)); // base kept
    QCOMPARE(t.paramsAt(1, base, info).getString("solver"), std::string("b"));
    QCOMPARE(t.paramsAt(1, base, info).getInt("rows"), int64_t(7));
    QCOMPARE(t.paramsAt(2, base, info).getString("solver"), std::string("a")); // preset resets
    QCOMPARE(t.paramsAt(2, base, info).getInt("rows"), int64_t(100));
    QCOMPARE(t.paramsAt(3, base, info).getString("solver"), std::string("b"));
}

void TstTours::everyShippedTourIsValid() {
    int checked = 0;
    QStringList withTours;
    for (const PluginInfo& info : m_plugins.plugins()) {
        if (!info.error.isEmpty())
            continue;
        QString error;
        IPaperPlugin* plugin = m_plugins.load(info.id, &error);
        QVERIFY2(plugin, qPrintable(error));
        const auto engine = plugin->createEngine();
        for (const TourInfo& ti : info.tours) {
            Tour tour;
            QVERIFY2(Tour::load(info, ti.name, &tour, &error), qPrintable(error));
            QVERIFY2(tour.validate(info, engine->params(), &error),
                     qPrintable(QStringLiteral("%1/%2: %3").arg(info.id, ti.name, error)));
            QVERIFY2(tour.steps.size() >= 4 && tour.steps.size() <= 6, qPrintable(info.id + "/" + ti.name));
            // Handouts are rendered headless: a tour shows no 3D figure.
            for (const TourStep& s : tour.steps)
                QVERIFY2(s.figure.isEmpty() || info.figure(s.figure)->kind != gui::FigureKind::Scene3D,
                         qPrintable(s.figure));
            ++checked;
        }
        if (!info.tours.isEmpty())
            withTours << info.id;
    }
    qInfo() << "tours checked:" << checked << "panels with tours:" << withTours;
    for (const char* id : {"ssn-nash", "ftrl-potential-games"})
        if (m_plugins.info(id))
            QVERIFY2(withTours.contains(id), id);
}

void TstTours::playerStepsThroughATour() {
    const PluginInfo* info = m_plugins.info("ssn-nash");
    if (!info || !info->error.isEmpty())
        QSKIP("ssn-nash is not installed");
    IPaperPlugin* plugin = m_plugins.load("ssn-nash");
    QVERIFY(plugin);
    PanelModel model(*info, plugin, m_runner.get());
    model.setParam("compare_solvers", false);
    model.setParam("lp_reference", false);
    model.setParam("claim_games", int64_t(0));
    const ParamSet base = model.params();
    Tour tour;
    QVERIFY(Tour::fromJson(R"([{"caption": "small", "params": {"rows": 8, "cols": 8}, "figure": "payoff"},
                               {"caption": "prm", "params": {"solver": "prm_plus"}},
                               {"caption": "no wait", "params": {"rows": 9}, "wait": false}])",
                           &tour, nullptr));
    TourPlayer player(&model, tour);
    QSignalSpy changed(&player, &TourPlayer::stepChanged);
    QSignalSpy ready(&player, &TourPlayer::stepReady);
    QVERIFY(player.start());
    QCOMPARE(player.currentIndex(), 0);
    QVERIFY(player.isWaiting());
    QCOMPARE(model.params().getInt("rows"), int64_t(8));
    QVERIFY(ready.wait(60000));
    QCOMPARE(ready.last().at(0).toInt(), 0);
    QVERIFY(model.result());
    QCOMPARE(model.result()->params.size(), base.values().size());

    QVERIFY(player.next());
    QCOMPARE(model.params().getString("solver"), std::string("prm_plus"));
    QCOMPARE(model.params().getInt("rows"), int64_t(8));
    QVERIFY(ready.wait(60000));
    QVERIFY(player.next());
    QVERIFY(!player.isWaiting()); // wait: false is ready at once
    QCOMPARE(ready.last().at(0).toInt(), 2);
    QVERIFY(!player.next()); // end of the tour
    QVERIFY(player.previous());
    QCOMPARE(player.currentIndex(), 1);
    QCOMPARE(model.params().getInt("rows"), int64_t(8));
    QVERIFY(player.previous());
    QCOMPARE(model.params().getString("solver"), std::string("hybrid"));
    QVERIFY(!player.previous());
    QCOMPARE(changed.count(), 5);
    player.stop();
    QVERIFY(model.params() == base);
    QTRY_VERIFY_WITH_TIMEOUT(!model.isRunning(), 60000);
}

QTEST_GUILESS_MAIN(TstTours)
#include "tst_tours.moc"
