#include "MainWindow.h"

#include "gui/FigureArea.h"

#include "AboutDialog.h"
#include "GuiLog.h"
#include "HelpViewer.h"
#include "JobsIndicator.h"
#include "LogConsole.h"
#include "PanelBrowser.h"
#include "PanelWidget.h"
#include "PanelWindow.h"
#include "PlaceholderPanel.h"
#include "PluginsDialog.h"
#include "PreferencesDialog.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "widgets/Theme.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

namespace pl::gui {

namespace {
const QString kSessionSuffix = QStringLiteral(".paperlab.json");

bool isSessionFile(const QString& path) {
    return path.endsWith(kSessionSuffix, Qt::CaseInsensitive);
}
} // namespace

MainWindow::MainWindow(PluginManager* plugins, JobRunner* runner, QWidget* parent)
    : QMainWindow(parent), m_plugins(plugins), m_runner(runner) {
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    Preferences::systemPrefersDark(); // capture the platform palette before any theme is applied

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("PanelTabs"));
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(false); // tab order is session order
    m_tabs->setDocumentMode(true);
    m_tabs->setElideMode(Qt::ElideRight);
    m_tabs->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    auto* welcome =
        new QLabel(tr("<h2>Paperlab</h2><p>Every paper is a panel. Pick one in the panel browser "
                      "on the left (double-click or Enter), or open a saved session "
                      "(Ctrl+O).</p><p>Drop a <tt>*.paperlab.json</tt> session here to open it.</p>"),
                   this);
    welcome->setAlignment(Qt::AlignCenter);
    welcome->setWordWrap(true);
    m_central = new QStackedWidget(this);
    m_central->addWidget(welcome);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);

    m_browser = new PanelBrowser(plugins, this);
    m_browserDock = new QDockWidget(tr("Panels"), this);
    m_browserDock->setObjectName(QStringLiteral("PanelBrowserDock"));
    m_browserDock->setWidget(m_browser);
    addDockWidget(Qt::LeftDockWidgetArea, m_browserDock);
    resizeDocks({m_browserDock}, {300}, Qt::Horizontal);

    m_log = new LogConsole(this);
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("LogDock"));
    m_logDock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    m_logDock->hide();

    m_jobs = new JobsIndicator(runner, this);
    statusBar()->addPermanentWidget(m_jobs);

    m_sessions = new SessionController(this, this);
    connect(m_sessions, &SessionController::dirtyChanged, this, &MainWindow::updateTitle);
    connect(m_sessions, &SessionController::currentPathChanged, this, &MainWindow::updateTitle);

    createActions();
    createMenus();

    connect(m_browser, &PanelBrowser::openRequested, this, [this](const QString& id) { openPanel(id); });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) { closePanel(m_tabs->widget(i)); });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_tabs->tabBar(), &QTabBar::tabBarDoubleClicked, this, [this](int i) {
        if (i >= 0)
            detachPanel(m_tabs->widget(i));
    });
    // PluginManager logs the failure itself; the browser greys the plugin out.
    connect(m_plugins, &PluginManager::pluginFailed, m_browser, &PanelBrowser::refresh);

    m_prefs = Preferences::load();
    applyPreferences(m_prefs);

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (!settings.contains(QStringLiteral("window/geometry")))
        resize(1280, 800);
    updateCentral();
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() {
    // Panels (and their models) go first, while the runner still exists.
    for (const Slot& s : m_slots) {
        if (s.window)
            delete s.window.data();
        else
            delete s.panel;
    }
    m_slots.clear();
}

// ---- panels -------------------------------------------------------------------------------

PanelWidget* MainWindow::openPanel(const QString& pluginId, QString* error) {
    QString err;
    const PluginInfo* info = m_plugins->info(pluginId);
    IPaperPlugin* plugin = nullptr;
    if (!info)
        err = tr("No panel with id '%1' is installed.").arg(pluginId);
    else if (!info->error.isEmpty())
        err = tr("Panel '%1' is broken: %2").arg(pluginId, info->error);
    else
        plugin = m_plugins->load(pluginId, &err);
    if (!plugin) {
        reportError(tr("Cannot open panel"), err);
        if (error)
            *error = err;
        return nullptr;
    }
    auto* model = new PanelModel(*m_plugins->info(pluginId), plugin, m_runner);
    model->setEngineThreads(m_prefs.threads);
    auto* panel = new PanelWidget(model);
    addPanel(panel, true);
    qCInfo(lcGui).noquote() << "opened panel" << pluginId;
    m_sessions->markDirty();
    return panel;
}

