// Main window smoke test, offscreen: every installed panel opens and shows its figures after
// its first run; browser search/topics, theme switch, detach/reattach, sessions (round trip,
// refusals, placeholder for a missing plugin), autosave recovery, dialogs, shortcuts, log
// console and drag-and-drop of input files. Screenshots go to the working directory.
#include "gui/AboutDialog.h"
#include "gui/ClaimsTable.h"
#include "gui/GuiLog.h"
#include "gui/HelpViewer.h"
#include "gui/JobsIndicator.h"
#include "gui/LogConsole.h"
#include "gui/MainWindow.h"
#include "gui/PanelBrowser.h"
#include "gui/PanelControls.h"
#include "gui/PanelWidget.h"
#include "gui/PanelWindow.h"
#include "gui/PlaceholderPanel.h"
#include "gui/PluginsDialog.h"
#include "gui/PreferencesDialog.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/Session.h"
#include "sdk/Version.h"
#include "widgets/FigureView.h"
#include "widgets/ParamForm.h"
#include "widgets/ScreenshotHelper.h"
#include "widgets/Theme.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QComboBox>
#include <QDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QListWidget>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <memory>

using namespace pl;
using namespace pl::gui;

namespace {

constexpr int kRunTimeoutMs = 120000;

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

void closeMessageBoxes(QWidget* root) {
    for (QMessageBox* box : root->findChildren<QMessageBox*>())
        box->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

QString screenshotPath(const QString& name) {
    return QDir::current().absoluteFilePath(name + QStringLiteral(".png"));
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void startupLogsReady();
    void browserListsPlugins();
    void browserSearchAndTopics();
    void everyPanelShowsFiguresAfterRun();
    void parameterChangeRecomputes();
    void exports();
    void themeSwitch();
    void detachAndReattach();
    void helpShortcutAndShortcutList();
    void logConsoleShowsMessages();
    void dropInputFiles();
    void sessionRoundTrip();
    void sessionRefusals();
    void missingPluginPlaceholder();
    void autosaveAndRecovery();
    void dialogs();
    void brokenPlugins();

private:
    PanelWidget* openAndWait(const QString& id);
    bool waitForFigures(PanelWidget* panel, QString* why);

    std::unique_ptr<PluginManager> m_plugins;
    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<MainWindow> m_window;
    QStringList m_usable; ///< ids of plugins that are not broken
    QTemporaryDir m_tmp;
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("PaperlabTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    QSettings().clear();
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    QVERIFY(m_tmp.isValid());
    pl::gui::registerVtkViews(); // as app/main.cpp does: 3D figures in exports and reports

    m_plugins = std::make_unique<PluginManager>();
    m_plugins->scan();
    for (const PluginInfo& info : m_plugins->plugins())
        if (info.error.isEmpty())
            m_usable << info.id;
    qInfo() << "plugin search path:" << PluginManager::defaultSearchPaths();
    qInfo() << "usable panels:" << m_usable;
    m_runner = std::make_unique<JobRunner>(nullptr, 2);
}

void TestMainWindow::cleanupTestCase() {
    if (m_window) {
        closeMessageBoxes(m_window.get());
        m_window->close();
        m_window.reset();
    }
    m_runner->cancelAll();
    QVERIFY(m_runner->waitForDone(10000));
}

PanelWidget* TestMainWindow::openAndWait(const QString& id) {
    QString error;
    PanelWidget* panel = m_window->openPanel(id, &error);
    if (!panel)
        qWarning() << "cannot open" << id << error;
    QString why;
    if (panel && !waitForFigures(panel, &why)) {
        qWarning() << id << why;
        return nullptr;
    }
    return panel;
}

bool TestMainWindow::waitForFigures(PanelWidget* panel, QString* why) {
    const int expected = int(panel->figureIds().size());
    const bool ok = QTest::qWaitFor(
        [&] {
            return (panel->model()->result() && panel->builtFigureCount() == expected &&
                    !panel->model()->isRunning()) ||
                   (panel->banner()->level() == MessageBanner::Level::Error &&
                    !panel->banner()->text().isEmpty());
        },
        kRunTimeoutMs);
    if (!ok) {
        *why = QStringLiteral("no result within %1 ms").arg(kRunTimeoutMs);
        return false;
    }
    if (!panel->model()->result()) {
        *why = QStringLiteral("run failed: ") + panel->banner()->text();
        return false;
    }
    return true;
}

void TestMainWindow::startupLogsReady() {
    QLoggingCategory::setFilterRules(QStringLiteral("paperlab.startup=true"));
    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("^ready in \\d+ ms$")));
    m_window = std::make_unique<MainWindow>(m_plugins.get(), m_runner.get());
    m_window->setAskToSaveOnClose(false);
    m_window->sessions()->setAutosaveDirectory(m_tmp.filePath(QStringLiteral("autosave")));
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QTRY_VERIFY(m_window->readyMs() >= 0);
    QVERIFY(m_window->readyMs() < 60000);
    QLoggingCategory::setFilterRules(QString());
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("Paperlab")));
    QCOMPARE(m_window->jobsIndicator()->statusText(), QStringLiteral("Idle"));
    QVERIFY(!m_window->jobsIndicator()->cancelButton()->isEnabled());
    m_window->grab().save(screenshotPath(QStringLiteral("mainwindow-empty")));
}

