// The promise-protein-states panel through the command line: deterministic synthetic runs with
// the required keys, one input (ensemble keys) and two inputs (TM-score keys, the acceptance
// pair of the tm-align examples), every bad .pdb/.cif file of tests/data/bad exits 3 quickly with
// the file named and no output left, and the non-3D figures render.
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

const QString kPanel = QStringLiteral("promise-protein-states");

} // namespace

class TestProteinCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(binary()))
            QSKIP("paperlab binary not built");
    }
    void syntheticRunIsDeterministic() {
        QTemporaryDir dir;
        const QStringList common{QStringLiteral("run"),    kPanel,
                                 QStringLiteral("--seed"), QStringLiteral("9"),
                                 QStringLiteral("--set"),  QStringLiteral("samples=24"),
                                 QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath(QStringLiteral("a.json"))}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath(QStringLiteral("b.json"))}), 0);
        const auto a = readResult(dir.filePath(QStringLiteral("a.json")));
        const auto b = readResult(dir.filePath(QStringLiteral("b.json")));
        QCOMPARE(a.toJson(), b.toJson());
        QCOMPARE(a.matrices.at("rmsd").rows, int64_t(24));
        QCOMPARE(a.labels.at("state").size(), size_t(24));
        QVERIFY(!a.claims.empty());
    }
    void oneAndTwoInputs() {
        const QString a = QStringLiteral("/usr/share/doc/tm-align/examples/1ni7.pdb.gz");
        const QString b = QStringLiteral("/usr/share/doc/tm-align/examples/5eep.pdb.gz");
        if (!QFile::exists(a) || !QFile::exists(b))
            QSKIP("tm-align examples not installed");
        QTemporaryDir dir;
        QCOMPARE(runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), a, QStringLiteral("--out"),
                         dir.filePath(QStringLiteral("one.json"))}),
                 0);
        const auto one = readResult(dir.filePath(QStringLiteral("one.json")));
        QCOMPARE(one.matrices.at("rmsd").rows, int64_t(20));
        QCOMPARE(one.matrices.at("rmsd").cols, int64_t(20));
        QCOMPARE(one.labels.at("state").size(), size_t(20));
        QCOMPARE(
            runCli({QStringLiteral("run"), kPanel, QStringLiteral("--input"), a, QStringLiteral("--input"), b,
                    QStringLiteral("--out"), dir.filePath(QStringLiteral("two.json"))}),
            0);
        const auto two = readResult(dir.filePath(QStringLiteral("two.json")));
        QCOMPARE(two.metrics.at("common_residues"), 140.0);
        QVERIFY(std::abs(two.metrics.at("tm_score") - 0.8987) < 0.005);
        QVERIFY(std::abs(two.metrics.at("rmsd_common") - 1.616) < 0.01);
        QVERIFY(two.metrics.count("gdt_ts"));
    }
    void badInputCorpus_data() {
        QTest::addColumn<QString>("file");
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        for (const QFileInfo& fi :
             bad.entryInfoList({"*.pdb", "*.cif", "*.ent", "*.mmcif", "*.gz"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(fi.fileName())) << fi.absoluteFilePath();
    }
    void badInputCorpus() {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("never.json"));
        QElapsedTimer t;
        t.start();
        QString err;
        const int code = runCli(
            {QStringLiteral("run"), kPanel, QStringLiteral("--input"), file, QStringLiteral("--out"), out},
            &err);
        QCOMPARE(code, 3);
        QVERIFY2(err.contains(QFileInfo(file).fileName()), qPrintable(err));
        QVERIFY(t.elapsed() < 5000);
        QVERIFY(!QFile::exists(out));
    }
    void figures() {
        QTemporaryDir dir;
        for (const char* id : {"rmsd_heatmap", "state_map", "coverage", "per_residue", "success_vs_n"}) {
            const QString out = dir.filePath(QString::fromLatin1(id) + QStringLiteral(".png"));
            QCOMPARE(
                runCli({QStringLiteral("figure"), kPanel, QString::fromLatin1(id), QStringLiteral("--set"),
                        QStringLiteral("samples=20"), QStringLiteral("--out"), out}),
                0);
            QVERIFY2(QFile::exists(out), id);
        }
    }
};

QTEST_GUILESS_MAIN(TestProteinCli)
#include "tst_protein_cli.moc"
