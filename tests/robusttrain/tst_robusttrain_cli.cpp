// The dwp-cim-robustness panel through the command line: a small run twice with one seed gives
// the same result with the keys; every bad file of the panel (tests/data/bad/
// dwp-cim-robustness-*) exits 3 quickly with the file name (and line) in the message and no output;
// an IDX count mismatch and a layer of the wrong shape exit 3 naming the file; a user's MLP is
// evaluated; every figure exports.
#include "RobustCliSupport.h"
#include "common/CliPanelChecks.h"
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

const QString kPanel = QStringLiteral("dwp-cim-robustness");
const QStringList kSmall = {"--set", "train_samples=400", "--set", "test_samples=200",
                            "--set", "epochs=3",          "--set", "eval_draws=3"};

QString src(const char* rel) {
    return pl::test::sourcePath(rel);
}

int runInputs(const QStringList& files, QString* err, const QString& out) {
    return pl::test::runPanelInputs(kPanel, files, kSmall, err, out);
}

} // namespace

class TestRobustTrainCli : public QObject {
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
        for (const std::string m : {"standard", "noise_injection", "r_average", "dwp"}) {
            for (const std::string k : {"acc_vs_sigma_", "acc_sd_vs_sigma_", "acc_vs_time_"})
                QVERIFY2(a.series.count(k + m), (k + m).c_str());
            QVERIFY(a.metrics.count("acc_clean_" + m));
            QCOMPARE(a.series.at("acc_vs_time_" + m).x,
                     (std::vector<double>{1, 3600, 86400, 2592000, 31536000}));
        }
        QVERIFY(a.matrices.count("disagreement_histogram"));
        QCOMPARE(a.claims.size(), size_t(4));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(
            kPanel, {QStringLiteral("dwp-cim-robustness-*")}, 6, kSmall, [](const QString& f) {
                return f.endsWith(QLatin1String(".csv")) && !f.contains(QLatin1String("alone"));
            });
    }

    void idxMismatchAndLayerShape() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runInputs(
                     {src("tests/data/robusttrain/images-5.idx"), src("tests/data/robusttrain/labels-4.idx")},
                     &err, dir.filePath("r.json")),
                 3);
        QVERIFY2(err.contains("5 images") && err.contains("4 labels") && err.contains("labels-4.idx"),
                 qPrintable(err));
        QCOMPARE(runInputs({src("resources/examples/dwp-cim-robustness/three-blobs.csv"),
                            src("tests/data/robusttrain/layer-bad-shape.csv")},
                           &err, dir.filePath("r.json")),
                 3);
        QVERIFY2(err.contains("layer-bad-shape.csv:1:") && err.contains("layer 1"), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
    }

    void userMlpIsEvaluated() {
        QTemporaryDir dir;
        QString err;
        const QString ex = src("resources/examples/dwp-cim-robustness/user-mlp/");
        QCOMPARE(runInputs({ex + "1-data.csv", ex + "2-layer1.csv", ex + "3-layer2.csv"}, &err,
                           dir.filePath("u.json")),
                 0);
        const auto d = readResult(dir.filePath("u.json"));
        // The hand-built nearest-centre classifier on three well separated blobs.
        QVERIFY(d.metrics.at("acc_clean_user") > 0.9);
        QCOMPARE(d.series.at("acc_vs_sigma_user").y.front(), d.metrics.at("acc_clean_user"));
        QVERIFY(!d.metrics.count("acc_clean_dwp"));
        // The IDX example trains (3 epochs on 160 rows: above the 10-class chance level).
        const QString g = src("resources/examples/dwp-cim-robustness/glyphs-idx/");
        QCOMPARE(runInputs({g + "1-images.idx", g + "2-labels.idx"}, &err, dir.filePath("g.json")), 0);
        QVERIFY(readResult(dir.filePath("g.json")).metrics.at("acc_clean_standard") > 0.2);
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
        for (const char* f : {"acc_vs_sigma", "acc_vs_time", "disagreement", "decisions_standard",
                              "decisions_dwp", "training_loss"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestRobustTrainCli)
#include "tst_robusttrain_cli.moc"
