// The prefetch-rag panel through the command line: a small run twice with one seed gives the same
// result with the keys; the shipped example (corpus + questions) runs retrieval on the
// user's documents; every bad file (tests/data/bad/prefetch-rag-*) exits 3 quickly naming the file
// (and the line for JSON errors) with no output; a corpus without questions is a usage error; every
// figure exports.
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

const QString kPanel = QStringLiteral("prefetch-rag");
const QStringList kSmall = {QStringLiteral("--set"), QStringLiteral("questions=12"), QStringLiteral("--set"),
                            QStringLiteral("train_answers=40")};

QString example(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/prefetch-rag/made-up-atlas/") +
           QString::fromLatin1(name);
}

} // namespace

class TestPrefetchRagCli : public QObject {
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
        QCOMPARE(a.labels.at("topk_doc").size(), size_t(12 * 3));
        QVERIFY(a.matrices.count("topk_score"));
        for (const char* p : {"norag", "sync", "fixed_window", "stale_query", "predictive", "oracle"}) {
            for (const char* m : {"latency_mean_", "ttft_mean_", "slot_accuracy_"})
                QVERIFY2(a.metrics.count(std::string(m) + p), p);
            QCOMPARE(a.vectors.at(std::string("ttft_") + p).size(), size_t(12));
        }
        for (const char* m : {"recall_at_k", "trigger_precision", "trigger_recall"})
            QVERIFY2(a.metrics.count(m), m);
    }

    void exampleCorpus() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), example("1-corpus.jsonl"),
                         QStringLiteral("--input"), example("2-questions.jsonl"), QStringLiteral("--out"),
                         dir.filePath("r.json")},
                        &err),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.metrics.at("empty_documents_skipped"), 1.0);
        QVERIFY(r.metrics.at("recall_at_k") > 0.9);
        QCOMPARE(r.labels.at("topk_doc").size() % 3, size_t(0));
    }

    void corpusNeedsQuestions() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), example("1-corpus.jsonl"),
                         QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("question")), qPrintable(err));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("prefetch-rag-*")}, 6);
        QString err;
        QTemporaryDir dir;
        runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/prefetch-rag-bad-json.jsonl"),
                QStringLiteral("--out"), dir.filePath("r.json")},
               &err);
        QVERIFY2(err.contains(QStringLiteral(":2")), qPrintable(err));
        runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/prefetch-rag-not-utf8.jsonl"),
                QStringLiteral("--out"), dir.filePath("r.json")},
               &err);
        QVERIFY2(err.contains(QStringLiteral("UTF-8")), qPrintable(err));
    }

    void figures() {
        pl::test::figuresExport(kPanel, kSmall,
                                {"gantt", "entropy", "lead_times", "pareto", "ttft", "triggers"});
    }
};

QTEST_GUILESS_MAIN(TestPrefetchRagCli)
#include "tst_prefetchrag_cli.moc"
