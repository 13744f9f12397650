// The fedgr-noisy-labels panel through the command line: a small run twice with one seed gives
// the same result with the keys; every bad file of the panel (tests/data/bad/
// fedgr-noisy-labels-*) exits 3 quickly with file:line in the message and no output; an IDX count
// mismatch names both counts; the example inputs run; every figure exports.
#include "RobustCliSupport.h"
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kPanel = QStringLiteral("fedgr-noisy-labels");
const QStringList kSmall = {
    "--set", "clients=4", "--set", "samples_per_client=60", "--set", "test_samples=200", "--set", "width=16",
    "--set", "rounds=4",  "--set", "warmup_rounds=2",       "--set", "local_epochs=1"};

QString src(const char* rel) {
    return pl::test::sourcePath(rel);
}

int runInputs(const QStringList& files, QString* err, const QString& out) {
    return pl::test::runPanelInputs(kPanel, files, kSmall, err, out);
}

} // namespace

class TestFedGrCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void deterministicWithKeys() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--seed"), QStringLiteral("3")} +
            kSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const std::string m : {"fedavg", "fedprox", "local_sieve", "centralised", "fedgr",
                                    "fedgr_no_sieve", "fedgr_no_ema", "fedgr_no_rep"}) {
            QVERIFY2(a.series.count("test_acc_" + m), m.c_str());
            QVERIFY2(a.metrics.count("test_acc_" + m), m.c_str());
        }
        for (const char* k : {"memorisation_global", "memorisation_centralised"})
            QVERIFY2(a.series.count(k), k);
        for (const char* k :
             {"true_noise", "noise_estimate", "sieve_precision", "sieve_recall", "sieve_loss", "p_clean"})
            QVERIFY2(a.vectors.count(k), k);
        QVERIFY(a.labels.count("client"));
        for (const char* k : {"gmm_weight_clean", "gmm_mean_clean", "gmm_var_clean", "gmm_mean_noisy",
                              "gmm_var_noisy", "noise_corr"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.matrices.count("client_class_counts") && a.matrices.count("noise_transition"));
        QCOMPARE(a.claims.size(), size_t(4));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("fedgr-noisy-labels-*")}, 8, kSmall,
                                [](const QString&) { return true; });
    }

    void idxMismatchNamesBothCounts() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runInputs(
                     {src("tests/data/robusttrain/images-5.idx"), src("tests/data/robusttrain/labels-4.idx")},
                     &err, dir.filePath("r.json")),
                 3);
        QVERIFY2(err.contains("5 images") && err.contains("4 labels") && err.contains("labels-4.idx"),
                 qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
    }

    void examplesRun() {
        QTemporaryDir dir;
        QString err;
        // Clients, clean labels and a split given by the file: nothing injected, truth measured.
        QCOMPARE(runInputs({src("resources/examples/fedgr-noisy-labels/noisy-clients.csv")}, &err,
                           dir.filePath("c.json")),
                 0);
        const auto d = readResult(dir.filePath("c.json"));
        QCOMPARE(d.vectors.at("true_noise").size(), size_t(5));
        QVERIFY(d.vectors.at("true_noise").back() > d.vectors.at("true_noise").front());
        QVERIFY(d.metrics.at("test_acc_centralised") > 0.5);
        const QString g = src("resources/examples/fedgr-noisy-labels/glyphs-idx/");
        QCOMPARE(runInputs({g + "1-images.idx", g + "2-labels.idx"}, &err, dir.filePath("g.json")), 0);
        QVERIFY(readResult(dir.filePath("g.json")).metrics.count("test_acc_fedgr"));
    }

    void figuresExport() {
        QTemporaryDir dir;
        QString err;
        const int code = runCli(QStringList{QStringLiteral("figure"), kPanel, QStringLiteral("all")} +
                                    kSmall + QStringList{QStringLiteral("--out"), dir.path()},
                                &err);
        if (code == 5 && err.contains(QStringLiteral("frontend")))
            QSKIP("no frontend module in this build");
        QVERIFY2(code == 0, qPrintable(err));
        for (const char* f : {"test_accuracy", "memorisation", "noise_estimate", "loss_histogram",
                              "sieve_quality", "client_class_counts", "noise_transition"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestFedGrCli)
#include "tst_fedgr_cli.moc"
