#pragma once
/// The Paperlab main window: panel browser (left dock), open panels as tabs that can be
/// detached into their own window and back, the log console (bottom dock), the jobs area in the
/// status bar, menus with keyboard shortcuts, Preferences, About, Plugins, sessions (open, save,
/// recent, autosave with crash recovery) and drag-and-drop (session files open, input files go
/// to the current panel). Logs "ready in N ms" (category paperlab.startup) after the first paint.
///
/// The PluginManager and JobRunner are not owned and must outlive the window. GUI thread; it
/// never waits on an engine.

#include "Preferences.h"
#include "SessionController.h"

#include <QElapsedTimer>
#include <QList>
#include <QMainWindow>
#include <QPointer>

class QDockWidget;
class QMenu;
class QMessageBox;
class QStackedWidget;
class QTabWidget;

namespace pl {
class JobRunner;
class PluginManager;
} // namespace pl

namespace pl::gui {

class JobsIndicator;
class LogConsole;
class PanelBrowser;
class PanelWidget;
class PanelWindow;

class MainWindow : public QMainWindow, public SessionHost {
    Q_OBJECT
public:
    MainWindow(PluginManager* plugins, JobRunner* runner, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a new panel for the plugin (loading it on first use) and starts its first run.
    /// Returns nullptr and sets *error (also shown to the user) when the plugin is broken.
    PanelWidget* openPanel(const QString& pluginId, QString* error = nullptr);
    /// Every open panel (PanelWidget or PlaceholderPanel), attached or detached, in session order.
    QList<QWidget*> panels() const;
    /// The PanelWidgets among panels().
    QList<PanelWidget*> panelWidgets() const;
    /// The panel of the current tab (nullptr when none or a placeholder).
    PanelWidget* currentPanel() const;
    void setCurrentPanel(QWidget* panel);
    void closePanel(QWidget* panel);
    void closeAllPanels();

    /// Moves a panel into its own top-level window (no-op if already detached).
    void detachPanel(QWidget* panel);
    /// Puts a detached panel back into the tabs, at its session position.
    void reattachPanel(QWidget* panel);
    bool isDetached(QWidget* panel) const;
    /// The window holding a detached panel (nullptr when attached).
    PanelWindow* panelWindow(QWidget* panel) const;

    bool openSession(const QString& path, QString* error = nullptr);
    bool saveSession(const QString& path, QString* error = nullptr);
    /// If a crashed instance left autosave files, asks (non-modal) whether to restore them.
    void offerRecovery();

    Preferences preferences() const { return m_prefs; }
    /// Applies (theme, export DPI, engine threads) and stores the preferences.
    void applyPreferences(const Preferences& prefs);

    /// Time origin for the startup log; without it, the process start time from /proc is used.
    void setStartupTimer(const QElapsedTimer& sinceStart) { m_sinceStart = sinceStart; }
    /// Milliseconds from process start to the first paint (-1 until painted).
    qint64 readyMs() const { return m_readyMs; }

    /// Ask to save a modified session when the window closes (default true; tests turn it off).
    void setAskToSaveOnClose(bool ask) { m_askToSave = ask; }

    PanelBrowser* browser() const { return m_browser; }
    LogConsole* logConsole() const { return m_log; }
    JobsIndicator* jobsIndicator() const { return m_jobs; }
    SessionController* sessions() const { return m_sessions; }
    QTabWidget* panelTabs() const { return m_tabs; }
    /// The action with this objectName ("actionRun", "actionSaveSession", ...), for tests and menus.
    QAction* action(const QString& objectName) const;
    /// All actions with a shortcut, in menu order (shown by Help > Keyboard Shortcuts).
    QList<QAction*> shortcutActions() const;

    // SessionHost
    Session captureSession() const override;
    bool restoreSession(const Session& session, const QString& sessionDir, QString* error) override;

public slots:
    void showPreferences();
    void showAbout();
    void showPlugins();
    void showShortcuts();
    void openSessionInteractive();
    bool saveSessionInteractive();
    bool saveSessionAsInteractive();

signals:
    /// Emitted once, after the first paint, with the startup time in ms.
    void ready(qint64 ms);
    void panelOpened(QWidget* panel);
    void panelClosed(QWidget* panel);

protected:
    void paintEvent(QPaintEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct Slot {
        QWidget* panel = nullptr;
        QPointer<PanelWindow> window;
    };
    void createActions();
    void createMenus();
    QAction* makeAction(const QString& name, const QString& text, const QList<QKeySequence>& keys,
                        const QString& tip = {});
    void addPanel(QWidget* panel, bool startRun);
    QString panelTitle(QWidget* panel) const;
    int slotIndex(QWidget* panel) const;
    void updateTitle();
    void updateActions();
    void updateCentral();
    void rebuildRecentMenu();
    /// File > Open Example: the current panel's examples (ExampleInputs), rebuilt when shown.
    void rebuildExampleMenu();
    void reportError(const QString& title, const QString& text, const QString& detail = {});
    void onFirstPaint();
    QJsonObject captureLayout() const;
    void applyLayout(const QJsonObject& layout);

    PluginManager* m_plugins;
    JobRunner* m_runner;
    Preferences m_prefs;
    QList<Slot> m_slots;
    QStackedWidget* m_central;
    QTabWidget* m_tabs;
    PanelBrowser* m_browser;
    QDockWidget* m_browserDock;
    LogConsole* m_log;
    QDockWidget* m_logDock;
    JobsIndicator* m_jobs;
    SessionController* m_sessions;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exampleMenu = nullptr;
    QList<QMenu*> m_menus;
    QPointer<QMessageBox> m_errorBox;
    QElapsedTimer m_sinceStart;
    qint64 m_readyMs = -1;
    bool m_paintSeen = false;
    bool m_askToSave = true;
    bool m_themeApplied = false;
};

} // namespace pl::gui
