#include "GuiLog.h"

#include <QFile>
#include <QList>

#include <ctime>
#include <unistd.h>

namespace pl::gui {

Q_LOGGING_CATEGORY(lcGui, "paperlab.gui", QtInfoMsg)
Q_LOGGING_CATEGORY(lcStartup, "paperlab.startup", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSession, "paperlab.session", QtInfoMsg)

qint64 msSinceProcessStart() {
    QFile f(QStringLiteral("/proc/self/stat"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray stat = f.readAll();
    // Field 2 (comm) may contain spaces and parentheses: parse after the last ')'.
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return -1;
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    // After comm, fields start at field 3 (state); starttime is field 22 -> index 19.
    if (fields.size() <= 19)
        return -1;
    bool ok = false;
    const qulonglong startTicks = fields.at(19).toULongLong(&ok);
    const long hz = sysconf(_SC_CLK_TCK);
    if (!ok || hz <= 0)
        return -1;
    timespec now{};
    if (clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return -1;
    const double nowMs = double(now.tv_sec) * 1000.0 + double(now.tv_nsec) / 1e6;
    const double startMs = double(startTicks) * 1000.0 / double(hz);
    return qint64(nowMs - startMs + 0.5);
}

} // namespace pl::gui
