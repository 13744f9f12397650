// `paperlab sweep` under `mpirun -np 2 --oversubscribe` (built only when CMake found MPI and an
// mpiexec): the table and every cell equal a local --jobs 1 sweep (only wall times differ), both
// ranks ran some of the runs, and a sweep whose rank 1 is killed midway leaves only whole files,
// so that the same command run again computes the missing runs only.
#include "common/CliTestSupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using pl::test::paperlabBinary;
using pl::test::readResult;
using pl::test::runCli;

namespace {

/// The launcher's environment: root allowed (CI containers), shared memory only, no CMA
/// (ptrace is often forbidden in containers).
QProcessEnvironment mpiEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_MCA_btl"), QStringLiteral("self,vader"));
    env.insert(QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism"), QStringLiteral("none"));
    env.insert(QStringLiteral("OMPI_MCA_rmaps_base_oversubscribe"), QStringLiteral("1"));
    return env;
}

void startMpi(QProcess& p, const QStringList& sweepArgs) {
    p.setProcessEnvironment(mpiEnvironment());
    p.start(QStringLiteral(PAPERLAB_MPIEXEC),
            QStringList{QStringLiteral("-np"), QStringLiteral("2"), QStringLiteral("--oversubscribe"),
                        paperlabBinary()} +
                sweepArgs);
}

QStringList csvWithoutTimes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList rows;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.isEmpty())
            rows << QString::fromUtf8(line).section(QLatin1Char(','), 0, -2); // elapsed_ms is last
    return rows;
}

QStringList cellFiles(const QString& dir) {
    QStringList files = QDir(dir).entryList({QStringLiteral("*_seed-*.json")}, QDir::Files, QDir::Name);
    return files;
}

/// The pid of the paperlab process that the launcher started as rank `rank` (its environment
/// names the rank), or 0.
qint64 rankPid(int rank) {
    const QByteArray want = "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank);
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const qint64 n = pid.toLongLong(&ok);
        if (!ok)
            continue;
        QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
        QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!cmd.open(QIODevice::ReadOnly) || !env.open(QIODevice::ReadOnly))
            continue;
        if (!cmd.readAll().startsWith(paperlabBinary().toUtf8()))
            continue;
        if (env.readAll().split('\0').contains(want))
            return n;
    }
    return 0;
}

} // namespace

class TstSweepMpi : public QObject {
    Q_OBJECT
private slots:
    void twoRanksEqualOneThread() {
        QTemporaryDir dir;
        const QString mpiOut = dir.filePath(QStringLiteral("mpi")),
                      localOut = dir.filePath(QStringLiteral("local"));
        const QStringList args{QStringLiteral("sweep"),   QStringLiteral("ssn-nash"),
                               QStringLiteral("--set"),   QStringLiteral("cols=10"),
                               QStringLiteral("--grid"),  QStringLiteral("rows=6:14:3"),
                               QStringLiteral("--seeds"), QStringLiteral("1..4")};
        QProcess p;
        startMpi(p, args + QStringList{QStringLiteral("--out"), mpiOut});
        QVERIFY(p.waitForFinished(180000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("12 runs over 2 MPI ranks")), qPrintable(err));
        // Both ranks computed: "N runs on rank 0, M on ranks 1..1" with M > 0.
        const QRegularExpression where(QStringLiteral("(\\d+) runs on rank 0, (\\d+) on ranks 1..1"));
        const QRegularExpressionMatch m = where.match(err);
        QVERIFY2(m.hasMatch(), qPrintable(err));
        QCOMPARE(m.captured(1).toInt() + m.captured(2).toInt(), 12);
        QVERIFY2(m.captured(2).toInt() > 0, qPrintable(err));

        QCOMPARE(runCli(args + QStringList{QStringLiteral("--jobs"), QStringLiteral("1"),
                                           QStringLiteral("--out"), localOut}),
                 0);
        QCOMPARE(csvWithoutTimes(QDir(mpiOut).filePath(QStringLiteral("sweep.csv"))),
                 csvWithoutTimes(QDir(localOut).filePath(QStringLiteral("sweep.csv"))));
        const QStringList cells = cellFiles(localOut);
        QCOMPARE(cells.size(), 12);
        QCOMPARE(cellFiles(mpiOut), cells);
        for (const QString& c : cells)
            QCOMPARE(readResult(QDir(mpiOut).filePath(c)).toJson(),
                     readResult(QDir(localOut).filePath(c)).toJson());
    }