void TestMainWindow::browserListsPlugins() {
    PanelBrowser* browser = m_window->browser();
    QCOMPARE(browser->visibleCount(), int(m_plugins->plugins().size()));
    QStringList ids;
    for (const PluginInfo& info : m_plugins->plugins())
        ids << info.id;
    QCOMPARE(browser->visibleIds(), ids);
    if (m_usable.isEmpty())
        QSKIP("no usable plugin in PAPERLAB_PLUGIN_PATH: build the plugins first");
}

void TestMainWindow::browserSearchAndTopics() {
    if (m_usable.isEmpty())
        QSKIP("no plugins");
    PanelBrowser* browser = m_window->browser();
    browser->setSearchText(QStringLiteral("zzz-no-such-paper-zzz"));
    QCOMPARE(browser->visibleCount(), 0);
    const PluginInfo* first = m_plugins->info(m_usable.first());
    browser->setSearchText(first->id);
    QVERIFY(browser->visibleIds().contains(first->id));
    // Two words, both must match (title word + tag word).
    if (!first->tags.isEmpty()) {
        browser->setSearchText(first->title.split(QLatin1Char(' ')).first() + QLatin1Char(' ') +
                               first->tags.first());
        QVERIFY(browser->visibleIds().contains(first->id));
    }
    browser->setSearchText(QString());
    QCOMPARE(browser->visibleCount(), int(m_plugins->plugins().size()));
    QVERIFY(!browser->topics().isEmpty());
    const QString topic = browser->topics().first();
    browser->setTopic(topic);
    QVERIFY(browser->visibleCount() >= 1);
    for (const QString& id : browser->visibleIds())
        QVERIFY(m_plugins->info(id)->tags.contains(topic, Qt::CaseInsensitive));
    browser->setTopic(QString());
    QCOMPARE(browser->visibleCount(), int(m_plugins->plugins().size()));
    // The list item shows the one-line idea.
    QListWidget* list = browser->list();
    bool ideaShown = false;
    for (int i = 0; i < list->count(); ++i)
        ideaShown = ideaShown || (!first->idea.isEmpty() && list->item(i)->text().contains(first->idea));
    QVERIFY(ideaShown || first->idea.isEmpty());
}

void TestMainWindow::everyPanelShowsFiguresAfterRun() {
    if (m_usable.isEmpty())
        QSKIP("no plugins");
    for (const QString& id : m_usable) {
        PanelWidget* panel = openAndWait(id);
        QVERIFY2(panel, qPrintable(id));
        QCOMPARE(m_window->currentPanel(), panel);
        const auto result = panel->model()->result();
        QVERIFY(result);
        for (const QString& fid : panel->figureIds()) {
            FigureSpec spec;
            QVERIFY2(panel->figureSpec(fid, &spec), qPrintable(id + QLatin1Char('/') + fid));
            FigureView* view = panel->figureView(fid);
            QVERIFY(view);
            QCOMPARE(view->spec().id, spec.id);
            if (spec.kind == FigureKind::Chart || spec.kind == FigureKind::Heatmap) {
                panel->showFigure(fid);
                const QImage img = view->snapshot();
                QVERIFY2(ScreenshotHelper::distinctColors(img, 64) > 8,
                         qPrintable(id + QLatin1Char('/') + fid));
            }
        }
        // Claims: one row per claim of the result, none hidden.
        QCOMPARE(panel->claimsTable()->rowCount(), int(result->claims.size()));
        QCOMPARE(panel->claimsTable()->claimCount(), int(result->claims.size()));
        QVERIFY(panel->metricsTable()->rowCount() >= int(result->metrics.size()));
        QVERIFY(!panel->helpViewer()->plainText().trimmed().isEmpty());
        QVERIFY(panel->controls()->statusText().startsWith(QStringLiteral("done")));
        panel->showFigure(panel->figureIds().value(0));
        QTest::qWait(0);
        QVERIFY(m_window->grab().save(screenshotPath(QStringLiteral("mainwindow-") + id)));
    }
    QCOMPARE(m_window->panels().size(), m_usable.size());
    QTRY_COMPARE(m_window->jobsIndicator()->runningCount(), 0);
}

