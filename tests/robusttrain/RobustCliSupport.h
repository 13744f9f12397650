#pragma once
/// CLI helpers shared by the robusttrain panels' command-line tests: source-tree paths and one
/// `paperlab run PANEL --input ... SETTINGS --out OUT` call. Header-only; test executables only.
#include "common/CliTestSupport.h"

#include <QString>
#include <QStringList>

namespace pl::test {

/// \a rel below the source tree.
inline QString sourcePath(const char* rel) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/") + QString::fromLatin1(rel);
}

/// Runs \a panel on \a files (in order) with \a settings; returns the exit code, stderr in \a err.
inline int runPanelInputs(const QString& panel, const QStringList& files, const QStringList& settings,
                          QString* err, const QString& out) {
    QStringList args{QStringLiteral("run"), panel};
    for (const QString& f : files)
        args << QStringLiteral("--input") << f;
    return runCli(args + settings + QStringList{QStringLiteral("--out"), out}, err);
}

} // namespace pl::test