    void badInputExitsThreeOnEveryRank() {
        QTemporaryDir dir;
        QProcess p;
        startMpi(p,
                 {QStringLiteral("sweep"), QStringLiteral("ssn-nash"), QStringLiteral("--input"),
                  QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad/junk.nfg"), QStringLiteral("--seeds"),
                  QStringLiteral("2"), QStringLiteral("--out"), dir.filePath(QStringLiteral("b"))});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains(QStringLiteral("junk.nfg")), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("b/sweep.csv"))));
    }

    void killedRankLeavesWholeFilesAndResumes() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("k"));
        // About half a second per run (PRM+ on a 100 x 100 game for a fixed number of iterations).
        const QStringList args{QStringLiteral("sweep"),   QStringLiteral("ssn-nash"),
                               QStringLiteral("--set"),   QStringLiteral("rows=100"),
                               QStringLiteral("--set"),   QStringLiteral("cols=100"),
                               QStringLiteral("--set"),   QStringLiteral("solver=prm_plus"),
                               QStringLiteral("--set"),   QStringLiteral("compare_solvers=false"),
                               QStringLiteral("--set"),   QStringLiteral("claim_games=0"),
                               QStringLiteral("--set"),   QStringLiteral("lp_reference=false"),
                               QStringLiteral("--set"),   QStringLiteral("target_gap=1e-12"),
                               QStringLiteral("--grid"),  QStringLiteral("max_iterations=150000,200000"),
                               QStringLiteral("--seeds"), QStringLiteral("1..10"),
                               QStringLiteral("--out"),   out};
        QProcess p;
        startMpi(p, args);
        QVERIFY(p.waitForStarted());
        // Kill rank 1 once a few runs are on disk.
        QElapsedTimer t;
        t.start();
        while (cellFiles(out).size() < 2 && t.elapsed() < 120000 && p.state() == QProcess::Running)
            QTest::qWait(20);
        const qint64 victim = rankPid(1);
        QVERIFY2(victim > 0, "rank 1 not found");
        QVERIFY(::kill(pid_t(victim), SIGKILL) == 0);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() != 0, "a sweep with a killed rank must not report success");
        const QStringList done = cellFiles(out);
        QVERIFY2(done.size() >= 2 && done.size() < 20, qPrintable(QString::number(done.size())));
        QVERIFY(!QFile::exists(QDir(out).filePath(QStringLiteral("sweep.csv"))));
        QHash<QString, QDateTime> times;
        for (const QString& c : done) {
            QVERIFY2(!readResult(QDir(out).filePath(c)).panel.empty(), qPrintable(c)); // whole, parseable
            times[c] = QFileInfo(QDir(out).filePath(c)).lastModified();
        }
        QTest::qWait(1100); // file times have one-second resolution on some file systems
        // The same command again: only the missing runs are computed, the finished files stay.
        QProcess again;
        startMpi(again, args);
        QVERIFY(again.waitForFinished(180000));
        const QString err = QString::fromUtf8(again.readAllStandardError());
        QVERIFY2(again.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("%1 of 20 runs already done").arg(done.size())),
                 qPrintable(err));
        QCOMPARE(cellFiles(out).size(), 20);
        for (const QString& c : done)
            QCOMPARE(QFileInfo(QDir(out).filePath(c)).lastModified(), times[c]);
        QCOMPARE(csvWithoutTimes(QDir(out).filePath(QStringLiteral("sweep.csv"))).size(), 21);
    }
};

QTEST_MAIN(TstSweepMpi)
#include "tst_sweep_mpi.moc"
