// The fair-linear-bandits and boba-screening panels through the command line: one seed gives
// the same result with the keys, the example inputs run, every bad file of
// tests/data/bad named "<panel>-*" exits 3 naming the file and line with no output left, and
// `paperlab figure <panel> all` writes every figure (2D ones; the 3D figure needs an X server and is
// exported when DISPLAY is set).
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

QString badDir() {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad");
}

bool pluginBuilt(const QString& id) {
    QProcess p;
    p.start(pl::test::paperlabBinary(), {QStringLiteral("list")});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).contains(id + "\t");
}

} // namespace

class TestBanditsCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }

    void fairRunIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common{
            "run", "fair-linear-bandits", "--seed", "5", "--set", "T=800", "--set", "runs=3", "--out"};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* alg :
             {"fairlin_ucb", "fairlin_pe", "linucb", "linpe", "linnash", "uniform", "oracle"}) {
            const std::string k(alg);
            QVERIFY2(a.metrics.count("regret_" + k), alg);
            QVERIFY2(a.series.count("expected_reward_" + k) &&
                         a.series.at("expected_reward_" + k).x.size() == 800,
                     alg);
            QVERIFY2(a.series.count("regret_vs_p_" + k) && a.series.at("regret_vs_p_" + k).x.size() == 5,
                     alg);
            QVERIFY2(a.series.count("regret_vs_T_" + k), alg);
        }
        for (const char* k : {"design_gmax", "fair_floor", "mu_star"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.vectors.count("design_weights") && a.vectors.count("floor_weights"));
        QCOMPARE(a.vectors.at("design_weights").size(), size_t(100));
    }

    void badFiles_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("file");
        for (const QString& panel : {QStringLiteral("fair-linear-bandits"), QStringLiteral("boba-screening")})
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
        QElapsedTimer t;
        t.start();
        const int code = runCli({"run", panel, "--input", file, "--out", out}, &err, 20000);
        QVERIFY2(code == 3, qPrintable(QString("exit %1: %2").arg(code).arg(err)));
        QVERIFY2(err.startsWith("paperlab: error: "), qPrintable(err));
        // file and line: "<name>:<line>"
        QVERIFY2(err.contains(
                     QRegularExpression(QRegularExpression::escape(QFileInfo(file).fileName()) + ":\\d+")),
                 qPrintable(err));
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(!QFile::exists(out));
    }

    void figuresAll_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QStringList>("ids2d");
        QTest::addColumn<QString>("id3d");
        QTest::addColumn<QStringList>("fast");
        QTest::newRow("fair") << "fair-linear-bandits"
                              << QStringList{"regret_vs_T", "regret_vs_p", "expected_reward", "pulls",
                                             "design_convergence"}
                              << "arm_cloud" << QStringList{"--set", "T=600", "--set", "runs=3"};
        QTest::newRow("boba") << "boba-screening"
                              << QStringList{"arm_pulls", "recall_vs_evals", "recall_vs_inferences",
                                             "score_map"}
                              << QString()
                              << QStringList{"--set", "n_a=40", "--set", "n_b=100", "--set", "rounds=6"};
    }

    void figuresAll() {
        // With an X server: `figure all`. Without one: every 2D figure one by one, and a 3D one must
        // fail with exit 5 naming the X server.
        QFETCH(QString, panel);
        QFETCH(QStringList, ids2d);
        QFETCH(QString, id3d);
        QFETCH(QStringList, fast);
        if (!pluginBuilt(panel))
            QSKIP("panel not built");
        QTemporaryDir dir;
        QString err;
        if (!qEnvironmentVariableIsEmpty("DISPLAY") || id3d.isEmpty()) {
            const int code = runCli(QStringList{"figure", panel, "all", "--dpi", "72"} + fast +
                                        QStringList{"--out", dir.path()},
                                    &err, 120000);
            QVERIFY2(code == 0, qPrintable(err));
        } else {
            for (const QString& id : ids2d)
                QCOMPARE(runCli(QStringList{"figure", panel, id, "--dpi", "72"} + fast +
                                QStringList{"--out", dir.filePath(id + ".png")}),
                         0);
            QCOMPARE(runCli(QStringList{"figure", panel, id3d} + fast +
                                QStringList{"--out", dir.filePath("x.png")},
                            &err),
                     5);
            QVERIFY2(err.contains(QStringLiteral("X server")), qPrintable(err));
        }
        for (const QString& id : ids2d)
            QVERIFY2(QFileInfo(dir.filePath(id + ".png")).size() > 1000, qPrintable(id));
    }
};

QTEST_GUILESS_MAIN(TestBanditsCli)
#include "tst_bandits_cli.moc"
