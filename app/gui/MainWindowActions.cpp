// MainWindow: actions, menus and shortcuts (split from MainWindow.cpp to keep files short).
#include "MainWindow.h"

#include "ExampleInputs.h"
#include "PanelBrowser.h"
#include "PanelControls.h"
#include "PanelWidget.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>
#include <QUndoStack>

namespace pl::gui {

QAction* MainWindow::makeAction(const QString& name, const QString& text, const QList<QKeySequence>& keys,
                                const QString& tip) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    a->setShortcuts(keys);
    if (!tip.isEmpty())
        a->setStatusTip(tip);
    a->setShortcutContext(Qt::WindowShortcut);
    addAction(a);
    return a;
}

QAction* MainWindow::action(const QString& objectName) const {
    return findChild<QAction*>(objectName, Qt::FindDirectChildrenOnly);
}

void MainWindow::createActions() {
    using K = QKeySequence;
    auto on = [this](const QString& name, auto fn) { connect(action(name), &QAction::triggered, this, fn); };
    auto onPanel = [this](const QString& name, void (PanelWidget::*fn)()) {
        connect(action(name), &QAction::triggered, this, [this, fn] {
            if (PanelWidget* p = currentPanel())
                (p->*fn)();
        });
    };

    makeAction("actionFindPanel", tr("&Find Panel…"), {K(Qt::CTRL | Qt::Key_K)},
               tr("Search the panel browser"));
    makeAction("actionOpenSession", tr("&Open Session…"), {K::Open}, tr("Open a *.paperlab.json session"));
    makeAction("actionSaveSession", tr("&Save Session"), {K::Save});
    makeAction("actionSaveSessionAs", tr("Save Session &As…"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_S)});
    makeAction("actionLoadInput", tr("&Load Input File…"), {K(Qt::CTRL | Qt::Key_I)},
               tr("Load an input file into the current panel"));
    makeAction("actionExportFigure", tr("Export &Figure…"), {K(Qt::CTRL | Qt::Key_E)}, tr("PNG, SVG or PDF"));
    makeAction("actionExportData", tr("Export Figure &Data…"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_E)},
               tr("CSV or JSON"));
    makeAction("actionExportResult", tr("Export &Result JSON…"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_J)});
    makeAction("actionExportReport", tr("Export Re&port…"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_P)},
               tr("HTML or PDF report of the current panel"));
    makeAction("actionClosePanel", tr("&Close Panel"), {K(Qt::CTRL | Qt::Key_W)});
    makeAction("actionQuit", tr("&Quit"), {K(Qt::CTRL | Qt::Key_Q)});
    makeAction("actionUndo", tr("&Undo"), {K::Undo},
               tr("Undo the last parameter change of the current panel"));
    makeAction("actionRedo", tr("&Redo"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), K(Qt::CTRL | Qt::Key_Y)},
               tr("Redo the parameter change undone last"));
    makeAction("actionCopyState", tr("&Copy State"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_C)},
               tr("Copy the panel's parameters and seed as a paperlab: string"));
    makeAction("actionPasteState", tr("&Paste State"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_V)},
               tr("Restore parameters and seed from a paperlab: string on the clipboard"));
    makeAction("actionStartTour", tr("Guided &Tour…"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_T)},
               tr("Play the panel's guided tour step by step"));
    makeAction("actionPreferences", tr("&Preferences…"), {K(Qt::CTRL | Qt::Key_Comma)});
    makeAction("actionDetachPanel", tr("&Detach Panel"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_D)},
               tr("Move the current panel into its own window (double-click a tab does the same)"));
    makeAction("actionReattachAll", tr("&Reattach All Panels"), {});
    makeAction("actionNextPanel", tr("&Next Panel"),
               {K(Qt::CTRL | Qt::Key_PageDown), K(Qt::CTRL | Qt::Key_Tab)});
    makeAction("actionPreviousPanel", tr("P&revious Panel"),
               {K(Qt::CTRL | Qt::Key_PageUp), K(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab)});
    makeAction("actionFullScreen", tr("F&ull Screen"), {K(Qt::Key_F11)})->setCheckable(true);
    makeAction("actionRun", tr("&Run"), {K(Qt::Key_F5), K(Qt::CTRL | Qt::Key_R)},
               tr("Compute the current panel now"));
    makeAction("actionCancel", tr("&Cancel"), {K(Qt::Key_Escape)},
               tr("Stop the current panel's computation"));
    makeAction("actionResetParams", tr("Reset &Parameters"), {K(Qt::CTRL | Qt::SHIFT | Qt::Key_R)});
    makeAction("actionPanelHelp", tr("Panel &Help"), {K(Qt::Key_F1)}, tr("The current panel's help page"));
    makeAction("actionShortcuts", tr("&Keyboard Shortcuts"), {K(Qt::CTRL | Qt::Key_Slash)});
    makeAction("actionPlugins", tr("P&lugins…"), {});
    makeAction("actionAbout", tr("&About Paperlab"), {});

    on("actionFindPanel", [this] {
        m_browserDock->show();
        m_browserDock->raise();
        m_browser->focusSearch();
    });
    on("actionOpenSession", [this] { openSessionInteractive(); });
    on("actionSaveSession", [this] { saveSessionInteractive(); });
    on("actionSaveSessionAs", [this] { saveSessionAsInteractive(); });
    on("actionLoadInput", [this] {
        if (PanelWidget* p = currentPanel())
            p->controls()->chooseInputFile();
    });
    onPanel("actionExportFigure", &PanelWidget::exportCurrentFigureInteractive);
    onPanel("actionExportData", &PanelWidget::exportDataInteractive);
    onPanel("actionExportResult", &PanelWidget::exportResultInteractive);
    onPanel("actionExportReport", &PanelWidget::exportReportInteractive);
    on("actionClosePanel", [this] {
        if (QWidget* w = m_tabs->currentWidget())
            closePanel(w);
    });
    on("actionQuit", [this] { close(); });
    on("actionUndo", [this] {
        if (PanelWidget* p = currentPanel())
            p->undoStack()->undo();
    });
    on("actionRedo", [this] {
        if (PanelWidget* p = currentPanel())
            p->undoStack()->redo();
    });
    onPanel("actionCopyState", &PanelWidget::copyState);
    onPanel("actionPasteState", &PanelWidget::pasteState);
    onPanel("actionStartTour", &PanelWidget::startTourInteractive);
    on("actionPreferences", [this] { showPreferences(); });
    on("actionDetachPanel", [this] {
        if (QWidget* w = m_tabs->currentWidget())
            detachPanel(w);
    });
    on("actionReattachAll", [this] {
        for (QWidget* p : panels())
            reattachPanel(p);
    });
    on("actionNextPanel", [this] {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count());
    });
    on("actionPreviousPanel", [this] {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });
    on("actionFullScreen", [this](bool full) { full ? showFullScreen() : showNormal(); });
    onPanel("actionRun", &PanelWidget::run);
    onPanel("actionCancel", &PanelWidget::cancel);
    on("actionResetParams", [this] {
        if (PanelWidget* p = currentPanel())
            p->controls()->resetParameters();
    });
    on("actionPanelHelp", [this] {
        if (PanelWidget* p = currentPanel())
            p->showHelp();
        else
            showShortcuts();
    });
    on("actionShortcuts", [this] { showShortcuts(); });
    on("actionPlugins", [this] { showPlugins(); });
    on("actionAbout", [this] { showAbout(); });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(action("actionFindPanel"));
    file->addSeparator();
    file->addAction(action("actionOpenSession"));
    m_recentMenu = file->addMenu(tr("Recent Sessions"));
    m_recentMenu->setObjectName(QStringLiteral("RecentSessionsMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addAction(action("actionSaveSession"));
    file->addAction(action("actionSaveSessionAs"));
    file->addSeparator();
    file->addAction(action("actionLoadInput"));
    m_exampleMenu = file->addMenu(tr("Open E&xample"));
    m_exampleMenu->setObjectName(QStringLiteral("OpenExampleMenu"));
    m_exampleMenu->setToolTipsVisible(true);
    connect(m_exampleMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildExampleMenu);
    file->addAction(action("actionExportFigure"));
    file->addAction(action("actionExportData"));
    file->addAction(action("actionExportResult"));
    file->addAction(action("actionExportReport"));
    file->addSeparator();
    file->addAction(action("actionClosePanel"));
    file->addAction(action("actionQuit"));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(action("actionUndo"));
    edit->addAction(action("actionRedo"));
    edit->addSeparator();
    edit->addAction(action("actionCopyState"));
    edit->addAction(action("actionPasteState"));
    edit->addSeparator();
    edit->addAction(action("actionPreferences"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* browserToggle = m_browserDock->toggleViewAction();
    browserToggle->setObjectName(QStringLiteral("actionToggleBrowser"));
    browserToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    QAction* logToggle = m_logDock->toggleViewAction();
    logToggle->setObjectName(QStringLiteral("actionToggleLog"));
    logToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    view->addAction(browserToggle);
    view->addAction(logToggle);
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(this);
    for (const auto& [key, text] :
         {std::pair{QStringLiteral("system"), tr("Follow the System")},
          std::pair{QStringLiteral("light"), tr("Light")}, std::pair{QStringLiteral("dark"), tr("Dark")}}) {
        QAction* a = theme->addAction(text);
        a->setObjectName(QStringLiteral("actionTheme_") + key);
        a->setCheckable(true);
        a->setData(key);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, key] {
            Preferences p = m_prefs;
            p.theme = key;
            applyPreferences(p);
        });
    }
    view->addSeparator();
    view->addAction(action("actionDetachPanel"));
    view->addAction(action("actionReattachAll"));
    view->addAction(action("actionNextPanel"));
    view->addAction(action("actionPreviousPanel"));
    view->addSeparator();
    view->addAction(action("actionFullScreen"));

    QMenu* panel = menuBar()->addMenu(tr("&Panel"));
    panel->addAction(action("actionRun"));
    panel->addAction(action("actionCancel"));
    panel->addAction(action("actionResetParams"));
    panel->addAction(action("actionStartTour"));
    panel->addAction(action("actionPanelHelp"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action("actionPanelHelp"));
    help->addAction(action("actionShortcuts"));
    help->addSeparator();
    help->addAction(action("actionPlugins"));
    help->addAction(action("actionAbout"));
    m_menus = {file, edit, view, panel, help};

    connect(m_tabs->tabBar(), &QTabBar::customContextMenuRequested, this, [this](const QPoint& pos) {
        const int i = m_tabs->tabBar()->tabAt(pos);
        if (i < 0)
            return;
        QWidget* w = m_tabs->widget(i);
        QMenu menu(this);
        menu.addAction(tr("Detach"), this, [this, w] { detachPanel(w); });
        menu.addAction(tr("Close"), this, [this, w] { closePanel(w); });
        menu.exec(m_tabs->tabBar()->mapToGlobal(pos));
    });
}

QList<QAction*> MainWindow::shortcutActions() const {
    QList<QAction*> out;
    for (QMenu* m : m_menus)
        for (QAction* a : m->actions())
            if (!a->shortcut().isEmpty() && !out.contains(a))
                out << a;
    return out;
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = m_sessions->recentSessions();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent.at(i);
        QAction* a =
            m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openSession(path); });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear List"), m_sessions, &SessionController::clearRecent)
        ->setEnabled(!recent.isEmpty());
}

void MainWindow::rebuildExampleMenu() {
    m_exampleMenu->clear();
    PanelWidget* panel = currentPanel();
    const QList<ExampleInput> examples =
        panel ? ExampleInputs::forPanel(panel->pluginId()) : QList<ExampleInput>{};
    for (const ExampleInput& e : examples) {
        const QString text =
            e.files.size() == 1 ? e.name : tr("%1 (%2 files)").arg(e.name).arg(e.files.size());
        QAction* a = m_exampleMenu->addAction(text);
        const QString paths = e.files.join(QLatin1Char('\n'));
        a->setToolTip(paths);
        a->setStatusTip(e.files.size() == 1 ? e.files.first() : QFileInfo(e.files.first()).absolutePath());
        a->setData(e.files);
        const QStringList files = e.files;
        // The same path as File > Load Input File (PanelWidget::loadInputFile) for one file.
        connect(a, &QAction::triggered, this, [this, files] {
            if (PanelWidget* p = currentPanel())
                p->loadInputFiles(files);
        });
    }
    if (examples.isEmpty())
        m_exampleMenu->addAction(panel ? tr("(none for this panel)") : tr("(no panel open)"))
            ->setEnabled(false);
}

} // namespace pl::gui
