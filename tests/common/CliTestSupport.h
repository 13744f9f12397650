#pragma once
/// Helpers shared by the panels' command-line tests (tests/<panel>/tst_*_cli.cpp): where the
/// paperlab binary is, running it, reading its result JSON. Test code only; GUI-less, any thread
/// that may start a QProcess.

#include "core/ResultDocument.h"

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace pl::test {

/// The paperlab executable of this build tree.
inline QString paperlabBinary() {
    return QStringLiteral(PAPERLAB_BINARY_DIR "/bin/paperlab");
}

/// Runs paperlab with \a args; returns its exit code (-1 when it did not finish within
/// \a timeoutMs) and, if \a err is given, its standard error.
inline int runCli(const QStringList& args, QString* err = nullptr, int timeoutMs = 120000) {
    QProcess p;
    p.start(paperlabBinary(), args);
    if (!p.waitForFinished(timeoutMs))
        return -1;
    if (err)
        *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitCode();
}

/// Reads a result JSON written by `paperlab run`, with elapsed_ms zeroed (wall time is the only
/// field allowed to differ between two runs with one seed). An unreadable file gives {}.
inline ResultDocument readResult(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    ResultDocument d = ResultDocument::fromJson(f.readAll().toStdString());
    d.elapsedMs = 0;
    return d;
}

} // namespace pl::test
