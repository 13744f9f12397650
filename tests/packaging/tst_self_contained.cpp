// The repository stands alone (issue 16): no tracked file refers to the folder beside the
// checkout that earlier sessions kept test data and design notes in, nor to the compile
// definition that pointed there. Skipped outside a git checkout (e.g. a source tarball).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(PAPERLAB_SOURCE_DIR);

/// The forbidden strings, assembled at run time so that this file does not contain them.
QList<QByteArray> forbidden() {
    const QByteArray dir = QByteArray("shared");
    return {QByteArray("..") + '/' + dir, QByteArray("..") + '\\' + dir,
            QByteArray("PAPERLAB_") + dir.toUpper() + QByteArray("_DIR")};
}

/// Tracked files (relative paths), or an empty list with *why when this is not a git checkout.
QStringList trackedFiles(QString* why) {
    const QString git = QStandardPaths::findExecutable(QStringLiteral("git"));
    if (git.isEmpty()) {
        *why = QStringLiteral("git not installed");
        return {};
    }
    QProcess p;
    p.setWorkingDirectory(kSource);
    p.start(git, {QStringLiteral("ls-files"), QStringLiteral("-z")});
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *why = QStringLiteral("%1 is not a git checkout").arg(kSource);
        return {};
    }
    QStringList files;
    for (const QByteArray& f : p.readAllStandardOutput().split('\0'))
        if (!f.isEmpty())
            files << QString::fromUtf8(f);
    return files;
}

} // namespace

class TstSelfContained : public QObject {
    Q_OBJECT
private slots:
    void patternIsFound();
    void noTrackedFileRefersOutside();
};

// The search itself works: it finds the strings where they are.
void TstSelfContained::patternIsFound() {
    for (const QByteArray& bad : forbidden()) {
        const QByteArray text = QByteArray("see ") + bad + QByteArray("/data/games for more\n");
        QVERIFY(text.contains(bad));
        QVERIFY(!QByteArray("see shared/data and ./shared").contains(bad));
    }
}

void TstSelfContained::noTrackedFileRefersOutside() {
    QString why;
    const QStringList files = trackedFiles(&why);
    if (files.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY(files.contains(QStringLiteral("CMakeLists.txt")));
    QStringList hits;
    int scanned = 0;
    for (const QString& rel : files) {
        QFile f(QDir(kSource).filePath(rel));
        if (!f.open(QIODevice::ReadOnly))
            continue; // deleted in the work tree but still in the index
        const QByteArray bytes = f.readAll();
        ++scanned;
        for (const QByteArray& bad : forbidden()) {
            qsizetype at = bytes.indexOf(bad);
            while (at >= 0) {
                hits << QStringLiteral("%1:%2: %3")
                            .arg(rel)
                            .arg(bytes.left(at).count('\n') + 1)
                            .arg(QString::fromLatin1(bad));
                at = bytes.indexOf(bad, at + 1);
            }
        }
    }
    QVERIFY(scanned > 100);
    QVERIFY2(hits.isEmpty(), qPrintable(QStringLiteral("tracked files refer outside the repository:\n") +
                                        hits.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TstSelfContained)
#include "tst_self_contained.moc"