void MainWindow::addPanel(QWidget* panel, bool startRun) {
    m_slots.append(Slot{panel, {}});
    const int idx = m_tabs->addTab(panel, panelTitle(panel));
    m_tabs->setTabToolTip(idx, panelTitle(panel));
    if (auto* p = qobject_cast<PanelWidget*>(panel)) {
        p->setExportDpi(m_prefs.dpi);
        connect(p, &PanelWidget::stateChanged, m_sessions, &SessionController::markDirty);
        connect(p->undoStack(), &QUndoStack::indexChanged, this, &MainWindow::updateActions);
        if (startRun)
            p->run();
    }
    m_tabs->setCurrentWidget(panel);
    updateCentral();
    updateActions();
    emit panelOpened(panel);
}

QString MainWindow::panelTitle(QWidget* panel) const {
    if (auto* p = qobject_cast<PanelWidget*>(panel))
        return p->title();
    if (auto* p = qobject_cast<PlaceholderPanel*>(panel))
        return p->title();
    return panel ? panel->windowTitle() : QString();
}

int MainWindow::slotIndex(QWidget* panel) const {
    for (int i = 0; i < m_slots.size(); ++i)
        if (m_slots.at(i).panel == panel)
            return i;
    return -1;
}

QList<QWidget*> MainWindow::panels() const {
    QList<QWidget*> out;
    for (const Slot& s : m_slots)
        out << s.panel;
    return out;
}

QList<PanelWidget*> MainWindow::panelWidgets() const {
    QList<PanelWidget*> out;
    for (const Slot& s : m_slots)
        if (auto* p = qobject_cast<PanelWidget*>(s.panel))
            out << p;
    return out;
}

PanelWidget* MainWindow::currentPanel() const {
    return qobject_cast<PanelWidget*>(m_tabs->currentWidget());
}

void MainWindow::setCurrentPanel(QWidget* panel) {
    if (PanelWindow* w = panelWindow(panel)) {
        w->raise();
        w->activateWindow();
    } else if (m_tabs->indexOf(panel) >= 0) {
        m_tabs->setCurrentWidget(panel);
    }
}

void MainWindow::closePanel(QWidget* panel) {
    const int i = slotIndex(panel);
    if (i < 0)
        return;
    const Slot slot = m_slots.takeAt(i);
    if (slot.window) {
        slot.window->takePanel();
        slot.window->deleteLater();
    } else {
        m_tabs->removeTab(m_tabs->indexOf(panel));
    }
    emit panelClosed(panel);
    panel->deleteLater(); // its model cancels its job; the job ends on the pool, unobserved
    updateCentral();
    updateActions();
    m_sessions->markDirty();
}

void MainWindow::closeAllPanels() {
    while (!m_slots.isEmpty())
        closePanel(m_slots.constLast().panel);
}

bool MainWindow::isDetached(QWidget* panel) const {
    return panelWindow(panel) != nullptr;
}

PanelWindow* MainWindow::panelWindow(QWidget* panel) const {
    const int i = slotIndex(panel);
    return i < 0 ? nullptr : m_slots.at(i).window.data();
}

void MainWindow::detachPanel(QWidget* panel) {
    const int i = slotIndex(panel);
    if (i < 0 || m_slots.at(i).window)
        return;
    const QSize size = panel->size();
    m_tabs->removeTab(m_tabs->indexOf(panel));
    auto* window = new PanelWindow(panel, panelTitle(panel), this);
    window->resize(size.expandedTo(QSize(900, 600)));
    m_slots[i].window = window;
    connect(window, &PanelWindow::reattachRequested, this,
            [this](PanelWindow* w) { reattachPanel(w->panel()); });
    window->show();
    updateCentral();
    updateActions();
    qCInfo(lcGui).noquote() << "detached panel" << panelTitle(panel);
}

void MainWindow::reattachPanel(QWidget* panel) {
    const int i = slotIndex(panel);
    if (i < 0 || !m_slots.at(i).window)
        return;
    PanelWindow* window = m_slots.at(i).window;
    window->takePanel();
    window->hide();
    window->deleteLater();
    m_slots[i].window = nullptr;
    // Insert at the position of its session order among attached panels.
    int tabPos = 0;
    for (int k = 0; k < i; ++k)
        if (!m_slots.at(k).window)
            ++tabPos;
    const int idx = m_tabs->insertTab(tabPos, panel, panelTitle(panel));
    m_tabs->setTabToolTip(idx, panelTitle(panel));
    panel->show();
    m_tabs->setCurrentIndex(idx);
    updateCentral();
    updateActions();
    qCInfo(lcGui).noquote() << "reattached panel" << panelTitle(panel);
}

