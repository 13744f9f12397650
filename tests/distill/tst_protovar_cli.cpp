// The protovar-distillation panel through the command line: a small run twice with one seed gives
// the same result with the keys; every bad IDX file of the panel (tests/data/bad/
// protovar-distillation-*) exits 3 quickly with the file name and no output; PNG folders with mixed
// sizes or corrupt files exit 3 listing them; a class with fewer images than ipc exits 3; the
// example IDX set runs; every figure exports.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kPanel = QStringLiteral("protovar-distillation");
const QStringList kSmall = {"--set", "images_per_class=30",
                            "--set", "test_per_class=10",
                            "--set", "student_inits=1",
                            "--set", "ipc_sweep=false",
                            "--set", "ipc=2",
                            "--set", "generator_steps=20",
                            "--set", "student_steps=30",
                            "--set", "codebook=32"};

QString src(const char* rel) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/") + QString::fromLatin1(rel);
}

int runInputs(const QStringList& files, QString* err, const QString& out, const QStringList& extra = kSmall) {
    QStringList args{QStringLiteral("run"), kPanel};
    for (const QString& f : files)
        args << QStringLiteral("--input") << f;
    return runCli(args + extra + QStringList{QStringLiteral("--out"), out}, err);
}

} // namespace

class TestProtovarCli : public QObject {
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
        a.metrics.erase("ms_per_generated_image");
        b.metrics.erase("ms_per_generated_image");
        QCOMPARE(a.toJson(), b.toJson());
        for (const std::string m : {"protovar", "random_real", "selector_real", "var_unguided",
                                    "guided_random", "unguided_selector"})
            QVERIFY2(a.metrics.count("acc_" + m), m.c_str());
        QCOMPARE(a.labels.at("selected_real").size(), size_t(20));
        QVERIFY(a.series.count("pool_variance_vs_beta") && a.series.count("token_entropy_vs_scale"));
        QCOMPARE(a.claims.size(), size_t(1)); // IPC 1 and 10 not run: only the variance claim
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("protovar-distillation-*")}, 5, kSmall);
    }

    void badFoldersExit3() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runInputs({src("tests/data/protovar/mixed_sizes")}, &err, dir.filePath("r.json")), 3);
        QVERIFY2(err.contains("mixed image sizes") && err.contains("b/9_big.png (20 x 20)"), qPrintable(err));
        QCOMPARE(runInputs({src("tests/data/protovar/corrupt")}, &err, dir.filePath("r.json")), 3);
        QVERIFY2(err.contains("2 corrupt PNG") && err.contains("a/7_text.png") && err.contains("b/1.png"),
                 qPrintable(err));
        QCOMPARE(runInputs({src("tests/data/protovar/good")}, &err, dir.filePath("r.json"),
                           kSmall + QStringList{"--set", "ipc=11"}),
                 3);
        QVERIFY2(err.contains("fewer training images than ipc = 11"), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
        QCOMPARE(runInputs({src("tests/data/protovar/good")}, &err, dir.filePath("g.json")), 0);
        const auto d = readResult(dir.filePath("g.json"));
        bool notice = false;
        for (const std::string& n : d.notes)
            notice = notice || n.find("converted to grey") != std::string::npos;
        QVERIFY(notice);
    }

    void exampleSetRuns() {
        QTemporaryDir dir;
        QString err;
        const QString ex = src("resources/examples/protovar-distillation/glyphs-idx/");
        QCOMPARE(runInputs({ex + "1-train-images.idx3-ubyte", ex + "2-train-labels.idx1-ubyte",
                            ex + "3-test-images.idx3-ubyte", ex + "4-test-labels.idx1-ubyte"},
                           &err, dir.filePath("e.json")),
                 0);
        const auto d = readResult(dir.filePath("e.json"));
        QCOMPARE(d.labels.at("selected_real").size(), size_t(20));
        QVERIFY(d.metrics.at("classifier_test_acc") > 0.5); // ten separable glyph classes
        // an unpaired IDX file is refused
        QCOMPARE(runInputs({ex + "1-train-images.idx3-ubyte"}, &err, dir.filePath("u.json")), 3);
        QVERIFY2(err.contains("pairs"), qPrintable(err));
    }

    void figuresExport() {
        pl::test::figuresExport(kPanel, kSmall,
                                {"real_images", "prototype_ladder", "pool_selection",
                                 "partial_reconstructions", "phi_pca", "method_accuracy", "token_entropy",
                                 "variance_vs_beta"});
    }
};

QTEST_GUILESS_MAIN(TestProtovarCli)
#include "tst_protovar_cli.moc"
