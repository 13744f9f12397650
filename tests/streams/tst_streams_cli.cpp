// The care-recsets and resettable-sketches panels through the command line: one seed gives the same
// result with the keys, the example inputs run, every bad file of tests/data/bad named
// "<panel>-*" exits 3 naming the file and line with no output left, and `paperlab figure <panel> all`
// writes every figure.
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

QString badDir() {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad");
}
QString examples() {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples");
}

bool pluginBuilt(const QString& id) {
    QProcess p;
    p.start(pl::test::paperlabBinary(), {QStringLiteral("list")});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).contains(id + "\t");
}

} // namespace

class TestStreamsCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void careRunIsDeterministic() {
        if (!pluginBuilt("care-recsets"))
            QSKIP("panel not built");
        QTemporaryDir dir;
        const QStringList common{"run", "care-recsets", "--seed", "5", "--set", "length=8000", "--out"};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* m : {"static", "aci", "care", "aggregate", "union"}) {
            const std::string k(m);
            QVERIFY2(a.metrics.count("risk_" + k) && a.metrics.count("size_" + k), m);
            QVERIFY2(a.series.count("risk_" + k), m);
        }
        for (const char* m : {"static", "aci", "care"})
            QVERIFY2(a.series.count(std::string("lambda_") + m), m);
        for (const char* k : {"lambda_static", "detection_delay", "false_alarms"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* k : {"risk_by_model", "size_by_model", "alarms"})
            QVERIFY2(a.vectors.count(k), k);
        QCOMPARE(a.vectors.at("risk_by_model").size(), size_t(3));
    }

    void sketchRunIsDeterministic() {
        if (!pluginBuilt("resettable-sketches"))
            QSKIP("panel not built");
        QTemporaryDir dir;
        const QStringList common{
            "run", "resettable-sketches", "--seed", "5", "--set", "T=10000", "--set", "k=512", "--out"};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* s : {"baseline", "robust", "switching"}) {
            const std::string k(s);
            for (const char* m :
                 {"final_error_", "prefix_max_error_", "true_final_", "attacker_accuracy_", "memory_"})
                QVERIFY2(a.metrics.count(m + k), qPrintable(QString(m) + s));
            QVERIFY2(a.series.count("true_" + k) && a.series.count("estimate_" + k), s);
        }
        QVERIFY(a.graphs.count("tree"));
    }

    void examplesRun_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QStringList>("inputs");
        QStringList care;
        for (const QFileInfo& f : QDir(examples() + "/care-recsets/drifting-shop")
                                      .entryInfoList({"*.csv"}, QDir::Files, QDir::Name))
            care << "--input" << f.absoluteFilePath();
        QTest::newRow("care") << "care-recsets" << care;
        QTest::newRow("sketches") << "resettable-sketches"
                                  << QStringList{"--input",
                                                 examples() + "/resettable-sketches/zipf-resets.csv"};
    }

    void examplesRun() {
        QFETCH(QString, panel);
        QFETCH(QStringList, inputs);
        if (!pluginBuilt(panel))
            QSKIP("panel not built");
        QTemporaryDir dir;
        QString err;
        QCOMPARE(
            runCli(QStringList{"run", panel} + inputs + QStringList{"--out", dir.filePath("r.json")}, &err),
            0);
        const auto r = readResult(dir.filePath("r.json"));
        QVERIFY2(!r.claims.empty(), qPrintable(err));
        QCOMPARE(int(r.inputs.size()), int(inputs.size() / 2));
    }

    void badFiles_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("file");
        for (const QString& panel : {QStringLiteral("care-recsets"), QStringLiteral("resettable-sketches")})
            for (const QFileInfo& fi : QDir(badDir()).entryInfoList({panel + "-*"}, QDir::Files, QDir::Name))
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
        const int code = runCli({"run", panel, "--input", file, "--out", out}, &err, 20000);
        QVERIFY2(code == 3, qPrintable(QString("exit %1: %2").arg(code).arg(err)));
        QVERIFY2(err.startsWith("paperlab: error: "), qPrintable(err));
        QVERIFY2(err.contains(
                     QRegularExpression(QRegularExpression::escape(QFileInfo(file).fileName()) + ":\\d+")),
                 qPrintable(err));
        QVERIFY(!QFile::exists(out));
    }

    void figuresAll_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QStringList>("fast");
        QTest::newRow("care") << "care-recsets"
                              << QStringList{"running_risk", "set_size", "lambda", "weights"}
                              << QStringList{"--set", "length=6000"};
        QTest::newRow("sketches") << "resettable-sketches"
                                  << QStringList{"estimates", "prefix_error", "memory", "attack_progress",
                                                 "tree"}
                                  << QStringList{"--set", "T=8000", "--set", "k=512"};
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
                                &err);
        QVERIFY2(code == 0, qPrintable(err));
        for (const QString& id : ids)
            QVERIFY2(QFileInfo(dir.filePath(id + ".png")).size() > 1000, qPrintable(id));
    }
};

QTEST_GUILESS_MAIN(TestStreamsCli)
#include "tst_streams_cli.moc"
