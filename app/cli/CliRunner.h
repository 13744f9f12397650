#pragma once
/// The headless commands of shared/design/cli-contract.md: list, params, run, figure, report,
/// replay. Never opens a window or a dialog. Main thread; runs engines synchronously.

#include <QStringList>
#include <QTextStream>

namespace pl {
class PluginManager;
}

namespace pl::cli {

/// True when argv[1] names a headless command (or --version/--help).
bool isHeadlessCommand(const QStringList& args);

/// Runs one command; returns the exit code. `args` excludes the program name.
/// Messages go to `out` (stdout) and `err` (stderr, lines "paperlab: error: ...").
int run(const QStringList& args, PluginManager& plugins, QTextStream& out, QTextStream& err);

} // namespace pl::cli
