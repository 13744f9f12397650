// Interrupted writes (issue #10): a child process writes a large session (pl::Session::write via
// the interrupted_writer helper) or a result (`paperlab run --out`) again and again and is
// killed with SIGKILL at varying moments. Afterwards the target must still be the previous
// complete, parseable file, and no leftover temp file may carry the target's name or extension
// (so nothing half-written is ever opened in its place).
#include "core/ResultDocument.h"
#include "sdk/Session.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TstInterruptedWrites : public QObject {
    Q_OBJECT
private slots:
    void sessionSurvivesSigkill();
    void cliResultSurvivesSigkill();

private:
    static void checkNoImpostor(const QDir& dir, const QString& target, const QString& pattern);
};

void TstInterruptedWrites::checkNoImpostor(const QDir& dir, const QString& target, const QString& pattern) {
    // QSaveFile may leave "<target>.XXXXXX" behind when killed; that must never match the
    // pattern a user or the app opens (*.paperlab.json, *.json) nor replace the target.
    const QStringList matching = dir.entryList({pattern}, QDir::Files);
    QCOMPARE(matching, QStringList{target});
}

void TstInterruptedWrites::sessionSurvivesSigkill() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString target = QStringLiteral("work.paperlab.json");
    const QString path = dir.filePath(target);
    int lastGeneration = 0;
    int killsAfterWrite = 0;
    for (int round = 0; round < 6; ++round) {
        QProcess p;
        p.setProgram(QStringLiteral(PAPERLAB_BINARY_DIR "/bin/interrupted_writer"));
        p.setArguments({path});
        p.start();
        QVERIFY2(p.waitForStarted(10000), qPrintable(p.errorString()));
        // Wait for at least one complete write, then kill at a different point of the next one.
        QElapsedTimer t;
        t.start();
        while (!p.canReadLine() && t.elapsed() < 60000)
            p.waitForReadyRead(100);
        QVERIFY2(p.canReadLine(), "the writer never finished a first write");
        QTest::qWait(3 + round * 17);
        p.kill(); // SIGKILL
        QVERIFY(p.waitForFinished(10000));
        const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
        int written = 0;
        for (const QByteArray& l : lines)
            if (l.startsWith("written "))
                written = l.mid(8).toInt();
        if (written == 0)
            written = 1; // the first line was consumed by canReadLine's buffer only
        ++killsAfterWrite;

        pl::Session s;
        QString error;
        QVERIFY2(pl::Session::read(path, &s, &error), qPrintable(error));
        const int generation = s.layout.value("generation").toInt();
        QVERIFY2(generation >= 1, "the session on disk has no generation");
        QCOMPARE(s.panels.size(), 400);
        for (const QJsonObject& panel : std::as_const(s.panels))
            QCOMPARE(panel.value("generation").toInt(), generation); // not a mix of two writes
        QVERIFY(generation >= written); // at least the last reported complete write
        lastGeneration = generation;
        checkNoImpostor(QDir(dir.path()), target, QStringLiteral("*.paperlab.json"));
    }
    QVERIFY(killsAfterWrite == 6 && lastGeneration >= 1);
}

void TstInterruptedWrites::cliResultSurvivesSigkill() {
    const QString exe = QStringLiteral(PAPERLAB_BINARY_DIR "/bin/paperlab");
    if (!QFileInfo::exists(exe))
        QSKIP("paperlab executable not built");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString target = QStringLiteral("result.json");
    const QString path = dir.filePath(target);
    const QStringList args{"run", "ssn-nash", "--set", "rows=300", "--set", "cols=300",
                           "--set", "claim_games=0", "--seed", "7", "--out", path};
    // A first complete result.
    QProcess first;
    first.start(exe, args);
    QVERIFY(first.waitForFinished(300000));
    QVERIFY2(first.exitStatus() == QProcess::NormalExit && first.exitCode() == 0,
             first.readAllStandardError().constData());
    QFile f0(path);
    QVERIFY(f0.open(QIODevice::ReadOnly));
    const QByteArray good = f0.readAll();
    f0.close();
    QElapsedTimer fullRun;
    fullRun.start();
    QProcess timing;
    timing.start(exe, args);
    QVERIFY(timing.waitForFinished(300000));
    const qint64 runMs = qMax<qint64>(fullRun.elapsed(), 20);
    // Kill later and later, up to past the end of the run (the write is the last few ms).
    for (int round = 1; round <= 8; ++round) {
        QProcess p;
        p.start(exe, args);
        QVERIFY(p.waitForStarted(10000));
        QTest::qWait(int(runMs * round / 8));
        p.kill();
        p.waitForFinished(10000);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray now = f.readAll();
        try {
            const pl::ResultDocument doc = pl::ResultDocument::fromJson(now.toStdString(), path.toStdString());
            QCOMPARE(QString::fromStdString(doc.panel), QStringLiteral("ssn-nash"));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(!now.isEmpty() && !good.isEmpty());
        checkNoImpostor(QDir(dir.path()), target, QStringLiteral("*.json"));
    }
}

QTEST_GUILESS_MAIN(TstInterruptedWrites)
#include "tst_interrupted_writes.moc"
