// The fafo-decoding panel through the command line: a small run twice with one seed gives the
// same result with the keys; every bad file (tests/data/bad/fafo-decoding-*) exits 3
// quickly naming the file (and the line for prompt files) with no output; the shipped examples
// run (a user transformer with its prompts stays lossless); every figure exports.
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

const QStringList kSmall = {QStringLiteral("--set"), QStringLiteral("prompts=2"),
                            QStringLiteral("--set"), QStringLiteral("gen_len=32"),
                            QStringLiteral("--set"), QStringLiteral("sweep_prompts=1"),
                            QStringLiteral("--set"), QStringLiteral("copy_max=150")};

} // namespace

class TestTinyLmCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void fafoIsDeterministicWithTheKeys() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("fafo-decoding"),
                                               QStringLiteral("--seed"), QStringLiteral("3")} +
                                   kSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.labels, b.labels);
        QCOMPARE(a.metrics, b.metrics);
        for (const char* k :
             {"tokens_ar", "tokens_lookahead", "tokens_fafo", "tokens_lossy", "tokens_selfspec"}) {
            QVERIFY2(a.labels.count(k), k);
            QCOMPARE(a.labels.at(k).size(), size_t(64)); // gen_len per prompt, 2 prompts
        }
        for (const char* k :
             {"tokens_per_forward_fafo", "tokens_per_forward_lookahead", "tokens_per_forward_selfspec",
              "lossless", "lossy_mismatch", "speedup_model_fafo"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* k :
             {"speedup_vs_budget_streaming", "speedup_vs_budget_quest", "speedup_vs_budget_h2o"})
            QVERIFY2(a.series.count(k), k);
        QVERIFY(a.matrices.count("step_mask"));
        QCOMPARE(a.metrics.at("lossless"), 1.0);
    }

    void badFilesExit3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const QStringList files = bad.entryList({"fafo-decoding-*"}, QDir::Files);
        QVERIFY(files.size() >= 10);
        for (const QString& f : files) {
            QTemporaryDir dir;
            QString err;
            QElapsedTimer t;
            t.start();
            const int code =
                runCli({QStringLiteral("run"), QStringLiteral("fafo-decoding"), QStringLiteral("--input"),
                        bad.filePath(f), QStringLiteral("--set"), QStringLiteral("prompts=1"),
                        QStringLiteral("--set"), QStringLiteral("gen_len=16"), QStringLiteral("--out"),
                        dir.filePath("r.json")},
                       &err);
            QVERIFY2(code == 3, qPrintable(f + QStringLiteral(": exit ") + QString::number(code) +
                                           QLatin1Char(' ') + err));
            QVERIFY2(err.contains(f), qPrintable(err));
            if (f.endsWith(QLatin1String(".txt")) && !f.contains(QLatin1String("too-long")))
                QVERIFY2(err.contains(QLatin1String(":2")), qPrintable(err)); // line 2 in every prompt file
            QVERIFY2(t.elapsed() < 10000, qPrintable(f));
            QVERIFY(!QFile::exists(dir.filePath("r.json")));
        }
    }

    void examplesRun() {
        const QString ex = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/fafo-decoding/");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("fafo-decoding"), QStringLiteral("--input"),
                         ex + "random-transformer/model.safetensors", QStringLiteral("--input"),
                         ex + "random-transformer/prompts.txt", QStringLiteral("--set"),
                         QStringLiteral("gen_len=48"), QStringLiteral("--set"), QStringLiteral("budget=16"),
                         QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 0);
        auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.inputs.size(), size_t(2));
        QCOMPARE(d.labels.at("tokens_fafo"), d.labels.at("tokens_ar"));
        QCOMPARE(d.labels.at("tokens_ar").size(), size_t(3 * 48));
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("fafo-decoding"), QStringLiteral("--input"),
                         ex + "copy-prompts.txt", QStringLiteral("--set"), QStringLiteral("gen_len=40"),
                         QStringLiteral("--set"), QStringLiteral("sweep=false"), QStringLiteral("--out"),
                         dir.filePath("s.json")},
                        &err),
                 0);
        d = readResult(dir.filePath("s.json"));
        QCOMPARE(d.labels.at("tokens_fafo"), d.labels.at("tokens_ar"));
        QVERIFY(d.metrics.at("tokens_per_forward_fafo") > 1.0);
    }

    void figuresExport() {
        QTemporaryDir dir;
        QString err;
        const int code = runCli(
            QStringList{QStringLiteral("figure"), QStringLiteral("fafo-decoding"), QStringLiteral("all")} +
                kSmall + QStringList{QStringLiteral("--out"), dir.path()},
            &err);
        if (code == 5 && err.contains(QStringLiteral("frontend")))
            QSKIP("no frontend module in this build");
        QVERIFY2(code == 0, qPrintable(err));
        for (const char* f : {"token_strip", "accept_lengths", "speedup_vs_budget", "tokens_per_forward",
                              "losslessness", "step_mask", "lossy_vs_fafo"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
    void specexitIsDeterministicWithTheKeys() {
        QTemporaryDir dir;
        const QStringList common = {QStringLiteral("run"),      QStringLiteral("specexit-decoding"),
                                    QStringLiteral("--seed"),   QStringLiteral("2"),
                                    QStringLiteral("--preset"), QStringLiteral("quick look"),
                                    QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.labels, b.labels);
        QCOMPARE(a.metrics, b.metrics);
        for (const char* k :
             {"mean_length_ar", "mean_length_sd", "mean_length_probe", "mean_length_specexit", "accuracy_sd",
              "accuracy_specexit", "length_reduction_vs_sd", "accuracy_drop_vs_sd", "latency_model_specexit",
              "acceptance_rate", "chi2_pvalue"})
            QVERIFY2(a.metrics.count(k), k);
        QCOMPARE(a.labels.at("tokens_greedy_ar"), a.labels.at("tokens_greedy_sd"));
        QCOMPARE(a.labels.at("tokens_greedy_ar").size(), size_t(20 * 64)); // gen_len per prompt
        QCOMPARE(a.labels.at("sd_samples").size(), size_t(500 * 2));
    }

    void specexitBadFilesExit3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const QStringList files = bad.entryList({"specexit-decoding-*"}, QDir::Files);
        QVERIFY(files.size() >= 5);
        for (const QString& f : files) {
            QTemporaryDir dir;
            QString err;
            const int code =
                runCli({QStringLiteral("run"), QStringLiteral("specexit-decoding"), QStringLiteral("--input"),
                        bad.filePath(f), QStringLiteral("--set"), QStringLiteral("traces=200"),
                        QStringLiteral("--out"), dir.filePath("r.json")},
                       &err);
            QVERIFY2(code == 3, qPrintable(f + QStringLiteral(": exit ") + QString::number(code) +
                                           QLatin1Char(' ') + err));
            QVERIFY2(err.contains(f), qPrintable(err));
            if (f.endsWith(QLatin1String(".txt")))
                QVERIFY2(err.contains(QLatin1String(":2")), qPrintable(err)); // line 2 in every prompt file
            QVERIFY(!QFile::exists(dir.filePath("r.json")));
        }
    }

    void specexitExamplesRun() {
        const QString ex = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/specexit-decoding/");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("specexit-decoding"),
                         QStringLiteral("--input"), ex + "random-mlp-lm/model.safetensors",
                         QStringLiteral("--input"), ex + "random-mlp-lm/prompts.txt", QStringLiteral("--set"),
                         QStringLiteral("gen_len=32"), QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 0);
        auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.labels.at("tokens_greedy_sd"), d.labels.at("tokens_greedy_ar"));
        QCOMPARE(d.labels.at("tokens_greedy_ar").size(), size_t(4 * 32));
        QVERIFY(!d.metrics.count("mean_length_specexit")); // exit off for a user target
        QVERIFY(d.metrics.at("chi2_pvalue") > 0.001);
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("specexit-decoding"),
                         QStringLiteral("--input"), ex + "trace-prompts.txt", QStringLiteral("--preset"),
                         QStringLiteral("quick look"), QStringLiteral("--out"), dir.filePath("s.json")},
                        &err),
                 0);
        d = readResult(dir.filePath("s.json"));
        QCOMPARE(d.labels.at("tokens_greedy_ar").size(), size_t(6 * 64));
        QVERIFY(d.metrics.count("accuracy_specexit"));
    }

    void specexitFiguresExport() {
        QTemporaryDir dir;
        QString err;
        const int code =
            runCli({QStringLiteral("figure"), QStringLiteral("specexit-decoding"), QStringLiteral("all"),
                    QStringLiteral("--preset"), QStringLiteral("quick look"), QStringLiteral("--set"),
                    QStringLiteral("sweep=true"), QStringLiteral("--out"), dir.path()},
                   &err);
        if (code == 5 && err.contains(QStringLiteral("frontend")))
            QSKIP("no frontend module in this build");
        QVERIFY2(code == 0, qPrintable(err));
        for (const char* f : {"token_stream", "signals", "accept_lengths", "method_length", "method_accuracy",
                              "method_latency", "theta_pareto", "theta_latency"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestTinyLmCli)
#include "tst_tinylm_cli.moc"
