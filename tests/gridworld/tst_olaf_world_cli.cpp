// The olaf-world panel through the command line: one seed gives the same result with the keys of the
// issue, the example clips with contexts and actions run as one set, every bad clip or label file of
// tests/data/bad exits 3 quickly (label files with file:line), clips of two frame sizes exit 3, and
// `paperlab figure olaf-world all` writes every figure.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kPanel = QStringLiteral("olaf-world");
const QStringList kFast{QStringLiteral("--set"), QStringLiteral("clips_per_context=20"),
                        QStringLiteral("--set"), QStringLiteral("iterations=120"),
                        QStringLiteral("--set"), QStringLiteral("hidden=32")};
const QString kExamples = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/olaf-world/three-rooms");
const QString kData = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/olaf-world");

} // namespace

class TestOlafWorldCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }
    void deterministicWithKeys() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--seed"), QStringLiteral("5")} +
            kFast + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k : {"phi_basis", "latent_baseline", "latent_aligned"})
            QVERIFY2(a.matrices.count(k), k);
        for (const char* k : {"cross_context_cosine_baseline", "cross_context_cosine_aligned",
                              "probe_transfer_baseline", "probe_transfer_aligned"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* p : {"phi", "phi_dim", "dz", "beta", "lambda_align", "window", "iterations",
                              "contexts", "distractors"}) {
            bool found = false;
            for (const auto& [k, v] : a.params)
                found = found || k == p;
            QVERIFY2(found, p);
        }
        // rows i·(T−1)+t: 4 contexts x 20 clips x 15 transitions
        QCOMPARE(a.matrices.at("latent_aligned").rows, int64_t(4 * 20 * 15));
    }
    void exampleSet() {
        QTemporaryDir dir;
        QString err;
        const int code = runCli(QStringList{QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                                            kExamples + "/1-clips.npy", QStringLiteral("--input"),
                                            kExamples + "/2-contexts.csv", QStringLiteral("--input"),
                                            kExamples + "/3-actions.csv"} +
                                    kFast + QStringList{QStringLiteral("--out"), dir.filePath("r.json")},
                                &err);
        QVERIFY2(code == 0, qPrintable(err));
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.metrics.at("context_count"), 3.0);
        QCOMPARE(r.metrics.at("labelled_transitions"), 216.0);
        QCOMPARE(r.matrices.at("phi_basis").rows, int64_t(144));
    }
    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("olaf-world-*")}, 5, {},
                                [](const QString& f) { return f.endsWith(QStringLiteral(".csv")); });
    }
    void frameSizesDifferExit3() {
        QTemporaryDir dir;
        QString err;
        const int code = runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                                 kData + "/size12.npy", QStringLiteral("--input"), kData + "/size10.npy",
                                 QStringLiteral("--out"), dir.filePath("r.json")},
                                &err);
        QCOMPARE(code, 3);
        QVERIFY2(err.contains(QStringLiteral("size10.npy")) && err.contains(QStringLiteral("differs")),
                 qPrintable(err));
    }
    void figuresAll() {
        pl::test::figuresExport(kPanel, kFast,
                                {"context_frames", "latents_baseline", "latents_aligned",
                                 "cross_context_cosine", "rollout_strip", "probe_bars", "label_efficiency",
                                 "losses"});
    }
};

QTEST_GUILESS_MAIN(TestOlafWorldCli)
#include "tst_olaf_world_cli.moc"
