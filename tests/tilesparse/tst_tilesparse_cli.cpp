// The tilesparse panel through the command line: `paperlab run tilesparse` twice with one seed
// gives the same result with the required keys, bad .npy inputs exit 3, and
// `paperlab figure tilesparse all` writes every figure.
#include "common/CliTestSupport.h"
#include "core/NpyReader.h"
#include "core/ResultDocument.h"
#include "cuda/CudaDevice.h"

#include <QDir>
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

} // namespace

class TestTileSparseCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(binary()))
            QSKIP("paperlab binary not built");
    }
    void runIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common{
            QStringLiteral("run"),   QStringLiteral("tilesparse"),    QStringLiteral("--seed"),
            QStringLiteral("7"),     QStringLiteral("--set"),         QStringLiteral("context=1024"),
            QStringLiteral("--set"), QStringLiteral("claim_seeds=0"), QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.panel, std::string("tilesparse"));
        QVERIFY(a.vectors.count("output_full"));
        for (const char* k : {"error_k_only", "error_qk2d"})
            QVERIFY2(a.series.count(k) && a.series.at(k).x.size() == 10, k);
        for (const char* k : {"attention_mass", "selected_k_only", "selected_qk2d"})
            QVERIFY2(a.matrices.count(k), k);
        QVERIFY(!a.claims.empty());
    }
    void badInputExits3() {
        QTemporaryDir dir;
        auto write = [&](const char* name, std::vector<int64_t> shape) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            const std::string b = pl::writeNpy(shape, std::vector<double>(size_t(shape[0] * shape[1]), 0.5));
            f.write(b.data(), qint64(b.size()));
        };
        write("q.npy", {4, 8});
        write("k.npy", {64, 7});
        write("v.npy", {64, 8});
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("tilesparse"), QStringLiteral("--input"),
                         dir.filePath("q.npy"), QStringLiteral("--input"), dir.filePath("k.npy"),
                         QStringLiteral("--input"), dir.filePath("v.npy"), QStringLiteral("--out"),
                         dir.filePath("r.json")},
                        &err),
                 3);
        QVERIFY2(err.contains(QStringLiteral("k.npy")), qPrintable(err));
    }
    void backends() {
        // --backend cuda: the tilesparse CUDA path needs a kernel build and a device; without a
        // device it is an engine error (exit 4, nothing written); auto falls back to the CPU.
        QTemporaryDir dir;
        const QStringList common{QStringLiteral("run"),      QStringLiteral("tilesparse"),
                                 QStringLiteral("--set"),    QStringLiteral("context=1024"),
                                 QStringLiteral("--set"),    QStringLiteral("claim_seeds=0"),
                                 QStringLiteral("--backend")};
        QString err;
        const int cudaExit = runCli(
            common + QStringList{QStringLiteral("cuda"), QStringLiteral("--out"), dir.filePath("c.json")},
            &err);
        if (!pl::cuda::built()) {
            QCOMPARE(cudaExit, 1); // no CUDA path in this build: usage error
        } else if (pl::cuda::deviceCount() == 0) {
            QCOMPARE(cudaExit, 4);
            QVERIFY2(err.contains(QStringLiteral("no CUDA device")), qPrintable(err));
            QVERIFY(!QFile::exists(dir.filePath("c.json")));
        } else {
            QCOMPARE(cudaExit, 0);
            const auto d = readResult(dir.filePath("c.json"));
            QCOMPARE(d.metrics.at("backend_cuda"), 1.0);
            QVERIFY(d.metrics.at("cuda_max_abs_diff") < 1e-4);
        }
        QCOMPARE(runCli(common +
                        QStringList{QStringLiteral("auto"), QStringLiteral("--out"), dir.filePath("a.json")}),
                 0);
        const auto a = readResult(dir.filePath("a.json"));
        QCOMPARE(a.metrics.at("backend_cuda"), pl::cuda::deviceCount() > 0 ? 1.0 : 0.0);
        bool noted = false;
        for (const auto& n : a.notes)
            noted = noted || n.find(pl::cuda::deviceCount() > 0 ? "Backend: CUDA" : "Backend: CPU") == 0;
        QVERIFY(noted);
    }
    void figuresAll() {
        QTemporaryDir dir;
        QCOMPARE(runCli({QStringLiteral("figure"), QStringLiteral("tilesparse"), QStringLiteral("all"),
                         QStringLiteral("--set"), QStringLiteral("claim_seeds=0"), QStringLiteral("--out"),
                         dir.path()}),
                 0);
        for (const char* f : {"error_vs_budget", "attention_mass", "selected_k_only", "selected_qk2d",
                              "selected_tiered", "roofline", "autotuner"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestTileSparseCli)
#include "tst_tilesparse_cli.moc"
