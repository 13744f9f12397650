#pragma once
/// Entry point of the desktop GUI, called by app/main.cpp after the QApplication and the plugin
/// scan: installs the log console's message handler, creates the job runner and the main window,
/// opens the session named on the command line (if any), offers crash recovery and runs the
/// event loop. GUI thread; returns the exit code.

#include <QElapsedTimer>
#include <QStringList>

class QApplication;

namespace pl {

class PluginManager;

/// `args` are the command-line arguments without the program name; a *.paperlab.json among them
/// is opened. `sinceStart` was started first thing in main() (for the "ready in N ms" log).
int runGui(QApplication& app, PluginManager& plugins, const QStringList& args,
           const QElapsedTimer& sinceStart);

} // namespace pl
