// The inslen-hallucination and sae-domain-ood panels through the command line: a small run twice
// with one seed gives the same result with the keys; every bad file of the panels
// (tests/data/bad/<panel>-*) exits 3 quickly with the file name in the message and no output;
// the shipped examples run; every figure exports.
#include "common/CliPanelChecks.h"
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::badFilesExit3;
using pl::test::figuresExport;
using pl::test::readResult;
using pl::test::runCli;

QStringList sets(std::initializer_list<const char*> kv) {
    QStringList out;
    for (const char* s : kv)
        out << QStringLiteral("--set") << QString::fromLatin1(s);
    return out;
}

const QStringList kInsSmall = sets({"steps=60", "captions=40"});
const QStringList kSaeSmall = sets({"texts=100", "vocab=300", "layers=4", "lm_steps=50", "sae_steps=30"});
const QString kExamples = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/");

} // namespace

class TestHiddenstateCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void inslenIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("inslen-hallucination"),
                                               QStringLiteral("--seed"), QStringLiteral("7")} +
                                   kInsSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k :
             {"inslen", "calibrated_local", "context_consistency", "mean_prob", "glsim", "label"})
            QVERIFY2(a.vectors.count(k), k);
        for (const char* k : {"auroc_inslen", "auroc_glsim", "auroc_mean_prob", "auroc_svar", "aupr_inslen",
                              "fpr95_inslen", "objects_scored", "objects_skipped"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.matrices.count("auroc_layers"));
    }

    void inslenBadFilesExit3() {
        badFilesExit3(QStringLiteral("inslen-hallucination"), {"inslen-hallucination-*"}, 4,
                      sets({"mode=file"}));
    }

    void inslenExample() {
        const QString ex = kExamples + QStringLiteral("inslen-hallucination/synthetic-captions/");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("inslen-hallucination"),
                         QStringLiteral("--set"), QStringLiteral("mode=file"), QStringLiteral("--input"),
                         ex + "lm_head.npy", QStringLiteral("--input"), ex + "captions",
                         QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.metrics.at("objects_scored") + d.metrics.at("objects_skipped"), 40.0);
        QVERIFY(d.metrics.at("objects_skipped") >= 1);
        QVERIFY(d.metrics.at("auroc_inslen") > 0.5); // the example's real objects are visible in the patches
    }

    void inslenFigures() {
        figuresExport(QStringLiteral("inslen-hallucination"), kInsSmall,
                      {"roc", "density_inslen", "density_glsim", "density_mean_prob", "auroc_layers",
                       "patch_grid", "training_loss"});
    }

    void saeIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("sae-domain-ood"),
                                               QStringLiteral("--seed"), QStringLiteral("5")} +
                                   kSaeSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.vectors.count("score") && a.vectors.count("fvu"));
        for (const char* k : {"auroc_markov", "auroc_naive_bayes", "auroc_mahalanobis", "auroc_knn",
                              "auroc_gru", "fpr95_markov"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.series.count("auroc_vs_k"));
    }

    void saeBadFilesExit3() { badFilesExit3(QStringLiteral("sae-domain-ood"), {"sae-domain-ood-*"}, 4, {}); }

    void saeExample() {
        const QString ex = kExamples + QStringLiteral("sae-domain-ood/three-domains/");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("sae-domain-ood"), QStringLiteral("--input"),
                         ex + "activations.npy", QStringLiteral("--input"), ex + "texts.csv",
                         QStringLiteral("--input"), ex + "sae.npz", QStringLiteral("--out"),
                         dir.filePath("r.json")},
                        &err),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.vectors.at("score").size(), size_t(150));
        QVERIFY(d.metrics.at("auroc_markov") > 0.5);
    }

    void saeFigures() {
        figuresExport(QStringLiteral("sae-domain-ood"), kSaeSmall,
                      {"auroc_vs_k", "methods", "transition", "raster_in_domain", "raster_ood", "fvu",
                       "densities", "layer_auroc"});
    }
};

QTEST_GUILESS_MAIN(TestHiddenstateCli)
#include "tst_hiddenstate_cli.moc"
