// The gemq-moe-quant panel through the command line: a small run twice with one seed gives the same
// result with the keys; the shipped importance table runs the allocator alone; the shipped
// random moe_lm runs with its calibration ids (and alone with weight_error); every bad file
// (tests/data/bad/gemq-moe-quant-*) exits 3 quickly naming the file (and the line for CSV errors)
// with no output; a budget below the smallest bit-width is a usage error naming the feasible range;
// every figure exports.
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

const QString kPanel = QStringLiteral("gemq-moe-quant");
const QStringList kSmall = {QStringLiteral("--set"), QStringLiteral("layers=2"),
                            QStringLiteral("--set"), QStringLiteral("experts=4"),
                            QStringLiteral("--set"), QStringLiteral("router_steps=20"),
                            QStringLiteral("--set"), QStringLiteral("train_epochs=1"),
                            QStringLiteral("--set"), QStringLiteral("calib_tokens=512")};

QString example(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/gemq-moe-quant/") +
           QString::fromLatin1(name);
}

} // namespace

class TestGemqCli : public QObject {
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
        QCOMPARE(a.matrices.at("cost").rows, int64_t(8));
        QCOMPARE(a.matrices.at("bits_global").cols, int64_t(4));
        QVERIFY(a.matrices.count("bits_layerwise"));
        QCOMPARE(a.vectors.at("params").size(), size_t(8));
        QCOMPARE(a.vectors.at("bit_options").size(), size_t(4));
        for (const char* m : {"lp_objective_global", "lp_objective_layerwise", "cost_global",
                              "avg_bits_global", "loss_fp", "loss_uniform", "loss_global", "loss_layerwise",
                              "routing_shift_before_ft", "routing_shift_after_ft"})
            QVERIFY2(a.metrics.count(m), m);
    }

    void exampleTable() {
        QTemporaryDir dir;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                         example("made-up-importance.csv"), QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.matrices.at("bits_global").rows, int64_t(8));
        QVERIFY(r.metrics.at("lp_objective_global") <= r.metrics.at("lp_objective_layerwise"));
    }

    void exampleModel() {
        QTemporaryDir dir;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                         example("random-moe-lm/model.safetensors"), QStringLiteral("--input"),
                         example("random-moe-lm/calibration.txt"), QStringLiteral("--set"),
                         QStringLiteral("group=8"), QStringLiteral("--set"),
                         QStringLiteral("router_steps=20"), QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.matrices.at("bits_global").rows, int64_t(2));
        QVERIFY(r.metrics.count("loss_global"));
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                         example("random-moe-lm/model.safetensors"), QStringLiteral("--out"),
                         dir.filePath("s.json")},
                        &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("calibration")), qPrintable(err));
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                         example("random-moe-lm/model.safetensors"), QStringLiteral("--set"),
                         QStringLiteral("importance=weight_error"), QStringLiteral("--out"),
                         dir.filePath("w.json")}),
                 0);
        QVERIFY(!readResult(dir.filePath("w.json")).metrics.count("loss_global"));
    }

    void budgetBelowMinimum() {
        QTemporaryDir dir;
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                         example("made-up-importance.csv"), QStringLiteral("--set"),
                         QStringLiteral("avg_bits=1.5"), QStringLiteral("--out"), dir.filePath("r.json")},
                        &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("minimum average bits = 2")) &&
                     err.contains(QStringLiteral("feasible range 2 to 8")),
                 qPrintable(err));
    }

    void badFilesExit3() {
        pl::test::badFilesExit3(kPanel, {QStringLiteral("gemq-moe-quant-*")}, 8, {}, [](const QString& f) {
            return f.endsWith(QStringLiteral(".csv")) && !f.contains(QStringLiteral("missing-combination"));
        });
        QString err;
        QTemporaryDir dir;
        runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/gemq-moe-quant-router-shape.safetensors"),
                QStringLiteral("--out"), dir.filePath("r.json")},
               &err);
        QVERIFY2(err.contains(QStringLiteral("layers.1.router")), qPrintable(err));
        runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"),
                QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/gemq-moe-quant-missing-combination.csv"),
                QStringLiteral("--out"), dir.filePath("r.json")},
               &err);
        QVERIFY2(err.contains(QStringLiteral("missing combination layer 0, expert 1, bits 4")),
                 qPrintable(err));
    }

    void figures() {
        pl::test::figuresExport(kPanel, kSmall,
                                {"alloc_global", "alloc_layerwise", "loss_vs_bits", "fisher", "routing_shift",
                                 "expert_load", "hulls", "budget"});
    }
};

QTEST_GUILESS_MAIN(TestGemqCli)
#include "tst_gemq_cli.moc"