void TestMainWindow::parameterChangeRecomputes() {
    PanelWidget* panel = m_window->currentPanel();
    if (!panel)
        QSKIP("no panel open");
    ParamForm* form = panel->controls()->paramForm();
    QVERIFY(form);
    // The first bounded number parameter: move it to another allowed value.
    for (const ParamSpec& spec : form->specs()) {
        if ((spec.type != ParamType::Int && spec.type != ParamType::Double) || !(spec.max > spec.min))
            continue;
        const QString key = QString::fromStdString(spec.key);
        if (form->isLocked(key) || form->isRowHidden(key))
            continue;
        ParamValue next;
        if (spec.type == ParamType::Int) {
            const int64_t cur = panel->model()->params().getInt(spec.key);
            next = cur > int64_t(spec.min) ? cur - 1 : cur + 1;
        } else {
            const double cur = panel->model()->params().getDouble(spec.key);
            next = cur > spec.min ? (spec.min + cur) / 2 : (cur + spec.max) / 2;
        }
        QSignalSpy results(panel->model(), &PanelModel::resultChanged);
        QSignalSpy state(panel, &PanelWidget::stateChanged);
        QVERIFY(form->setValue(key, next)); // as if the user edited the spin box
        QCOMPARE(panel->model()->params().values().at(spec.key), next);
        QVERIFY(state.count() >= 1);
        QVERIFY(m_window->sessions()->isDirty());
        QVERIFY(results.wait(kRunTimeoutMs));
        QCOMPARE(panel->model()->result()->seed, panel->model()->seed());
        return;
    }
    QSKIP("the current panel has no bounded number parameter");
}

void TestMainWindow::exports() {
    PanelWidget* panel = m_window->currentPanel();
    if (!panel || !panel->model()->result())
        QSKIP("no panel with a result");
    QTRY_VERIFY(!panel->model()->isRunning());
    const QString fid = panel->figureIds().value(0);
    QString error;
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString path = m_tmp.filePath(QStringLiteral("figure.") + suffix);
        QVERIFY2(panel->exportFigure(fid, path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 100);
    }
    QVERIFY2(panel->exportFigureData(fid, m_tmp.filePath(QStringLiteral("figure.csv")), &error),
             qPrintable(error));
    QVERIFY2(panel->exportFigureData(fid, m_tmp.filePath(QStringLiteral("figure.json")), &error),
             qPrintable(error));
    const QString result = m_tmp.filePath(QStringLiteral("result.json"));
    QVERIFY2(panel->exportResult(result, &error), qPrintable(error));
    QFile f(result);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(doc.value("panel").toString(), panel->pluginId());
    QVERIFY2(panel->exportReport(m_tmp.filePath(QStringLiteral("report.html")), &error), qPrintable(error));
    // Nothing is written for a figure without data.
    QVERIFY(!panel->exportFigure(QStringLiteral("no-such-figure"), m_tmp.filePath(QStringLiteral("x.png")),
                                 &error));
    QVERIFY(!QFile::exists(m_tmp.filePath(QStringLiteral("x.png"))));
}

void TestMainWindow::themeSwitch() {
    Preferences prefs = m_window->preferences();
    prefs.theme = QStringLiteral("dark");
    m_window->applyPreferences(prefs);
    QVERIFY(Theme::current().isDark);
    QVERIFY(qApp->palette().color(QPalette::Window).lightness() < 128);
    QCOMPARE(Preferences::load().theme, QStringLiteral("dark"));
    QVERIFY(m_window->action(QStringLiteral("actionTheme_dark")) == nullptr ||
            m_window->findChild<QAction*>(QStringLiteral("actionTheme_dark"))->isChecked());
    QTest::qWait(0);
    const QString id =
        m_window->currentPanel() ? m_window->currentPanel()->pluginId() : QStringLiteral("empty");
    QVERIFY(
        m_window->grab().save(screenshotPath(QStringLiteral("mainwindow-") + id + QStringLiteral("-dark"))));
    prefs.theme = QStringLiteral("light");
    m_window->applyPreferences(prefs);
    QVERIFY(!Theme::current().isDark);
    QVERIFY(qApp->palette().color(QPalette::Window).lightness() > 128);
}