void MainWindow::updateCentral() {
    m_central->setCurrentIndex(m_tabs->count() > 0 ? 1 : 0);
}

void MainWindow::updateActions() {
    const bool panel = currentPanel() != nullptr;
    const bool anyTab = m_tabs->count() > 0;
    for (const char* name :
         {"actionLoadInput", "actionExportFigure", "actionExportData", "actionExportResult",
          "actionExportReport", "actionRun", "actionCancel", "actionResetParams", "actionUndo", "actionRedo",
          "actionCopyState", "actionPasteState", "actionStartTour"})
        action(QString::fromLatin1(name))->setEnabled(panel);
    m_exampleMenu->menuAction()->setEnabled(panel);
    action("actionClosePanel")->setEnabled(anyTab);
    action("actionDetachPanel")->setEnabled(anyTab);
    bool anyDetached = false;
    for (const Slot& s : m_slots)
        anyDetached = anyDetached || s.window;
    action("actionReattachAll")->setEnabled(anyDetached);
    if (PanelWidget* p = currentPanel()) {
        action("actionLoadInput")->setEnabled(p->model()->engine().maxInputs() > 0);
        m_exampleMenu->menuAction()->setEnabled(p->model()->engine().maxInputs() > 0);
        // Undo/Redo name the step they act on ("Undo Change rows").
        const QUndoStack* undo = p->undoStack();
        action("actionUndo")->setEnabled(undo->canUndo());
        action("actionRedo")->setEnabled(undo->canRedo());
        action("actionUndo")->setText(undo->canUndo() ? tr("&Undo %1").arg(undo->undoText()) : tr("&Undo"));
        action("actionRedo")->setText(undo->canRedo() ? tr("&Redo %1").arg(undo->redoText()) : tr("&Redo"));
    }
}

void MainWindow::updateTitle() {
    const QString path = m_sessions->currentPath();
    const QString name = path.isEmpty() ? tr("untitled session") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] — Paperlab").arg(name));
    setWindowModified(m_sessions->isDirty() && !m_slots.isEmpty());
}

void MainWindow::reportError(const QString& title, const QString& text, const QString& detail) {
    qCWarning(lcGui).noquote() << title + QStringLiteral(":") << text;
    statusBar()->showMessage(text, 10000);
    if (m_errorBox)
        m_errorBox->close();
    m_errorBox = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Close, this);
    m_errorBox->setObjectName(QStringLiteral("ErrorBox"));
    if (!detail.isEmpty())
        m_errorBox->setInformativeText(detail);
    m_errorBox->setAttribute(Qt::WA_DeleteOnClose);
    m_errorBox->setWindowModality(Qt::NonModal);
    m_errorBox->show();
}

// ---- sessions -----------------------------------------------------------------------------

QJsonObject MainWindow::captureLayout() const {
    QJsonArray detached;
    for (int i = 0; i < m_slots.size(); ++i)
        if (const PanelWindow* w = m_slots.at(i).window)
            detached.append(
                QJsonObject{{"panel", i}, {"geometry", QString::fromLatin1(w->saveGeometry().toBase64())}});
    QJsonArray figureLayouts; // per panel: {"panel", "mode", "figures"} (FigureArea)
    for (int i = 0; i < m_slots.size(); ++i)
        if (auto* p = qobject_cast<PanelWidget*>(m_slots.at(i).panel)) {
            QJsonObject o = p->figureArea()->layoutState();
            o["panel"] = i;
            figureLayouts.append(o);
        }
    return QJsonObject{{"mainWindowState", QString::fromLatin1(saveState().toBase64())},
                       {"mainWindowGeometry", QString::fromLatin1(saveGeometry().toBase64())},
                       {"currentPanel", slotIndex(m_tabs->currentWidget())},
                       {"detached", detached},
                       {"figureLayouts", figureLayouts}};
}

