#pragma once
/// The headless commands of docs/cli-contract.md: list, params, run, figure, report,
/// replay. Never opens a window or a dialog. Main thread; runs engines synchronously. Model side
/// only: drawing goes through a FigureRenderer (the frontend module, app/frontend/Frontend.h).

#include <QStringList>
#include <QTextStream>

namespace pl {
class FigureRenderer;
class PluginManager;
} // namespace pl

namespace pl::cli {

/// True when argv[1] names a headless command (or --version/--help).
bool isHeadlessCommand(const QStringList& args);

/// True when the command draws (figure, report, replay): main() then loads the frontend module
/// and creates a QApplication; every other command runs on a QCoreApplication.
bool needsRenderer(const QStringList& args);

/// Runs one command; returns the exit code. `args` excludes the program name.
/// Messages go to `out` (stdout) and `err` (stderr, lines "paperlab: error: ...").
/// `renderer` (not owned; may be nullptr for commands that do not draw) exports figures and
/// writes reports; when a drawing command finds it null, it fails with exit 5 and
/// `rendererError` (after the usage, id and input checks).
int run(const QStringList& args, PluginManager& plugins, QTextStream& out, QTextStream& err,
        FigureRenderer* renderer = nullptr, const QString& rendererError = {});

} // namespace pl::cli