void TestMainWindow::detachAndReattach() {
    if (m_window->panels().isEmpty())
        QSKIP("no panel open");
    QTabWidget* tabs = m_window->panelTabs();
    QWidget* panel = m_window->panels().first();
    const int before = tabs->count();
    m_window->detachPanel(panel);
    QVERIFY(m_window->isDetached(panel));
    QCOMPARE(tabs->count(), before - 1);
    QCOMPARE(m_window->panels().first(), panel); // session order is kept
    PanelWindow* window = m_window->panelWindow(panel);
    QVERIFY(window);
    QVERIFY(QTest::qWaitForWindowExposed(window));
    QCOMPARE(window->panel(), panel);
    QVERIFY(panel->isVisible());
    QVERIFY(window->grab().save(screenshotPath(QStringLiteral("panelwindow-detached"))));

    // The layout records the detached panel.
    const Session s = m_window->captureSession();
    QCOMPARE(s.layout.value("detached").toArray().size(), 1);
    QCOMPARE(s.layout.value("detached").toArray().first().toObject().value("panel").toInt(), 0);

    // Closing the window puts the panel back at its place.
    window->close();
    QTRY_VERIFY(!m_window->isDetached(panel));
    QCOMPARE(tabs->count(), before);
    QCOMPARE(tabs->indexOf(panel), 0);
    QVERIFY(panel->isVisible());

    // Reattach via the action as well.
    m_window->detachPanel(panel);
    QVERIFY(m_window->isDetached(panel));
    m_window->action(QStringLiteral("actionReattachAll"))->trigger();
    QVERIFY(!m_window->isDetached(panel));
    QCOMPARE(tabs->indexOf(panel), 0);
}

void TestMainWindow::helpShortcutAndShortcutList() {
    QVERIFY(m_window->action(QStringLiteral("actionRun"))->shortcuts().contains(QKeySequence(Qt::Key_F5)));
    QVERIFY(
        m_window->action(QStringLiteral("actionPanelHelp"))->shortcuts().contains(QKeySequence(Qt::Key_F1)));
    const QString md = HelpViewer::shortcutsMarkdown(m_window->shortcutActions());
    QVERIFY(md.contains(QStringLiteral("F5")));
    QVERIFY(md.contains(QStringLiteral("Ctrl+S")));
    PanelWidget* panel = m_window->currentPanel();
    if (!panel)
        QSKIP("no panel open");
    panel->showFigure(panel->figureIds().value(0));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_F1);
    QTRY_COMPARE(panel->tabs()->currentWidget(), static_cast<QWidget*>(panel->helpViewer()));
}

void TestMainWindow::logConsoleShowsMessages() {
    qCWarning(lcGui) << "log-console-probe-1234";
    QTRY_VERIFY(m_window->logConsole()->visibleText().contains(QStringLiteral("log-console-probe-1234")));
    QVERIFY(m_window->logConsole()->visibleText().contains(QStringLiteral("paperlab.gui")));
}

