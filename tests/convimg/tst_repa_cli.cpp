// The repa-physics panel through the command line: a small run twice with one seed gives the same
// result with the keys; every bad file (tests/data/bad/repa-physics-*) exits 3 naming
// itself; a source of the wrong shape and an incompatible source under task = joint exit 3 with
// the reason; a shipped example runs; every figure exports.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QStringList kSmall = {"--set", "iterations=100", "--set", "fields=32",
                            "--set", "steps=20",       "--set", "eval_samples=2"};

const QString kPanel = QStringLiteral("repa-physics");

void writeGrid(const QString& path, int n, double v) {
    std::ofstream f(path.toStdString());
    for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x)
            f << (x ? "," : "") << v;
        f << "\n";
    }
}

} // namespace

class TestRepaCli : public QObject {
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
        for (const char* m : {"k_field", "p_true", "residual_true", "p_generated"})
            QVERIFY2(a.matrices.count(m), m);
        for (const char* m : {"residual_gen_baseline", "residual_gen_repa", "inference_macs_baseline",
                              "inference_macs_repa", "head_macs"})
            QVERIFY2(a.metrics.count(m), m);
        QVERIFY(a.series.count("loss_baseline") && a.series.count("loss_repa"));
        QCOMPARE(a.matrices.at("p_generated").data, b.matrices.at("p_generated").data);
        QCOMPARE(a.metrics.at("residual_gen_repa"), b.metrics.at("residual_gen_repa"));
    }

    void badFilesExit3() { pl::test::badFilesExit3(kPanel, {"repa-physics-*"}, 4, kSmall); }

    void twoFileErrorsExit3() {
        QTemporaryDir dir;
        writeGrid(dir.filePath("k8.csv"), 8, 1.0);
        writeGrid(dir.filePath("f6.csv"), 6, 0.0);
        writeGrid(dir.filePath("f8.csv"), 8, 1.0);
        QString err;
        QCOMPARE(runCli(QStringList{"run", kPanel, "--input", dir.filePath("k8.csv"), "--input",
                                    dir.filePath("f6.csv")} +
                            kSmall + QStringList{"--out", dir.filePath("r.json")},
                        &err),
                 3);
        QVERIFY2(err.contains("f6.csv") && err.contains("6 x 6") && err.contains("8 x 8"), qPrintable(err));
        QCOMPARE(runCli(QStringList{"run", kPanel, "--set", "task=joint", "--input", dir.filePath("k8.csv"),
                                    "--input", dir.filePath("f8.csv")} +
                            kSmall + QStringList{"--out", dir.filePath("r.json")},
                        &err),
                 3);
        QVERIFY2(err.contains("f8.csv") && err.contains("compatible source"), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
    }

    void exampleRuns() {
        QTemporaryDir dir;
        const QString ex =
            QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/repa-physics/channels-with-wells/");
        QCOMPARE(
            runCli(QStringList{"run", kPanel, "--input", ex + "1-k.npy", "--input", ex + "2-source.csv"} +
                   kSmall + QStringList{"--out", dir.filePath("r.json")}),
            0);
        const pl::ResultDocument r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.metrics.at("grid"), 16.0);
    }

    void figuresExport() {
        pl::test::figuresExport(kPanel, kSmall,
                                {"k_field", "p_true", "p_generated", "p_generated_baseline", "residual_gen",
                                 "residual_true", "head_1", "head_2", "head_residual", "data_loss",
                                 "residual_curves", "error_vs_g"});
    }
};

QTEST_GUILESS_MAIN(TestRepaCli)
#include "tst_repa_cli.moc"
