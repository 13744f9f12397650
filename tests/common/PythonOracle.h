#pragma once
/// Running Debian's /usr/bin/python3 as a test oracle: whether it can import some modules, and a
/// script's standard output. Test code only; any thread that may start a QProcess.

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace pl::test {

/// True when /usr/bin/python3 exists and imports \a modules (e.g. "numpy, scipy").
inline bool havePython(const char* modules) {
    if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
        return false;
    QProcess probe;
    probe.start(QStringLiteral("/usr/bin/python3"), {"-c", QStringLiteral("import %1").arg(modules)});
    return probe.waitForFinished(30000) && probe.exitCode() == 0;
}

/// Runs `python3 -c script args...`; its standard output, or "ERROR <stderr>" when it fails.
inline QString runPython(const char* script, const QStringList& args) {
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), QStringList{"-c", script} + args);
    if (!py.waitForFinished(120000) || py.exitCode() != 0)
        return QStringLiteral("ERROR ") + QString::fromUtf8(py.readAllStandardError());
    return QString::fromUtf8(py.readAllStandardOutput());
}

/// Runs `python3 -c script args...`; its standard output split into non-empty lines, or no lines
/// (with a warning showing its stderr) when it fails.
inline QStringList pythonLines(const char* script, const QStringList& args) {
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), QStringList{"-c", script} + args);
    if (!py.waitForFinished(120000) || py.exitCode() != 0) {
        qWarning("%s", py.readAllStandardError().constData());
        return {};
    }
    return QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

} // namespace pl::test
