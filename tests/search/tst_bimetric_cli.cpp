// The bimetric-ann panel through the command line: a small run twice with one seed gives the same
// result with the keys; the shipped example (four files, .npy and .fvecs) runs; every bad
// file (tests/data/bad/bimetric-ann-*) exits 3 quickly naming the file, NaN rows with their row as
// the line; four files whose row counts or dimensions disagree exit 3 naming the odd file; three
// files are a usage error; every figure exports.
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

const QString kPanel = QStringLiteral("bimetric-ann");
const QStringList kSmall = {QStringLiteral("--set"), QStringLiteral("n=800"),
                            QStringLiteral("--set"), QStringLiteral("queries=15"),
                            QStringLiteral("--set"), QStringLiteral("quota=300")};

QString example(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/bimetric-ann/mlp-features/") +
           QString::fromLatin1(name);
}

QString data(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bimetric/") + QString::fromLatin1(name);
}

QStringList inputs(const QStringList& files) {
    QStringList a;
    for (const QString& f : files)
        a << QStringLiteral("--input") << f;
    return a;
}

} // namespace

class TestBimetricCli : public QObject {
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
        for (const char* m : {"ours", "rerank", "single"}) {
            QCOMPARE(a.matrices.at(std::string("neighbors_") + m).rows, int64_t(15));
            QCOMPARE(a.vectors.at(std::string("expensive_calls_") + m).size(), size_t(15));
            QVERIFY(a.metrics.count(std::string("recall_") + m));
            QVERIFY(!a.series.at(std::string("recall_vs_quota_") + m).x.empty());
        }
        QVERIFY(a.metrics.count("distortion"));
    }

    void exampleFourFiles() {
        QTemporaryDir dir;
        QString err;
        const QStringList files = {example("1-base-expensive.npy"), example("2-base-proxy.npy"),
                                   example("3-queries-expensive.fvecs"), example("4-queries-proxy.fvecs")};
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), kPanel} + inputs(files) +
                            QStringList{QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.metrics.at("base_rows"), 1200.0);
        QCOMPARE(r.matrices.at("neighbors_ours").rows, int64_t(40));
        QVERIFY(r.metrics.at("recall_ours") >= r.metrics.at("recall_rerank"));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("bimetric-ann-*")}, 6, {},
                                [](const QString& f) { return f.contains(QStringLiteral("nan")); });
    }

    void mismatchedSetsExit3() {
        const QString be = example("1-base-expensive.npy"), bp = example("2-base-proxy.npy"),
                      qe = example("3-queries-expensive.fvecs"), qp = example("4-queries-proxy.fvecs");
        struct Case {
            QStringList files;
            QString named;
        };
        const QList<Case> cases = {
            {{be, data("base-proxy-short.npy"), qe, qp}, QStringLiteral("base-proxy-short.npy")},
            {{be, bp, data("queries-expensive-wide.fvecs"), qp},
             QStringLiteral("queries-expensive-wide.fvecs")},
            {{be, bp, qe, data("queries-proxy-short.fvecs")}, QStringLiteral("queries-proxy-short.fvecs")},
        };
        for (const Case& c : cases) {
            QTemporaryDir dir;
            QString err;
            QCOMPARE(runCli(QStringList{QStringLiteral("run"), kPanel} + inputs(c.files) +
                                QStringList{QStringLiteral("--out"), dir.filePath("r.json")},
                            &err),
                     3);
            QVERIFY2(err.contains(c.named) && err.contains(QStringLiteral("mismatch")), qPrintable(err));
            QVERIFY(!QFile::exists(dir.filePath("r.json")));
        }
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), kPanel} + inputs({be, bp, qe}) +
                        QStringList{QStringLiteral("--out"), dir.filePath("r.json")}),
                 1);
    }

    void figures() { pl::test::figuresExport(kPanel, kSmall, {"recall", "explorer", "ratio_hist"}); }
};

QTEST_GUILESS_MAIN(TestBimetricCli)
#include "tst_bimetric_cli.moc"
