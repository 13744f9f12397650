// The torus-graph panel through the command line: `paperlab run torus-graph` twice with one seed gives
// the same result with the keys, the bad-input corpus (.csv/.npy, generic and torus-graph-*)
// exits 3 quickly with the file named and no output left, a user phase file runs, and
// `paperlab figure torus-graph all` writes every figure.
#include "common/CliTestSupport.h"
#include "core/NpyReader.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString binary() {
    return pl::test::paperlabBinary();
}
using pl::test::readResult;
using pl::test::runCli;

const QStringList kQuick{QStringLiteral("--set"), QStringLiteral("scaling=off"),
                         QStringLiteral("--set"), QStringLiteral("d=8"),
                         QStringLiteral("--set"), QStringLiteral("n=600"),
                         QStringLiteral("--set"), QStringLiteral("ssm_iterations=500"),
                         QStringLiteral("--set"), QStringLiteral("hmm_T=600"),
                         QStringLiteral("--set"), QStringLiteral("hmm_em_iterations=2"),
                         QStringLiteral("--set"), QStringLiteral("ar_shifts=3"),
                         QStringLiteral("--set"), QStringLiteral("ar_claim_seeds=0")};

} // namespace

class TestTorusGraphCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(binary()))
            QSKIP("paperlab binary not built");
    }
    void runIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common = QStringList{QStringLiteral("run"), QStringLiteral("torus-graph"),
                                               QStringLiteral("--seed"), QStringLiteral("7")} +
                                   kQuick + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.panel, std::string("torus-graph"));
        for (const char* k : {"coupling_strength", "phi", "transfer_entropy"})
            QVERIFY2(a.matrices.count(k), k);
        QVERIFY(a.vectors.count("eta_single"));
        QVERIFY(a.labels.count("state"));
        QVERIFY(!a.claims.empty());
    }
    void badInputCorpusExits3() {
        QTemporaryDir dir;
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const auto files =
            bad.entryInfoList({QStringLiteral("*.csv"), QStringLiteral("*.npy")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 5);
        int own = 0;
        for (const QFileInfo& fi : files) {
            own += fi.fileName().startsWith(QLatin1String("torus-graph-")) ? 1 : 0;
            const QString out = dir.filePath(QStringLiteral("never.json"));
            QString err;
            QElapsedTimer t;
            t.start();
            const int code =
                runCli({QStringLiteral("run"), QStringLiteral("torus-graph"), QStringLiteral("--input"),
                        fi.absoluteFilePath(), QStringLiteral("--set"), QStringLiteral("scaling=off"),
                        QStringLiteral("--out"), out},
                       &err);
            QVERIFY2(code == 3,
                     qPrintable(fi.fileName() + QStringLiteral(": exit ") + QString::number(code) + err));
            QVERIFY2(err.contains(fi.fileName()), qPrintable(fi.fileName() + QStringLiteral(": ") + err));
            QVERIFY2(t.elapsed() < 5000, qPrintable(fi.fileName()));
            QVERIFY(!QFile::exists(out));
        }
        QVERIFY(own >= 3);
    }
    void userPhaseFile() {
        QTemporaryDir dir;
        std::vector<double> v;
        for (int i = 0; i < 200; ++i)
            for (int c = 0; c < 3; ++c)
                v.push_back(std::fmod(0.37 * i * (c + 1) + 0.11 * c, 6.2));
        QFile f(dir.filePath(QStringLiteral("ph.npy")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string b = pl::writeNpy({200, 3}, v);
        f.write(b.data(), qint64(b.size()));
        f.close();
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("torus-graph"), QStringLiteral("--input"),
                         f.fileName(), QStringLiteral("--set"), QStringLiteral("scaling=off"),
                         QStringLiteral("--set"), QStringLiteral("hmm_states=0"), QStringLiteral("--out"),
                         dir.filePath("r.json")}),
                 0);
        const auto r = readResult(dir.filePath("r.json"));
        QCOMPARE(r.matrices.at("coupling_strength").rows, int64_t(3));
    }
    void figuresAll() {
        // With an X server: `figure all` (the 3D torus needs GLX). Without one: every 2D figure one by
        // one, and the 3D one must fail with exit 5 naming the X server.
        QTemporaryDir dir;
        const QStringList ids{"coupling_network", "coupling_heatmap", "coupling_compare", "ssm_convergence",
                              "ssm_error",        "edge_roc",         "scaling",          "hmm_states",
                              "hmm_posterior",    "hmm_networks",     "te_graph",         "te_matrix",
                              "te_vs_T"};
        if (!qEnvironmentVariableIsEmpty("DISPLAY")) {
            QString err;
            QCOMPARE(runCli(QStringList{QStringLiteral("figure"), QStringLiteral("torus-graph"),
                                        QStringLiteral("all")} +
                                kQuick + QStringList{QStringLiteral("--out"), dir.path()},
                            &err),
                     0);
            QVERIFY(QFileInfo(dir.filePath(QStringLiteral("torus3d.png"))).size() > 1000);
        } else {
            for (const QString& id : ids)
                QCOMPARE(
                    runCli(QStringList{QStringLiteral("figure"), QStringLiteral("torus-graph"), id} + kQuick +
                           QStringList{QStringLiteral("--out"), dir.filePath(id + QStringLiteral(".png"))}),
                    0);
            QString err;
            QCOMPARE(runCli(QStringList{QStringLiteral("figure"), QStringLiteral("torus-graph"),
                                        QStringLiteral("torus3d")} +
                                kQuick +
                                QStringList{QStringLiteral("--out"), dir.filePath(QStringLiteral("t.png"))},
                            &err),
                     5);
            QVERIFY2(err.contains(QStringLiteral("X server")), qPrintable(err));
        }
        for (const QString& id : ids)
            QVERIFY2(QFileInfo(dir.filePath(id + QStringLiteral(".png"))).size() > 1000, qPrintable(id));
    }
};

QTEST_GUILESS_MAIN(TestTorusGraphCli)
#include "tst_torusgraph_cli.moc"