void TestMainWindow::dropInputFiles() {
    PanelWidget* panel = nullptr;
    for (PanelWidget* p : m_window->panelWidgets())
        if (p->model()->engine().maxInputs() > 0 && !p->model()->engine().inputExtensions().empty() &&
            (!panel || p->model()->info().id == QLatin1String("ssn-nash")))
            panel = p; // the good file below is a 3x3 game: prefer the game panel when it is open
    if (!panel)
        QSKIP("no open panel takes input files");
    m_window->setCurrentPanel(panel);
    const QString ext = QString::fromStdString(panel->model()->engine().inputExtensions().front());
    const QString bad = m_tmp.filePath(QStringLiteral("bad.") + ext);
    QVERIFY(writeFile(bad, "this is not a valid input file\n\x01\x02\x03"));
    QVERIFY(panel->acceptsInputFile(bad));
    QVERIFY(!panel->acceptsInputFile(m_tmp.filePath(QStringLiteral("notes.txt-unknown"))));

    auto drop = [panel](const QString& path) {
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel, &enter);
        const bool accepted = enter.isAccepted();
        QDropEvent dropEv(QPointF(20, 20), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel, &dropEv);
        delete mime;
        return accepted;
    };
    const auto inputsBefore = panel->model()->inputs().size();
    QVERIFY(drop(bad));
    QCOMPARE(panel->model()->inputs().size(), inputsBefore);
    QVERIFY(panel->banner()->text().contains(QStringLiteral("bad.") + ext));
    QVERIFY(!panel->findChildren<QMessageBox*>().isEmpty());
    closeMessageBoxes(panel);

    if (ext == QLatin1String("csv") || panel->acceptsInputFile(QStringLiteral("x.csv"))) {
        const QString good = m_tmp.filePath(QStringLiteral("good.csv"));
        QVERIFY(writeFile(good, "3,-1,0\n-1,2,1\n0,1,-2\n"));
        QSignalSpy results(panel->model(), &PanelModel::resultChanged);
        drop(good);
        if (panel->model()->inputs().size() == 1) {
            QVERIFY(panel->controls()->inputSummary().contains(QStringLiteral("good.csv")));
            QVERIFY(results.wait(kRunTimeoutMs));
            QCOMPARE(panel->model()->result()->inputs.size(), size_t(1));
        } else {
            qWarning() << "the panel refused a 3x3 CSV matrix:" << panel->banner()->text();
            closeMessageBoxes(panel);
        }
    }
}

void TestMainWindow::sessionRoundTrip() {
    if (m_window->panels().isEmpty())
        QSKIP("no panel open");
    QTRY_COMPARE(m_window->jobsIndicator()->runningCount(), 0);
    const QString path = m_tmp.filePath(QStringLiteral("roundtrip.paperlab.json"));
    QString error;
    QVERIFY2(m_window->saveSession(path, &error), qPrintable(error));
    QVERIFY(!m_window->sessions()->isDirty());
    QCOMPARE(m_window->sessions()->recentSessions().value(0), QFileInfo(path).absoluteFilePath());
    const Session before = m_window->captureSession();

    m_window->closeAllPanels();
    QCOMPARE(m_window->panels().size(), 0);
    QVERIFY2(m_window->openSession(path, &error), qPrintable(error));
    QCOMPARE(m_window->panels().size(), before.panels.size());
    const Session after = m_window->captureSession();
    QCOMPARE(after.panels, before.panels);
    for (PanelWidget* p : m_window->panelWidgets()) {
        QString why;
        QVERIFY2(waitForFigures(p, &why), qPrintable(p->pluginId() + QStringLiteral(": ") + why));
    }
}

void TestMainWindow::sessionRefusals() {
    const int panelsBefore = int(m_window->panels().size());
    const Session before = m_window->captureSession();
    QString error;

    const QString corrupt = m_tmp.filePath(QStringLiteral("corrupt.paperlab.json"));
    QVERIFY(writeFile(corrupt, "{ \"format\": \"paperlab-session\", \"version\": 1, \"panels\": [ {"));
    QVERIFY(!m_window->openSession(corrupt, &error));
    QVERIFY2(error.contains(corrupt), qPrintable(error));
    QCOMPARE(int(m_window->panels().size()), panelsBefore);
    closeMessageBoxes(m_window.get());

    const QString newer = m_tmp.filePath(QStringLiteral("newer.paperlab.json"));
    QVERIFY(writeFile(newer, R"({"format": "paperlab-session", "version": 99, "panels": []})"));
    QVERIFY(!m_window->openSession(newer, &error));
    QVERIFY2(error.contains(QStringLiteral("newer")), qPrintable(error));
    QCOMPARE(int(m_window->panels().size()), panelsBefore);
    closeMessageBoxes(m_window.get());

    if (!m_usable.isEmpty()) {
        // A bad parameter in one panel refuses the whole session; nothing changes.
        QJsonObject bad{{"plugin", m_usable.first()},
                        {"stateVersion", 1},
                        {"seed", "7"},
                        {"params", QJsonObject{{"no_such_parameter_xyz", 1}}}};
        QJsonObject doc{{"format", "paperlab-session"}, {"version", 1}, {"panels", QJsonArray{bad}}};
        const QString badPath = m_tmp.filePath(QStringLiteral("badparam.paperlab.json"));
        QVERIFY(writeFile(badPath, QJsonDocument(doc).toJson()));
        QVERIFY(!m_window->openSession(badPath, &error));
        QVERIFY2(error.contains(QStringLiteral("no_such_parameter_xyz")), qPrintable(error));
        QCOMPARE(m_window->captureSession().panels, before.panels);
        closeMessageBoxes(m_window.get());
    }
}