void MainWindow::applyLayout(const QJsonObject& layout) {
    const QByteArray state = QByteArray::fromBase64(layout.value("mainWindowState").toString().toLatin1());
    if (!state.isEmpty())
        restoreState(state);
    for (const QJsonValue& v : layout.value("figureLayouts").toArray()) {
        const int i = v.toObject().value("panel").toInt(-1);
        if (i >= 0 && i < m_slots.size())
            if (auto* p = qobject_cast<PanelWidget*>(m_slots.at(i).panel))
                p->figureArea()->applyLayoutState(v.toObject());
    }
    const int current = layout.value("currentPanel").toInt(-1);
    if (current >= 0 && current < m_slots.size())
        m_tabs->setCurrentWidget(m_slots.at(current).panel);
    for (const QJsonValue& v : layout.value("detached").toArray()) {
        const QJsonObject o = v.toObject();
        const int i = o.value("panel").toInt(-1);
        if (i < 0 || i >= m_slots.size())
            continue;
        detachPanel(m_slots.at(i).panel);
        if (PanelWindow* w = m_slots.at(i).window)
            w->restoreGeometry(QByteArray::fromBase64(o.value("geometry").toString().toLatin1()));
    }
}

Session MainWindow::captureSession() const {
    Session s;
    for (const Slot& slot : m_slots) {
        if (auto* p = qobject_cast<PanelWidget*>(slot.panel))
            s.panels << p->model()->saveState();
        else if (auto* ph = qobject_cast<PlaceholderPanel*>(slot.panel))
            s.panels << ph->record();
    }
    s.layout = captureLayout();
    return s;
}

bool MainWindow::restoreSession(const Session& session, const QString& sessionDir, QString* error) {
    // Stage every panel first; the workspace changes only when all of them are valid.
    QList<QWidget*> staged;
    auto discard = [&] {
        qDeleteAll(staged);
        staged.clear();
    };
    for (int i = 0; i < session.panels.size(); ++i) {
        const QJsonObject& record = session.panels.at(i);
        const QString id = record.value("plugin").toString();
        const PluginInfo* info = m_plugins->info(id);
        QString why;
        IPaperPlugin* plugin = nullptr;
        if (!info)
            why = tr("The plugin '%1' is not installed.").arg(id);
        else if (!info->error.isEmpty())
            why = tr("The plugin '%1' is broken: %2").arg(id, info->error);
        else if (!(plugin = m_plugins->load(id, &why)))
            why = tr("The plugin '%1' failed to load: %2").arg(id, why);
        if (!plugin) {
            qCWarning(lcSession).noquote() << "panel" << i + 1 << "kept as a placeholder:" << why;
            staged << new PlaceholderPanel(record, why);
            continue;
        }
        auto* model = new PanelModel(*m_plugins->info(id), plugin, m_runner);
        model->setEngineThreads(m_prefs.threads);
        QString err;
        if (!model->restoreState(record, sessionDir, &err)) {
            delete model;
            discard();
            if (error)
                *error = tr("panel %1 (%2): %3").arg(i + 1).arg(id, err);
            return false;
        }
        staged << new PanelWidget(model);
    }
    closeAllPanels();
    for (QWidget* w : staged)
        addPanel(w, true);
    applyLayout(session.layout);
    updateTitle();
    return true;
}

bool MainWindow::openSession(const QString& path, QString* error) {
    QString err;
    if (!m_sessions->open(path, &err)) {
        reportError(tr("Session not opened"), err, tr("Nothing was changed."));
        if (error)
            *error = err;
        return false;
    }
    statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 5000);
    return true;
}

bool MainWindow::saveSession(const QString& path, QString* error) {
    QString target = path;
    if (!isSessionFile(target))
        target += kSessionSuffix;
    QString err;
    if (!m_sessions->save(target, &err)) {
        reportError(tr("Session not saved"), err);
        if (error)
            *error = err;
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(target).fileName()), 5000);
    return true;
}

void MainWindow::openSessionInteractive() {
    const QString dir = QFileInfo(m_sessions->currentPath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open session"), dir, tr("Paperlab sessions (*.paperlab.json);;All files (*)"));
    if (!path.isEmpty())
        openSession(path);
}

bool MainWindow::saveSessionInteractive() {
    if (m_sessions->currentPath().isEmpty())
        return saveSessionAsInteractive();
    return saveSession(m_sessions->currentPath());
}

bool MainWindow::saveSessionAsInteractive() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session"),
                                                      m_sessions->currentPath().isEmpty()
                                                          ? QStringLiteral("untitled") + kSessionSuffix
                                                          : m_sessions->currentPath(),
                                                      tr("Paperlab sessions (*.paperlab.json)"));
    return !path.isEmpty() && saveSession(path);
}

