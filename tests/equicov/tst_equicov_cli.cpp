// The equivariant-covariance panel through the command line: a small run twice with one seed gives
// the same result with the keys; bad cloud / tensor files (tests/data/bad/
// equivariant-covariance-*) exit 3 with the file named and no output; the example runs; figures
// export (the 3D one needs an X server: skipped without DISPLAY).
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QStringList kSmall{QStringLiteral("--set"), QStringLiteral("samples=200"),
                         QStringLiteral("--set"), QStringLiteral("epochs=3"),
                         QStringLiteral("--set"), QStringLiteral("robustness_check=false")};

} // namespace

class TestEquiCovCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }
    void runIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), QStringLiteral("equivariant-covariance"),
                        QStringLiteral("--seed"), QStringLiteral("7")} +
            kSmall + QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k : {"pred_mean", "pred_cov", "pred_logcov", "baseline_mean", "irrep_power"})
            QVERIFY2(a.matrices.count(k), k);
        for (const char* k : {"nll_laplace", "nll_gauss"})
            QVERIFY2(a.vectors.count(k), k);
        for (const char* k :
             {"equivariance_error", "baseline_equivariance_error", "coverage_90", "ood_auroc"})
            QVERIFY2(a.metrics.count(k), k);
    }
    void badFilesExit3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        const QStringList files = bad.entryList({QStringLiteral("equivariant-covariance-*")}, QDir::Files);
        QVERIFY(files.size() >= 5);
        const QString clouds = QStringLiteral(
            PAPERLAB_SOURCE_DIR "/resources/examples/equivariant-covariance/turned-solids/1-clouds.csv");
        for (const QString& f : files) {
            QTemporaryDir dir;
            QString err;
            QStringList args{QStringLiteral("run"), QStringLiteral("equivariant-covariance")};
            if (f.contains(QStringLiteral("tensors")))
                args << QStringLiteral("--input") << clouds; // a tensors file needs clouds
            args << QStringLiteral("--input") << bad.filePath(f) << QStringLiteral("--out")
                 << dir.filePath("r.json");
            const int code = runCli(args + kSmall, &err);
            QVERIFY2(code == 3, qPrintable(f + QStringLiteral(": exit ") + QString::number(code) +
                                           QLatin1Char(' ') + err));
            QVERIFY2(err.startsWith(QStringLiteral("paperlab: error: ")) && err.contains(f), qPrintable(err));
            QVERIFY(!QFile::exists(dir.filePath("r.json")));
        }
    }
    void exampleFitOnInput() {
        QTemporaryDir dir;
        const QString ex =
            QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/equivariant-covariance/turned-solids/");
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), QStringLiteral("equivariant-covariance"),
                                    QStringLiteral("--input"), ex + QStringLiteral("1-clouds.csv"),
                                    QStringLiteral("--input"), ex + QStringLiteral("2-tensors.csv"),
                                    QStringLiteral("--set"), QStringLiteral("fit_on=input"),
                                    QStringLiteral("--out"), dir.filePath("r.json")} +
                        kSmall),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.matrices.at("pred_mean").rows, int64_t(12));
        QCOMPARE(d.matrices.at("pred_mean").rowLabels.front(), std::string("ellipsoid-00"));
        const auto& nll = d.vectors.at("nll_laplace");
        QVERIFY(std::isfinite(nll[0]) && std::isnan(nll[11])); // the last two clouds have no tensor
    }
    void figuresAll() {
        if (qEnvironmentVariableIsEmpty("DISPLAY"))
            QSKIP("the 3D figure needs an X server (run under xvfb-run)");
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("figure"), QStringLiteral("equivariant-covariance"),
                                    QStringLiteral("all")} +
                        kSmall + QStringList{QStringLiteral("--out"), dir.path()}),
                 0);
        for (const char* f :
             {"scene3d", "training_curves", "coverage", "irrep_power", "equivariance_errors", "logdet_ood"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestEquiCovCli)
#include "tst_equicov_cli.moc"
