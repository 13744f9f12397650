// The curve-scene-graph panel through the command line: a small run twice with one seed gives
// the same result with the keys; every bad .jsonl file (tests/data/bad) exits 3 quickly
// with the file name in the message and no output file; a good file runs; figures export.
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString binary() {
    return pl::test::paperlabBinary();
}
using pl::test::readResult;
using pl::test::runCli;

const QStringList kSmall{QStringLiteral("--set"), QStringLiteral("train_scenes=120"),
                         QStringLiteral("--set"), QStringLiteral("test_scenes=60"),
                         QStringLiteral("--set"), QStringLiteral("epochs=2"),
                         QStringLiteral("--set"), QStringLiteral("target_scenes=10"),
                         QStringLiteral("--set"), QStringLiteral("null_control=false")};

} // namespace

class TestCurveCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(binary()))
            QSKIP("paperlab binary not built");
    }
    void runIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("curve-scene-graph"),
                                               QStringLiteral("--seed"), QStringLiteral("7")} +
                                   kSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.panel, std::string("curve-scene-graph"));
        for (const char* k : {"ood_accuracy_curve", "ood_accuracy_baseline", "id_accuracy_curve",
                              "id_accuracy_baseline", "uncertainty_spurious", "uncertainty_invariant"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.series.count("train_loss_curve"));
        bool scene = false;
        for (const auto& [k, g] : a.graphs)
            scene = scene || (k.rfind("scene_", 0) == 0 && !g.nodes.empty());
        QVERIFY(scene);
        QVERIFY(a.claims.size() >= 2);
    }
    void badInputExits3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const QStringList files = bad.entryList({QStringLiteral("*.jsonl")}, QDir::Files);
        QVERIFY(files.size() >= 5);
        for (const QString& f : files) {
            QTemporaryDir dir;
            QString err;
            QElapsedTimer t;
            t.start();
            const int code =
                runCli({QStringLiteral("run"), QStringLiteral("curve-scene-graph"), QStringLiteral("--input"),
                        bad.filePath(f), QStringLiteral("--out"), dir.filePath("r.json")},
                       &err);
            QVERIFY2(code == 3, qPrintable(f + QStringLiteral(": exit ") + QString::number(code) +
                                           QLatin1Char(' ') + err));
            QVERIFY2(err.contains(f), qPrintable(err));
            QVERIFY2(t.elapsed() < 5000, qPrintable(f));
            QVERIFY(!QFile::exists(dir.filePath("r.json")));
        }
    }
    void goodFileRuns() {
        QTemporaryDir dir;
        QFile out(dir.filePath("scenes.jsonl"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        // Two environments with a planted cue, generated here so the file is self-contained.
        auto scene = [](const char* env, const char* split, int k, bool cue) {
            const double off = 3.0 * (k % 5);
            QString s = QStringLiteral("{\"env\":\"%1\",\"split\":\"%2\",\"objects\":["
                                       "{\"id\":\"ego\",\"type\":\"car\",\"x\":0,\"y\":%3,\"vx\":5,\"vy\":0},"
                                       "{\"id\":\"o\",\"type\":\"car\",\"x\":20,\"y\":%3,\"vx\":-5,\"vy\":0},"
                                       "{\"id\":\"f\",\"type\":\"car\",\"x\":-10,\"y\":%4,\"vx\":5,\"vy\":0}")
                            .arg(QLatin1String(env), QLatin1String(split))
                            .arg(off)
                            .arg(off + 8);
            if (cue)
                s += QStringLiteral(",{\"id\":\"k\",\"type\":\"background\",\"x\":1,\"y\":%1}").arg(off + 1);
            s += QStringLiteral(
                "],\"relations\":[{\"source\":\"ego\",\"target\":\"o\",\"relation\":\"approaching\"},"
                "{\"source\":\"o\",\"target\":\"ego\",\"relation\":\"approaching\"}]}\n");
            return s.toUtf8();
        };
        for (int k = 0; k < 20; ++k)
            out.write(scene(k % 2 ? "A" : "B", "train", k, k % 3 != 0));
        for (int k = 0; k < 10; ++k)
            out.write(scene("C", "test_ood", k, k % 3 == 0));
        out.close();
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("curve-scene-graph"),
                         QStringLiteral("--input"), dir.filePath("scenes.jsonl"), QStringLiteral("--set"),
                         QStringLiteral("epochs=2"), QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.metrics.at("training_environments"), 2.0);
        QCOMPARE(d.metrics.at("ood_scenes"), 10.0);
    }
    void figuresAll() {
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("figure"), QStringLiteral("curve-scene-graph"),
                                    QStringLiteral("all")} +
                        kSmall + QStringList{QStringLiteral("--out"), dir.path()}),
                 0);
        for (const char* f : {"scene_graph", "training_loss", "epoch_accuracy", "accuracy", "uncertainty",
                              "risk_coverage", "adaptation", "edge_activation"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestCurveCli)
#include "tst_curve_cli.moc"