void MainWindow::offerRecovery() {
    const QStringList files = m_sessions->recoverableFiles();
    if (files.isEmpty())
        return;
    const QFileInfo newest(files.first());
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Recover session"),
                        tr("Paperlab did not shut down cleanly. Restore the workspace autosaved at %1?")
                            .arg(QLocale().toString(newest.lastModified(), QLocale::ShortFormat)),
                        QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("RecoveryBox"));
    QPushButton* restore = box->addButton(tr("Restore"), QMessageBox::AcceptRole);
    box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box->addButton(tr("Later"), QMessageBox::RejectRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, box, restore, files](QAbstractButton* b) {
        if (b == restore) {
            QString err;
            if (!m_sessions->recover(files.first(), &err))
                reportError(tr("Recovery failed"), err);
            else
                m_sessions->discardRecovery(files.mid(1));
        } else if (box->buttonRole(b) == QMessageBox::DestructiveRole) {
            m_sessions->discardRecovery(files);
        }
    });
    box->open();
}

// ---- dialogs ------------------------------------------------------------------------------

void MainWindow::applyPreferences(const Preferences& prefs) {
    m_prefs = prefs;
    m_prefs.save();
    const Theme theme = prefs.resolvedTheme();
    if (!m_themeApplied || Theme::current().name != theme.name)
        Theme::setCurrent(theme);
    m_themeApplied = true;
    for (PanelWidget* p : panelWidgets()) {
        p->setExportDpi(prefs.dpi);
        p->model()->setEngineThreads(prefs.threads);
    }
    if (QAction* a = findChild<QAction*>(QStringLiteral("actionTheme_") + prefs.theme))
        a->setChecked(true);
}

void MainWindow::showPreferences() {
    auto* dialog = new PreferencesDialog(m_prefs, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const Preferences before = m_prefs;
    connect(dialog, &PreferencesDialog::themePreviewRequested, this, [before](const QString& theme) {
        Preferences p = before;
        p.theme = theme;
        Theme::setCurrent(p.resolvedTheme());
    });
    connect(dialog, &QDialog::finished, this, [this, dialog, before](int result) {
        if (result == QDialog::Accepted)
            applyPreferences(dialog->preferences());
        else
            Theme::setCurrent(before.resolvedTheme());
    });
    dialog->open();
}

void MainWindow::showAbout() {
    auto* dialog = new AboutDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showPlugins() {
    auto* dialog = new PluginsDialog(m_plugins, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::showShortcuts() {
    HelpViewer::showWindow(tr("Keyboard shortcuts — Paperlab"),
                           HelpViewer::shortcutsMarkdown(shortcutActions()), this);
}

// ---- events -------------------------------------------------------------------------------

void MainWindow::paintEvent(QPaintEvent* event) {
    QMainWindow::paintEvent(event);
    if (!m_paintSeen) {
        m_paintSeen = true;
        // Queued: runs once the whole window (children included) has been painted and flushed.
        QTimer::singleShot(0, this, &MainWindow::onFirstPaint);
    }
}

void MainWindow::onFirstPaint() {
    const qint64 fromProc = msSinceProcessStart();
    const qint64 fromTimer = m_sinceStart.isValid() ? m_sinceStart.elapsed() : -1;
    m_readyMs = std::max(fromProc, fromTimer);
    qCInfo(lcStartup, "ready in %lld ms", static_cast<long long>(m_readyMs));
    emit ready(m_readyMs);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_askToSave && m_sessions->isDirty() && !m_slots.isEmpty()) {
        const auto answer = QMessageBox::question(
            this, tr("Save session?"), tr("The workspace has unsaved changes. Save them before quitting?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !saveSessionInteractive())) {
            event->ignore();
            return;
        }
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_runner->cancelAll();
    m_sessions->shutdown();
    for (const Slot& s : m_slots)
        if (s.window)
            s.window->hide();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* mime = event->mimeData();
    if (!mime->hasUrls())
        return event->ignore();
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (isSessionFile(path) || (currentPanel() && currentPanel()->acceptsInputFile(path)))
            return event->acceptProposedAction();
    }
    event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (isSessionFile(path)) {
            event->acceptProposedAction();
            openSession(path);
            return;
        }
    }
    if (PanelWidget* p = currentPanel()) {
        for (const QUrl& url : event->mimeData()->urls())
            if (p->acceptsInputFile(url.toLocalFile())) {
                event->acceptProposedAction();
                p->loadInputFile(url.toLocalFile());
                return;
            }
    }
    event->ignore();
}

} // namespace pl::gui
