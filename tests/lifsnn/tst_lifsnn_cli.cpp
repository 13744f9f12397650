// The lif-mmwave panel through the command line: a small run twice with one seed gives the same
// result with the keys; every bad manifest (tests/data/bad/lif-mmwave-*.seq.json) exits 3
// quickly with the file named and no output; the example (manifest + arrays) runs; figures export.
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

const QStringList kSmall{QStringLiteral("--set"), QStringLiteral("samples=160"),
                         QStringLiteral("--set"), QStringLiteral("length=64"),
                         QStringLiteral("--set"), QStringLiteral("epochs=2"),
                         QStringLiteral("--set"), QStringLiteral("hidden=8")};

} // namespace

class TestLifSnnCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }
    void runIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), QStringLiteral("lif-mmwave"), QStringLiteral("--seed"),
                        QStringLiteral("7")} +
            kSmall +
            QStringList{QStringLiteral("--set"), QStringLiteral("sweep_beta=false"), QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.panel, std::string("lif-mmwave"));
        for (const char* k : {"omega_d", "beta_star", "cutoff_omega", "beta_used", "acc_snn", "acc_ann_mlp",
                              "acc_ann_cnn", "acc_ann_lowpass", "energy_ratio"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* k : {"welch_freq", "fisher_ratio"})
            QVERIFY2(a.vectors.count(k), k);
        QCOMPARE(a.series.at("lif_response").x.size(), size_t(256));
    }
    void badManifestsExit3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const QStringList files = bad.entryList({QStringLiteral("lif-mmwave-*.json")}, QDir::Files);
        QVERIFY(files.size() >= 5);
        for (const QString& f : files) {
            QTemporaryDir dir;
            QString err;
            QElapsedTimer t;
            t.start();
            const int code =
                runCli({QStringLiteral("run"), QStringLiteral("lif-mmwave"), QStringLiteral("--input"),
                        bad.filePath(f), QStringLiteral("--out"), dir.filePath("r.json")},
                       &err);
            QVERIFY2(code == 3, qPrintable(f + QStringLiteral(": exit ") + QString::number(code) +
                                           QLatin1Char(' ') + err));
            QVERIFY2(err.startsWith(QStringLiteral("paperlab: error: ")) && err.contains(f), qPrintable(err));
            QVERIFY2(t.elapsed() < 5000, qPrintable(f));
            QVERIFY(!QFile::exists(dir.filePath("r.json")));
        }
    }
    void exampleRunsWithItsArrays() {
        QTemporaryDir dir;
        const QString ex =
            QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/lif-mmwave/walking-radar/");
        QCOMPARE(
            runCli({QStringLiteral("run"), QStringLiteral("lif-mmwave"), QStringLiteral("--input"),
                    ex + QStringLiteral("walking.seq.json"), QStringLiteral("--input"),
                    ex + QStringLiteral("x.npy"), QStringLiteral("--input"), ex + QStringLiteral("y.npy"),
                    QStringLiteral("--set"), QStringLiteral("sweep_beta=false"), QStringLiteral("--out"),
                    dir.filePath("r.json")}),
            0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.metrics.at("train_rows"), 90.0);
        QCOMPARE(d.metrics.at("fs"), 20.0);
        QVERIFY(d.metrics.at("dropped_frames") > 0);
        // An array that the manifest does not list is a usage error.
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("lif-mmwave"), QStringLiteral("--input"),
                         ex + QStringLiteral("x.npy"), QStringLiteral("--out"), dir.filePath("s.json")},
                        &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("manifest")), qPrintable(err));
    }
    void figuresAll() {
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("figure"), QStringLiteral("lif-mmwave"),
                                    QStringLiteral("all")} +
                        kSmall + QStringList{QStringLiteral("--out"), dir.path()}),
                 0);
        for (const char* f : {"bode", "acc_vs_beta", "spike_raster", "membrane", "accuracy", "band_switch",
                              "energy", "training_loss"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestLifSnnCli)
#include "tst_lifsnn_cli.moc"