void TestMainWindow::missingPluginPlaceholder() {
    const QJsonObject record{{"plugin", "no-such-plugin"},
                             {"pluginVersion", "9.9"},
                             {"stateVersion", 3},
                             {"seed", "18446744073709551557"},
                             {"params", QJsonObject{{"alpha", 0.5}}},
                             {"futureKey", QJsonArray{1, 2, 3}}};
    const QJsonObject doc{{"format", "paperlab-session"}, {"version", 1}, {"panels", QJsonArray{record}}};
    const QString path = m_tmp.filePath(QStringLiteral("missing.paperlab.json"));
    QVERIFY(writeFile(path, QJsonDocument(doc).toJson()));
    QString error;
    QVERIFY2(m_window->openSession(path, &error), qPrintable(error));
    QCOMPARE(m_window->panels().size(), 1);
    auto* placeholder = qobject_cast<PlaceholderPanel*>(m_window->panels().first());
    QVERIFY(placeholder);
    QCOMPARE(placeholder->pluginId(), QStringLiteral("no-such-plugin"));
    QVERIFY(m_window->panelTabs()->tabText(0).contains(QStringLiteral("no-such-plugin")));
    QVERIFY(m_window->grab().save(screenshotPath(QStringLiteral("mainwindow-placeholder"))));

    const QString resaved = m_tmp.filePath(QStringLiteral("missing-resaved.paperlab.json"));
    QVERIFY2(m_window->saveSession(resaved, &error), qPrintable(error));
    Session s;
    QVERIFY2(Session::read(resaved, &s, &error), qPrintable(error));
    QCOMPARE(s.panels.size(), 1);
    QCOMPARE(s.panels.first(), record); // kept verbatim
    m_window->closeAllPanels();
}

