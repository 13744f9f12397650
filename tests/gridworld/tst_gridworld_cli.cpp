// The deepha-agent panel through the command line: one seed gives the same result with the keys of
// the issue, the example map with an unreachable diamond marks that task infeasible with a warning,
// the example recipe book and map run as one set, every bad recipe book or map of tests/data/bad
// exits 3 quickly with file:line and no output left, and `paperlab figure deepha-agent all` writes
// every figure.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kPanel = QStringLiteral("deepha-agent");
const QStringList kFast{QStringLiteral("--set"), QStringLiteral("demos_per_task=5"),
                        QStringLiteral("--set"), QStringLiteral("iterations=40"),
                        QStringLiteral("--set"), QStringLiteral("hidden=32"),
                        QStringLiteral("--set"), QStringLiteral("eval_maps=1"),
                        QStringLiteral("--set"), QStringLiteral("episode_cap=100")};
const QString kExamples = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/deepha-agent");

} // namespace

class TestGridworldCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }
    void deterministicWithKeys() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--seed"), QStringLiteral("7")} +
            kFast + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.graphs.count("tech_tree"));
        for (const char* k : {"subgoals", "feasible", "expert_success"})
            QVERIFY2(a.vectors.count(k) && a.vectors.at(k).size() == 13, k);
        for (const char* k :
             {"success_direct_4plus", "success_ha_decoupled_4plus", "success_coa_greedy_4plus",
              "success_coa_eager_4plus", "context_reduction", "compression_success_drop"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* k : {"context_tokens_full", "context_tokens_compressed"})
            QVERIFY2(a.series.count(k), k);
        for (const char* c : {"coa-beats-direct", "compression", "coa-vs-ha"}) {
            bool found = false;
            for (const auto& cl : a.claims)
                found = found || cl.id == c;
            QVERIFY2(found, c);
        }
    }
    void infeasibleTaskWarns() {
        QTemporaryDir dir;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--set"), QStringLiteral("stage=plan"),
                         QStringLiteral("--input"), kExamples + QStringLiteral("/river-crossing.txt"),
                         QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        const auto& f = d.vectors.at("feasible");
        QCOMPARE(f.back(), 0.0); // diamond: its tile touches no reachable grass
        QCOMPARE(f.front(), 1.0);
        QCOMPARE(d.metrics.at("infeasible_tasks"), 1.0);
        bool warned = false;
        for (const auto& n : d.notes)
            warned = warned || n.find("'diamond' is infeasible") != std::string::npos;
        QVERIFY(warned);
    }
    void recipeBookAndMapAsOneSet() {
        QTemporaryDir dir;
        QCOMPARE(
            runCli(QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                               kExamples + QStringLiteral("/bronze-age/recipes.json"),
                               QStringLiteral("--input"), kExamples + QStringLiteral("/bronze-age/map.txt")} +
                   kFast + QStringList{QStringLiteral("--out"), dir.filePath("r.json")}),
            0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.vectors.at("subgoals"), (std::vector<double>{2, 5, 6, 5, 8}));
        QCOMPARE(d.graphs.at("tech_tree").nodes.size(), size_t(8));
        QCOMPARE(d.metrics.at("expert_success_rate"), 1.0);
    }
    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("deepha-agent-*")}, 6,
                                {QStringLiteral("--set"), QStringLiteral("stage=plan")});
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        for (const QString& name : bad.entryList({QStringLiteral("deepha-agent-*")}, QDir::Files)) {
            QString err;
            QTemporaryDir dir;
            runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), bad.filePath(name),
                    QStringLiteral("--out"), dir.filePath("r.json")},
                   &err);
            QVERIFY2(
                err.contains(QRegularExpression(QRegularExpression::escape(name) + QStringLiteral(":\\d+"))),
                qPrintable(err));
        }
    }
    void figuresAll() {
        pl::test::figuresExport(kPanel, kFast + QStringList{QStringLiteral("--dpi"), QStringLiteral("60")},
                                {"grid_replay", "token_timeline", "success_by_subgoals", "context_tokens",
                                 "skill_confusion", "tech_tree", "bc_loss"});
    }
};

QTEST_GUILESS_MAIN(TestGridworldCli)
#include "tst_gridworld_cli.moc"
