// The bottleneck-keypoints panel through the command line: one seed gives the same result with
// the required keys, a maze file is used, every bad .maze file of tests/data/bad exits 3 quickly
// with the file named and no output left, and `paperlab figure bottleneck-keypoints all` writes
// every figure.
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString binary() {
    return pl::test::paperlabBinary();
}
using pl::test::readResult;
using pl::test::runCli;

const QStringList kFast{QStringLiteral("--set"), QStringLiteral("episodes=20"), QStringLiteral("--set"),
                        QStringLiteral("hitting_queries=5")};

} // namespace

class TestKeypointsCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(binary()))
            QSKIP("paperlab binary not built");
    }
    void runIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("bottleneck-keypoints"),
                                               QStringLiteral("--seed"), QStringLiteral("7")} +
                                   kFast + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.panel, std::string("bottleneck-keypoints"));
        QVERIFY(a.graphs.count("kp_graph") && a.labels.count("cluster") && a.series.count("spectrum"));
        for (const char* k : {"success_rate_kp", "success_rate_flat", "success_rate_time_subgoals",
                              "success_rate_value_subgoals"})
            QVERIFY2(a.metrics.count(k), k);
        for (const auto& n : a.graphs.at("kp_graph").nodes)
            QVERIFY(n.attrs.count("row") && n.attrs.count("col"));
    }
    void mazeFileInput() {
        QTemporaryDir dir;
        QFile f(dir.filePath("two.maze"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#############\n#S....#....G#\n#.....#.....#\n#...........#\n#.....#.....#\n#############\n");
        f.close();
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), QStringLiteral("bottleneck-keypoints"),
                                    QStringLiteral("--input"), f.fileName(), QStringLiteral("--set"),
                                    QStringLiteral("clusters=2")} +
                        kFast + QStringList{QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.metrics.at("rows"), 6.0);
        QCOMPARE(d.metrics.at("clusters"), 2.0);
        QCOMPARE(d.metrics.at("rollout_start"), 14.0);
        QCOMPARE(d.metrics.at("rollout_goal"), 24.0);
        QCOMPARE(int(d.labels.at("cluster").size()), 41);
    }
    void badFilesExit3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const QStringList files =
            bad.entryList({QStringLiteral("*.maze"), QStringLiteral("bottleneck-keypoints-*")}, QDir::Files);
        QVERIFY(files.size() >= 5);
        QTemporaryDir dir;
        for (const QString& name : files) {
            QString err;
            QElapsedTimer t;
            t.start();
            const QString out = dir.filePath(QStringLiteral("r.json"));
            QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("bottleneck-keypoints"),
                             QStringLiteral("--input"), bad.filePath(name), QStringLiteral("--out"), out},
                            &err),
                     3);
            QVERIFY2(t.elapsed() < 5000, qPrintable(name));
            QVERIFY2(err.contains(name), qPrintable(err));
            QVERIFY2(
                err.contains(QRegularExpression(QRegularExpression::escape(name) + QStringLiteral(":\\d+"))),
                qPrintable(err)); // file:line[:column]
            QVERIFY(!QFile::exists(out));
        }
    }
    void figuresAll() {
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("figure"), QStringLiteral("bottleneck-keypoints"),
                                    QStringLiteral("all"), QStringLiteral("--dpi"), QStringLiteral("60")} +
                        kFast + QStringList{QStringLiteral("--out"), dir.path()}),
                 0);
        for (const char* f : {"clusters", "keypoint_map", "spectrum", "eigvec_1", "eigvec_2", "eigvec_3",
                              "success_vs_distance", "rollout"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestKeypointsCli)
#include "tst_keypoints_cli.moc"
