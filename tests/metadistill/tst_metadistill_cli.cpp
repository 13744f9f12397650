// The metadistill-bbo panel through the command line: a small run twice with one seed gives the same
// result with the keys; stage = teacher runs CMA-ES alone; the shipped teacher-trajectory
// example distils; every bad file (tests/data/bad/metadistill-bbo-*) exits 3 naming the file and the
// line; a file whose dimension differs from `dim` exits 3; every figure exports.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kPanel = QStringLiteral("metadistill-bbo");
const QStringList kSmall = {
    QStringLiteral("--set"),          QStringLiteral("dim=4"),    QStringLiteral("--set"),
    QStringLiteral("generations=30"), QStringLiteral("--set"),    QStringLiteral("popsize=12"),
    QStringLiteral("--set"),          QStringLiteral("epochs=2"), QStringLiteral("--set"),
    QStringLiteral("repeats=1"),      QStringLiteral("--set"),    QStringLiteral("ssft_steps=1")};

QString example() {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/metadistill-bbo/cmaes-teacher-d10.json");
}

} // namespace

class TestMetadistillCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void deterministicWithTheKeys() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--seed"), QStringLiteral("4")} +
            kSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* m : {"distilled", "scratch", "random", "cmaes"}) {
            QCOMPARE(a.vectors.at(std::string("final_log10_") + m).size(), size_t(6));
            QVERIFY2(a.metrics.count(std::string("median_final_log10_") + m), m);
        }
        QCOMPARE(a.vectors.at("cmaes_best_x").size(), size_t(4));
        QCOMPARE(a.vectors.at("x_opt").size(), size_t(4));
        QCOMPARE(a.matrices.at("rotation_r").rows, int64_t(4));
        QCOMPARE(a.matrices.at("rotation_q").rows, int64_t(4));
        QVERIFY(a.metrics.count("cmaes_best_f") && a.metrics.count("cmaes_evals_to_target"));
    }

    void teacherStage() {
        QTemporaryDir dir;
        QCOMPARE(
            runCli({QStringLiteral("run"), kPanel, QStringLiteral("--set"), QStringLiteral("stage=teacher"),
                    QStringLiteral("--set"), QStringLiteral("function=sphere"), QStringLiteral("--set"),
                    QStringLiteral("generations=200"), QStringLiteral("--out"), dir.filePath("r.json")}),
            0);
        const auto r = readResult(dir.filePath("r.json"));
        QVERIFY(r.metrics.at("cmaes_best_f") < 1e-8);
        QVERIFY(r.metrics.at("cmaes_evals_to_target") > 0);
        QVERIFY(!r.vectors.count("final_log10_distilled"));
    }

    void exampleTeacherFile() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), example(),
                         QStringLiteral("--set"), QStringLiteral("epochs=2"), QStringLiteral("--set"),
                         QStringLiteral("repeats=1"), QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QVERIFY(!r.notes.empty());
        QCOMPARE(r.series.at("loss_kl").y.size(), size_t(2));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("metadistill-bbo-*")}, 5, kSmall,
                                [](const QString&) { return true; });
        QString err;
        QTemporaryDir dir;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), example(),
                         QStringLiteral("--set"), QStringLiteral("dim=5"), QStringLiteral("--out"),
                         dir.filePath("r.json")},
                        &err),
                 3);
        QVERIFY2(err.contains(QStringLiteral("dimension mismatch")), qPrintable(err));
    }

    void figures() {
        pl::test::figuresExport(kPanel, kSmall, {"convergence", "clouds", "ecdf", "losses", "weights"});
    }
};

QTEST_GUILESS_MAIN(TestMetadistillCli)
#include "tst_metadistill_cli.moc"
