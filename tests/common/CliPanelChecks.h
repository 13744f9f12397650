#pragma once
/// Checks shared by the panels' command-line tests (QtTest macros, so call them from a test slot):
/// every bad file of a panel exits 3 quickly naming itself and writing nothing; `figure all`
/// exports every figure. Test code only.

#include "common/CliTestSupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

namespace pl::test {

/// Runs `paperlab run PANEL --input F --out r.json EXTRA` for every file F of tests/data/bad
/// matching \a patterns (at least \a minimum of them): exit 3, F named on stderr, within 5 s, no
/// result written; where \a needsLine(F) is true, stderr also names the line ("F:" and ":N:").
inline void badFilesExit3(const QString& panel, const QStringList& patterns, int minimum,
                          const QStringList& extra = {},
                          const std::function<bool(const QString&)>& needsLine = {}) {
    const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
    const QStringList files = bad.entryList(patterns, QDir::Files);
    QVERIFY(files.size() >= minimum);
    for (const QString& f : files) {
        QTemporaryDir dir;
        QString err;
        QElapsedTimer t;
        t.start();
        const int code =
            runCli(QStringList{QStringLiteral("run"), panel, QStringLiteral("--input"), bad.filePath(f),
                               QStringLiteral("--out"), dir.filePath("r.json")} +
                       extra,
                   &err);
        QVERIFY2(code == 3,
                 qPrintable(f + QStringLiteral(": exit ") + QString::number(code) + QLatin1Char(' ') + err));
        QVERIFY2(err.contains(f), qPrintable(err));
        if (needsLine && needsLine(f))
            QVERIFY2(err.contains(f + QStringLiteral(":")) &&
                         err.contains(QRegularExpression(QStringLiteral(":[0-9]+:"))),
                     qPrintable(err));
        QVERIFY2(t.elapsed() < 5000, qPrintable(f));
        QVERIFY(!QFile::exists(dir.filePath("r.json")));
    }
}

/// `paperlab figure PANEL all EXTRA --out DIR` succeeds and writes DIR/<id>.png for every id
/// (skips when the build has no frontend module).
inline void figuresExport(const QString& panel, const QStringList& extra,
                          std::initializer_list<const char*> ids) {
    QTemporaryDir dir;
    QString err;
    const int code = runCli(QStringList{QStringLiteral("figure"), panel, QStringLiteral("all")} + extra +
                                QStringList{QStringLiteral("--out"), dir.path()},
                            &err);
    if (code == 5 && err.contains(QStringLiteral("frontend")))
        QSKIP("no frontend module in this build");
    QVERIFY2(code == 0, qPrintable(err));
    for (const char* f : ids)
        QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
}

} // namespace pl::test