void TestMainWindow::autosaveAndRecovery() {
    if (m_usable.isEmpty())
        QSKIP("no plugins");
    SessionController* sessions = m_window->sessions();
    QVERIFY(openAndWait(m_usable.first()));
    QVERIFY(sessions->isDirty());
    QString error;
    QVERIFY2(sessions->autosaveNow(&error), qPrintable(error));
    QVERIFY(QFile::exists(sessions->autosavePath()));
    QVERIFY(sessions->recoverableFiles().isEmpty()); // our own process is alive

    // A crashed instance's file: same content, a pid that is not running.
    const QString crashed =
        QDir(sessions->autosaveDirectory()).filePath(QStringLiteral("autosave-999999999.paperlab.json"));
    QVERIFY(QFile::copy(sessions->autosavePath(), crashed));
    const Session expected = m_window->captureSession();

    MainWindow second(m_plugins.get(), m_runner.get());
    second.setAskToSaveOnClose(false);
    second.sessions()->setAutosaveDirectory(sessions->autosaveDirectory());
    QCOMPARE(second.sessions()->recoverableFiles(), QStringList{crashed});
    second.offerRecovery();
    auto* box = second.findChild<QMessageBox*>(QStringLiteral("RecoveryBox"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    box->close();
    QVERIFY2(second.sessions()->recover(crashed, &error), qPrintable(error));
    QVERIFY(!QFile::exists(crashed));
    QCOMPARE(second.panels().size(), expected.panels.size());
    QCOMPARE(second.captureSession().panels, expected.panels);
    QVERIFY(second.sessions()->isDirty());
    QVERIFY(second.sessions()->currentPath().isEmpty());
    for (PanelWidget* p : second.panelWidgets()) {
        QString why;
        QVERIFY2(waitForFigures(p, &why), qPrintable(why));
    }

    // A clean shutdown leaves nothing to recover.
    second.close();
    QVERIFY(!QFile::exists(second.sessions()->autosavePath()));
    QVERIFY(second.sessions()->recoverableFiles().isEmpty());
}

void TestMainWindow::dialogs() {
    // Preferences: live theme preview, reverted on Cancel; values applied on OK.
    const Preferences before = m_window->preferences();
    m_window->showPreferences();
    auto* prefs = m_window->findChild<PreferencesDialog*>();
    QVERIFY(prefs);
    QTRY_VERIFY(prefs->isVisible());
    prefs->themeCombo()->setCurrentIndex(prefs->themeCombo()->findData(QStringLiteral("dark")));
    QVERIFY(Theme::current().isDark);
    prefs->reject();
    QCOMPARE(Theme::current().isDark, before.resolvedTheme().isDark);
    QCOMPARE(m_window->preferences(), before);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    m_window->showPreferences();
    prefs = m_window->findChild<PreferencesDialog*>();
    QVERIFY(prefs);
    prefs->dpiSpin()->setValue(150);
    prefs->threadsSpin()->setValue(Preferences::maxThreads());
    prefs->accept();
    QCOMPARE(m_window->preferences().dpi, 150);
    QCOMPARE(Preferences::load().dpi, 150);
    QCOMPARE(m_window->preferences().threads, Preferences::maxThreads());
    for (PanelWidget* p : m_window->panelWidgets()) {
        QCOMPARE(p->exportDpi(), 150);
        QCOMPARE(p->model()->engineThreads(), Preferences::maxThreads());
    }
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    // About: versions and the build commit.
    m_window->showAbout();
    auto* about = m_window->findChild<AboutDialog*>();
    QVERIFY(about);
    const QString info = AboutDialog::buildInfoText();
    QVERIFY(info.contains(paperlabCommit()));
    QVERIFY(info.contains(QStringLiteral("Qt")));
    QVERIFY(info.contains(QStringLiteral("Eigen")));
    QVERIFY(info.contains(QStringLiteral("CUDA")));
    about->grab().save(screenshotPath(QStringLiteral("dialog-about")));
    about->close();

    // Plugins: one row per plugin.
    m_window->showPlugins();
    auto* plugins = m_window->findChild<PluginsDialog*>();
    QVERIFY(plugins);
    QCOMPARE(plugins->table()->rowCount(), int(m_plugins->plugins().size()));
    plugins->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

void TestMainWindow::brokenPlugins() {
#ifndef PAPERLAB_FIXTURE_DIR
    QSKIP("plugin fixtures (tests/sdk) are not part of this build");
#else
    PluginManager fixtures;
    fixtures.scan({QStringLiteral(PAPERLAB_FIXTURE_DIR)});
    if (fixtures.plugins().isEmpty())
        QSKIP("plugin fixtures not built");
    MainWindow window(&fixtures, m_runner.get());
    window.setAskToSaveOnClose(false);
    window.sessions()->setAutosaveDirectory(m_tmp.filePath(QStringLiteral("autosave-fixtures")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.browser()->visibleCount(), int(fixtures.plugins().size()));

    // A plugin that fails on load: no panel, an error, the app keeps running.
    QString error;
    if (fixtures.info(QStringLiteral("fixture-badinit"))) {
        QVERIFY(!window.openPanel(QStringLiteral("fixture-badinit"), &error));
        QVERIFY2(error.contains(QStringLiteral("initialize")), qPrintable(error));
        closeMessageBoxes(&window);
    }
    // An engine that throws: the panel shows the error non-modally and logs it.
    if (fixtures.info(QStringLiteral("fixture-throws"))) {
        PanelWidget* panel = window.openPanel(QStringLiteral("fixture-throws"), &error);
        QVERIFY2(panel, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(panel->banner()->text().contains(QStringLiteral("fixture engine failure")),
                                 20000);
        QTRY_VERIFY(window.logConsole()->visibleText().contains(QStringLiteral("fixture engine failure")));
        QVERIFY(!panel->model()->result());
        window.grab().save(screenshotPath(QStringLiteral("mainwindow-fixture-error")));
    }
    // The Plugins dialog lists every plugin with the error of the broken ones.
    window.showPlugins();
    auto* dialog = window.findChild<PluginsDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->table()->rowCount(), int(fixtures.plugins().size()));
    int withError = 0;
    for (int r = 0; r < dialog->table()->rowCount(); ++r) {
        const PluginInfo* info = fixtures.info(dialog->table()->item(r, PluginsDialog::IdColumn)->text());
        QVERIFY(info);
        if (!info->error.isEmpty()) {
            QCOMPARE(dialog->table()->item(r, PluginsDialog::StatusColumn)->text(), info->error);
            ++withError;
        }
    }
    QVERIFY(withError >= 1);
    dialog->grab().save(screenshotPath(QStringLiteral("dialog-plugins-fixtures")));
    dialog->close();
    window.close();
#endif
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
