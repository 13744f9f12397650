// The aporia-hallucination and negative-label-ood panels through the command line: one seed gives
// the same result with the issue's keys, the example inputs run, every bad file of tests/data/bad
// named "<panel>-*" exits 3 naming the file (and the line for JSONL, the array for NPZ) with no
// output left, and `paperlab figure <panel> all` writes every figure.
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

bool pluginBuilt(const QString& id) {
    QProcess p;
    p.start(pl::test::paperlabBinary(), {QStringLiteral("list")});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).contains(id + "\t");
}

const QStringList kAporiaFast{"--set", "prompts=40", "--set", "responses=12"};
const QStringList kOodFast{"--set", "images=200",   "--set", "negatives=200",
                           "--set", "concepts=100", "--set", "id_classes=10"};

} // namespace

class TestEmbedGeoCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void runsAreDeterministicWithTheIssueKeys() {
        QTemporaryDir dir;
        for (const auto& [panel, fast] :
             {std::pair<QString, QStringList>{"aporia-hallucination", kAporiaFast},
              {"negative-label-ood", kOodFast}}) {
            if (!pluginBuilt(panel))
                QSKIP("panel not built");
            const QStringList args = QStringList{"run", panel, "--seed", "7"} + fast + QStringList{"--out"};
            QCOMPARE(runCli(args + QStringList{dir.filePath(panel + "a.json")}), 0);
            QCOMPARE(runCli(args + QStringList{dir.filePath(panel + "b.json")}), 0);
            const auto a = readResult(dir.filePath(panel + "a.json")),
                       b = readResult(dir.filePath(panel + "b.json"));
            QCOMPARE(a.toJson(), b.toJson());
            if (panel == "aporia-hallucination") {
                QVERIFY(a.labels.count("predicted"));
                for (const char* k : {"fisher_score", "centroid_distance", "mean_cosine"})
                    QVERIFY2(a.vectors.count(k), k);
                for (const char* k : {"f1", "f1_knn_labels", "f1_lp_raw", "f1_densest_cluster"})
                    QVERIFY2(a.metrics.count(k), k);
                for (const char* m :
                     {"aporia_lp", "knn_labels", "logreg_labels", "lp_raw", "densest_cluster"})
                    QVERIFY2(a.series.count(std::string("f1_vs_labels_") + m), m);
            } else {
                for (const char* k :
                     {"score_neglabel", "score_kl", "score_renyi", "weights_kl", "weights_renyi"})
                    QVERIFY2(a.vectors.count(k), k);
                for (const char* k :
                     {"auroc_neglabel", "auroc_kl", "auroc_renyi", "fpr95_renyi", "ess_kl", "ess_renyi"})
                    QVERIFY2(a.metrics.count(k), k);
                QVERIFY(a.matrices.count("auroc_alpha_rho"));
            }
        }
    }

    void examplesRun() {
        for (const QString& panel :
             {QStringLiteral("aporia-hallucination"), QStringLiteral("negative-label-ood")}) {
            if (!pluginBuilt(panel))
                QSKIP("panel not built");
            const QDir ex(QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/") + panel);
            QStringList inputs;
            for (const QFileInfo& fi : ex.entryInfoList(QDir::Files, QDir::Name))
                inputs << "--input" << fi.absoluteFilePath();
            QVERIFY(!inputs.isEmpty());
            QTemporaryDir dir;
            QString err;
            QCOMPARE(runCli(QStringList{"run", panel} + inputs + QStringList{"--out", dir.filePath("r.json")},
                            &err),
                     0);
            QVERIFY2(readResult(dir.filePath("r.json")).claims.size() > 0, qPrintable(err));
        }
    }

    void badFiles_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("file");
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        for (const QString& panel :
             {QStringLiteral("aporia-hallucination"), QStringLiteral("negative-label-ood")})
            for (const QFileInfo& fi : bad.entryInfoList({panel + "-*"}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(fi.fileName())) << panel << fi.absoluteFilePath();
    }

    void badFiles() {
        QFETCH(QString, panel);
        QFETCH(QString, file);
        if (!pluginBuilt(panel))
            QSKIP("panel not built");
        QTemporaryDir dir;
        const QString out = dir.filePath("never.json");
        QString err;
        QElapsedTimer t;
        t.start();
        const int code = runCli({"run", panel, "--input", file, "--out", out}, &err, 20000);
        QVERIFY2(code == 3, qPrintable(QString("exit %1: %2").arg(code).arg(err)));
        QVERIFY2(err.startsWith("paperlab: error: "), qPrintable(err));
        const QString name = QRegularExpression::escape(QFileInfo(file).fileName());
        if (file.endsWith(".jsonl"))
            QVERIFY2(err.contains(QRegularExpression(name + ":\\d+")), qPrintable(err)); // file:line
        else
            QVERIFY2(err.contains(QRegularExpression(name + ".*(array|id_text|neg_text|images|is_id)")),
                     qPrintable(err)); // file and array
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(!QFile::exists(out));
    }

    void figuresAll_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QStringList>("fast");
        QTest::newRow("aporia") << "aporia-hallucination"
                                << QStringList{"prompt_pca",   "spread_by_class", "fisher_histogram",
                                               "f1_vs_labels", "dose_response",   "lp_subgraph"}
                                << kAporiaFast;
        QTest::newRow("ood") << "negative-label-ood"
                             << QStringList{"score_histograms", "roc", "auroc_alpha_rho",
                                            "worst_case_weights", "outlier_sensitivity"}
                             << kOodFast;
    }

    void figuresAll() {
        QFETCH(QString, panel);
        QFETCH(QStringList, ids);
        QFETCH(QStringList, fast);
        if (!pluginBuilt(panel))
            QSKIP("panel not built");
        QTemporaryDir dir;
        QString err;
        const int code = runCli(QStringList{"figure", panel, "all", "--dpi", "72"} + fast +
                                    QStringList{"--out", dir.path()},
                                &err, 120000);
        QVERIFY2(code == 0, qPrintable(err));
        for (const QString& id : ids)
            QVERIFY2(QFileInfo(dir.filePath(id + ".png")).size() > 1000, qPrintable(id));
    }
};

QTEST_GUILESS_MAIN(TestEmbedGeoCli)
#include "tst_embedgeo_cli.moc"
