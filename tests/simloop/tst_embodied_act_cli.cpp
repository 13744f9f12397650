// The embodied-act panel through the command line: one seed gives the same result with the keys of
// the issue, the example task files run (the unstable plant with its warning), every bad task JSON
// of tests/data/bad exits 3 quickly with file:line and no output left, a verlet request on a task
// without a conservative system is a usage error, and `paperlab figure embodied-act all` writes
// every figure.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kPanel = QStringLiteral("embodied-act");
const QStringList kFast{QStringLiteral("--set"), QStringLiteral("episodes=3")};
const QString kExamples = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/embodied-act/");

} // namespace

class TestEmbodiedActCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }
    void deterministicWithKeys() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--seed"), QStringLiteral("5")} +
            kFast + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k : {"overshoot", "settling_time", "iae", "success_runtime", "success_baseline",
                              "median_wasted_runtime", "median_wasted_baseline", "detect_fraction"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.series.count("output") && a.series.count("step_size") && a.vectors.count("final_state"));
        for (const char* p : {"task", "agent", "kp", "ki", "kd", "tf", "integrator", "rtol", "atol", "t_end",
                              "output_dt", "budget", "proposer_noise", "episodes"}) {
            bool found = false;
            for (const auto& kv : a.params)
                found = found || kv.first == p;
            QVERIFY2(found, p);
        }
    }
    void examplesRun() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                                    kExamples + QStringLiteral("unstable-plant.json")} +
                            kFast + QStringList{QStringLiteral("--out"), dir.filePath("u.json")},
                        &err),
                 0);
        const auto u = readResult(dir.filePath("u.json"));
        bool warned = false;
        for (const auto& n : u.notes)
            warned = warned || n.find("unstable") != std::string::npos;
        QVERIFY(warned);
        QCOMPARE(u.metrics.at("budget"), 6000.0);
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                                    kExamples + QStringLiteral("robertson.json"), QStringLiteral("--set"),
                                    QStringLiteral("episodes=2"), QStringLiteral("--out"),
                                    dir.filePath("r.json")}),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.metrics.at("final_time"), 4e5);
        QCOMPARE(r.claims.size(), size_t(1));
        QCOMPARE(r.claims[0].id, std::string("stiff-switch"));
    }
    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("embodied-act-*.json")}, 7, {},
                                [](const QString&) { return true; });
    }
    void verletNeedsEnergyTask() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(
            runCli({QStringLiteral("run"), kPanel, QStringLiteral("--set"),
                    QStringLiteral("integrator=verlet"), QStringLiteral("--out"), dir.filePath("v.json")},
                   &err),
            1);
        QVERIFY2(err.contains(QStringLiteral("energy")), qPrintable(err));
    }
    void figuresAll() {
        pl::test::figuresExport(kPanel, kFast + QStringList{QStringLiteral("--dpi"), QStringLiteral("60")},
                                {"trajectory", "output", "step_size", "agent_log", "success_waste"});
    }
};

QTEST_GUILESS_MAIN(TestEmbodiedActCli)
#include "tst_embodied_act_cli.moc"
