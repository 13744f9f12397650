#pragma once
/// Logging categories of the GUI layer. Enable with QT_LOGGING_RULES, e.g.
/// "paperlab.startup=true" prints "ready in N ms" once the first main window was painted.

#include <QLoggingCategory>

namespace pl::gui {

Q_DECLARE_LOGGING_CATEGORY(lcGui)     ///< "paperlab.gui": panels, actions, user-facing errors
Q_DECLARE_LOGGING_CATEGORY(lcStartup) ///< "paperlab.startup": startup timing (off by default)
Q_DECLARE_LOGGING_CATEGORY(lcSession) ///< "paperlab.session": session files, autosave, recovery

/// Milliseconds since this process started, from /proc/self/stat (10 ms resolution on Linux);
/// -1 when unknown. Any thread.
qint64 msSinceProcessStart();

} // namespace pl::gui
