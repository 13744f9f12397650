// The visual-persuasion panel through the command line: a small run twice with one seed gives the
// same result with the keys; every bad choice log (tests/data/bad/visual-persuasion-*)
// exits 3 naming itself with file:line and the reason; the shipped example log runs and yields the
// log keys; every figure exports.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QStringList kSmall = {"--set", "queries=400", "--set", "iterations=10",
                            "--set", "bootstrap=5", "--set", "eval_duels=100"};

const QString kPanel = QStringLiteral("visual-persuasion");

} // namespace

class TestPersuasionCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void deterministicWithKeys() {
        QTemporaryDir dir;
        const QStringList common = QStringList{"run", kPanel, "--seed", "5"} + kSmall + QStringList{"--out"};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const pl::ResultDocument a = readResult(dir.filePath("a.json")),
                                 b = readResult(dir.filePath("b.json"));
        for (const char* v : {"bt_coef", "true_coef"})
            QVERIFY2(a.vectors.count(v), v);
        for (const char* m :
             {"spearman_bt_true", "duels", "duel_wins", "win_rate", "win_rate_lcb", "win_rate_normalised"})
            QVERIFY2(a.metrics.count(m), m);
        QVERIFY(a.series.count("win_rate_vs_iteration"));
        QCOMPARE(a.metrics.at("duels"), 100.0);
        QCOMPARE(a.vectors.at("bt_coef"), b.vectors.at("bt_coef"));
        QCOMPARE(a.metrics.at("win_rate"), b.metrics.at("win_rate"));
    }

    void badFilesExit3() { pl::test::badFilesExit3(kPanel, {"visual-persuasion-*"}, 5, kSmall); }

    void badFilesNameTheLine() {
        const QString bad = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/");
        const std::pair<const char*, const char*> cases[] = {
            {"visual-persuasion-bad-header.csv:1", "header"},
            {"visual-persuasion-bad-chosen.csv:3", "chosen must be a or b"},
            {"visual-persuasion-bad-order.csv:3", "order must be ab or ba"},
            {"visual-persuasion-field-count.csv:3", "expected 4 fields"},
            {"visual-persuasion-self-duel.csv:3", "against itself"},
        };
        for (const auto& [where, why] : cases) {
            QTemporaryDir dir;
            QString err;
            const QString file = bad + QString::fromLatin1(where).section(QLatin1Char(':'), 0, 0);
            QCOMPARE(
                runCli(QStringList{"run", kPanel, "--input", file, "--out", dir.filePath("r.json")} + kSmall,
                       &err),
                3);
            QVERIFY2(err.contains(QLatin1String(where)) && err.contains(QLatin1String(why)), qPrintable(err));
        }
    }

    void exampleRuns() {
        QTemporaryDir dir;
        const QString ex =
            QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/visual-persuasion/agent-choices.csv");
        QCOMPARE(runCli(QStringList{"run", kPanel, "--input", ex} + kSmall +
                        QStringList{"--out", dir.filePath("r.json")}),
                 0);
        const pl::ResultDocument r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.vectors.at("bt_utility").size(), size_t(6));
        QCOMPARE(r.metrics.at("log_duels"), 180.0);
        QVERIFY(r.metrics.count("position_bias") && r.metrics.count("log_likelihood"));
        // Names sorted byte-wise: mug-beige-shadow (planted best) first, mug-dark (worst) third.
        QVERIFY(r.vectors.at("bt_utility")[0] > r.vectors.at("bt_utility")[2]);
    }

    void figuresExport() {
        pl::test::figuresExport(kPanel, kSmall,
                                {"images", "win_rate", "bt_coef", "coef_scatter", "pairwise", "position_bias",
                                 "normalisation", "log_utility"});
    }
};

QTEST_GUILESS_MAIN(TestPersuasionCli)
#include "tst_persuasion_cli.moc"
