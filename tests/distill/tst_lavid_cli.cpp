// The lavid-distillation panel through the command line: a small run twice with one seed gives the
// same result with the keys; every bad file of the panel (tests/data/bad/
// lavid-distillation-*) exits 3 quickly with the file name and line in the message and no output;
// classes missing from the signatures exit 3 listing them; the example set runs with the test rows
// in file order; every figure exports.
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

const QString kPanel = QStringLiteral("lavid-distillation");
const QStringList kSmall = {"--set", "classes=6",         "--set", "images_per_class=10",
                            "--set", "test_per_class=10", "--set", "epochs=3",
                            "--set", "student_inits=1",   "--set", "sweeps=false"};

QString src(const char* rel) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/") + QString::fromLatin1(rel);
}

int runInputs(const QStringList& files, QString* err, const QString& out) {
    QStringList args{QStringLiteral("run"), kPanel};
    for (const QString& f : files)
        args << QStringLiteral("--input") << f;
    return runCli(args + kSmall + QStringList{QStringLiteral("--out"), out}, err);
}

} // namespace

class TestLavidCli : public QObject {
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
        auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        a.metrics.erase("ms_per_student");
        b.metrics.erase("ms_per_student");
        QCOMPARE(a.toJson(), b.toJson());
        for (const std::string m : {"ce", "kd", "lavid", "kd_lavid", "random_signature"}) {
            QVERIFY2(a.metrics.count("test_acc_" + m), m.c_str());
            QVERIFY(a.metrics.count("worst_group_acc_" + m));
            QVERIFY(a.labels.count("pred_" + m));
        }
        for (const char* k : {"signatures", "signature_similarity", "feature_similarity"})
            QVERIFY2(a.matrices.count(k), k);
        QVERIFY(a.vectors.count("probe_acc"));
        QCOMPARE(a.claims.size(), size_t(3));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("lavid-distillation-*")}, 6, kSmall,
                                [](const QString&) { return true; });
    }

    void missingClassesListed() {
        QTemporaryDir dir;
        QFile s(dir.filePath("partial.json"));
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write("{\"blue_jay\": [[1, 0, 0, 0]], \"gull\": [[0, 1, 0, 0]]}\n");
        s.close();
        QString err;
        const QString ex = src("resources/examples/lavid-distillation/six-classes/3-features.csv");
        QCOMPARE(runInputs({s.fileName(), ex}, &err, dir.filePath("r.json")), 3);
        QVERIFY2(err.contains("missing from the signatures") && err.contains("cardinal") &&
                     err.contains("heron") && err.contains("pelican") && err.contains("sparrow"),
                 qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
    }

    void exampleSetRuns() {
        QTemporaryDir dir;
        QString err;
        const QString ex = src("resources/examples/lavid-distillation/six-classes/");
        // Default epochs (30): the 120 training rows are quick.
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), ex + "1-signatures.json",
                         QStringLiteral("--input"), ex + "2-questions.txt", QStringLiteral("--input"),
                         ex + "3-features.csv", QStringLiteral("--set"), QStringLiteral("student_inits=1"),
                         QStringLiteral("--out"), dir.filePath("e.json")},
                        &err),
                 0);
        const auto d = readResult(dir.filePath("e.json"));
        QCOMPARE(d.labels.at("pred_ce").size(), size_t(120)); // 20 test rows per class
        QCOMPARE(d.matrices.at("signatures").rows, int64_t(6));
        QCOMPARE(d.matrices.at("signatures").cols, int64_t(32));
        QCOMPARE(d.matrices.at("signatures").rowLabels.front(), std::string("blue_jay"));
        QVERIFY(d.metrics.at("test_acc_ce") > 0.5); // six separable classes, above 1/6
        QVERIFY(!d.series.count("lavid_gain_vs_teacher_noise"));
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
        for (const char* f : {"signatures", "signature_similarity", "feature_similarity", "acc_vs_images",
                              "method_accuracy", "probe_accuracy", "gain_vs_noise", "training_loss"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestLavidCli)
#include "tst_lavid_cli.moc"
