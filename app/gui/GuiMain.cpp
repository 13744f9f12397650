#include "GuiMain.h"

#include "GuiLog.h"
#include "LogConsole.h"
#include "MainWindow.h"
#include "sdk/JobRunner.h"
#include "sdk/PluginManager.h"

#include <QApplication>
#include <QFileInfo>
#include <QTimer>

#include <memory>

namespace pl {

int runGui(QApplication& app, PluginManager& plugins, const QStringList& args,
           const QElapsedTimer& sinceStart) {
    gui::LogConsole::installMessageHandler();
    JobRunner runner;
    int code = 0;
    {
        gui::MainWindow window(&plugins, &runner);
        window.setStartupTimer(sinceStart);
        QString session;
        for (const QString& a : args)
            if (!a.startsWith(QLatin1Char('-')) && a.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
                session = a;
                break;
            }
        window.show();
        int broken = 0;
        for (const PluginInfo& info : plugins.plugins())
            broken += info.error.isEmpty() ? 0 : 1;
        qCInfo(gui::lcGui).noquote()
            << QStringLiteral("%1 panel(s) found, %2 broken").arg(plugins.plugins().size()).arg(broken);
        // After the first paint: opening a session or recovering must not delay the window.
        QObject::connect(&window, &gui::MainWindow::ready, &window, [&window, session] {
            if (!session.isEmpty())
                window.openSession(QFileInfo(session).absoluteFilePath());
            else
                window.offerRecovery();
        });
        code = app.exec();
    }
    runner.cancelAll();
    runner.waitForDone(2000);
    return code;
}

} // namespace pl
