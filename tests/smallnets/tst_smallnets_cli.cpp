// The continual-forgetting and eefp-early-exit panels through the command line: a small run twice
// with one seed gives the same result with the keys; every bad file of the panel
// (tests/data/bad/<panel>-*) exits 3 quickly with the file name in the message and no output;
// the shipped examples run; every figure exports.
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

QStringList sets(std::initializer_list<const char*> kv) {
    QStringList out;
    for (const char* s : kv)
        out << QStringLiteral("--set") << QString::fromLatin1(s);
    return out;
}

const QStringList kEefpSmall = sets({"samples=2000", "eval_samples=1000", "epochs=2", "thresholds=20"});

const QStringList kForgetSmall =
    sets({"d=8", "n=60", "width=6", "iters=40", "check_claims=false", "sweep=sigma"});

void badFilesExit3(const QString& panel, const QStringList& patterns, int minimum) {
    const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
    const QStringList files = bad.entryList(patterns, QDir::Files);
    QVERIFY(files.size() >= minimum);
    for (const QString& f : files) {
        QTemporaryDir dir;
        QString err;
        QElapsedTimer t;
        t.start();
        const int code = runCli({QStringLiteral("run"), panel, QStringLiteral("--input"), bad.filePath(f),
                                 QStringLiteral("--out"), dir.filePath("r.json")},
                                &err);
        QVERIFY2(code == 3,
                 qPrintable(f + QStringLiteral(": exit ") + QString::number(code) + QLatin1Char(' ') + err));
        QVERIFY2(err.contains(f), qPrintable(err));
        QVERIFY2(t.elapsed() < 5000, qPrintable(f));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
    }
}

void figuresExport(const QString& panel, const QStringList& extra, std::initializer_list<const char*> ids) {
    QTemporaryDir dir;
    QString err;
    const int code = runCli(QStringList{QStringLiteral("figure"), panel, QStringLiteral("all")} + extra +
                                QStringList{QStringLiteral("--out"), dir.path()},
                            &err);
    if (code == 5 && err.contains(QStringLiteral("frontend")))
        QSKIP("no frontend module in this build");
    QVERIFY2(code == 0, qPrintable(err));
    for (const char* f : ids)
        QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
}

} // namespace

class TestSmallnetsCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void forgettingIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("continual-forgetting"),
                                               QStringLiteral("--seed"), QStringLiteral("7")} +
                                   kForgetSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.panel, std::string("continual-forgetting"));
        for (const char* k : {"w_init", "q_final", "train_loss", "test_loss"})
            QVERIFY2(a.matrices.count(k), k);
        for (const char* k : {"forgetting_train", "forgetting_test"}) {
            QVERIFY2(a.metrics.count(k), k);
            QVERIFY2(a.vectors.count(k), k);
        }
        for (const char* k : {"train_loss_task_1", "train_loss_task_3", "forgetting_vs_sigma"})
            QVERIFY2(a.series.count(k), k);
        // w_init survives the JSON round trip bit for bit (the run can be replayed from it).
        QCOMPARE(a.matrices.at("w_init").rows, int64_t(6));
        QCOMPARE(a.matrices.at("w_init").cols, int64_t(8));
    }

    void forgettingBadFilesExit3() {
        badFilesExit3(QStringLiteral("continual-forgetting"), {"continual-forgetting-*.csv"}, 4);
    }

    void forgettingTrainAndTestFiles() {
        const QString ex =
            QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/continual-forgetting/three-xor-tasks/");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(
            runCli({QStringLiteral("run"), QStringLiteral("continual-forgetting"), QStringLiteral("--input"),
                    ex + "1-train.csv", QStringLiteral("--input"), ex + "2-test.csv", QStringLiteral("--set"),
                    QStringLiteral("iters=50"), QStringLiteral("--out"), dir.filePath("r.json")},
                   &err),
            0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.matrices.at("q_final").rows, int64_t(8));
        QCOMPARE(d.matrices.at("train_loss").rows, int64_t(3));
        QCOMPARE(d.inputs.size(), size_t(2));
        // Train and test losses differ (two different files).
        QVERIFY(d.matrices.at("train_loss").data != d.matrices.at("test_loss").data);
    }

    void forgettingFigures() {
        figuresExport(
            QStringLiteral("continual-forgetting"), kForgetSmall,
            {"loss_curves", "q_matrix", "forgetting_sweep", "train_vs_test", "loss_matrix", "task_overlap"});
    }

    void eefpIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("eefp-early-exit"),
                                               QStringLiteral("--seed"), QStringLiteral("5")} +
                                   kEefpSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k : {"accuracy", "ece", "fp_auroc", "eefp", "temperature", "ece_ts"})
            QVERIFY2(a.vectors.count(k), k);
        QCOMPARE(a.vectors.at("eefp").size(), a.vectors.at("accuracy").size() - 1);
        for (const char* k : {"eefp", "acc_at_budget_raw", "acc_at_budget_ts", "acc_at_budget_eefp"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* k :
             {"acc_vs_flops_raw", "acc_vs_flops_ts", "acc_vs_flops_eefp", "acc_vs_flops_oracle"}) {
            QVERIFY2(a.series.count(k), k);
            QCOMPARE(int(a.series.at(k).x.size()), 21); // thresholds = 20: t_i = i / 20, i = 0..20
        }
    }

    void eefpBadFilesExit3() {
        badFilesExit3(QStringLiteral("eefp-early-exit"), {"eefp-early-exit-*.eenn.json"}, 4);
    }

    void eefpExampleWithArrays() {
        const QString ex =
            QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/eefp-early-exit/synthetic-4-exits/");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("eefp-early-exit"), QStringLiteral("--input"),
                         ex + "1-network.eenn.json", QStringLiteral("--input"), ex + "labels.npy",
                         QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.inputs.size(), size_t(2));
        QCOMPARE(d.vectors.at("accuracy").size(), size_t(4));
        QCOMPARE(d.metrics.at("calibration_rows"), 100.0);
        // An array the manifest does not name is refused.
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("eefp-early-exit"), QStringLiteral("--input"),
                         ex + "1-network.eenn.json", QStringLiteral("--input"),
                         QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/nan.npy"),
                         QStringLiteral("--out"), dir.filePath("s.json")}),
                 3);
    }

    void eefpFigures() {
        figuresExport(QStringLiteral("eefp-early-exit"), kEefpSmall,
                      {"acc_vs_flops", "exit_table", "ece_vs_area", "eefp_vs_area", "reliability",
                       "reliability_ts", "training_loss"});
    }
};

QTEST_GUILESS_MAIN(TestSmallnetsCli)
#include "tst_smallnets_cli.moc"
