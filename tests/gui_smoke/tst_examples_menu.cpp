// File > Open Example, offscreen: the submenu lists the current panel's shipped examples
// (resources/examples/<panel-id>/, listed here independently of ExampleInputs), opening one loads
// it as that panel's input (one file as File > Load Input File does; a folder as one set, in
// order) and runs. Writes open-example-menu.png (the File menu with the submenu open) to the
// working directory; under a real X server (QT_QPA_PLATFORM=xcb) the whole screen is grabbed.
#include "gui/ExampleInputs.h"
#include "gui/MainWindow.h"
#include "gui/PanelWidget.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "widgets/ScreenshotHelper.h"

#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace pl;
using namespace pl::gui;

namespace {

constexpr int kRunTimeoutMs = 120000;
const QString kExamples = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples");

/// The examples of a panel as the file system shows them: entry names, README.md left out.
QStringList examplesOnDisk(const QString& panelId) {
    QStringList names;
    const QDir dir(kExamples + QLatin1Char('/') + panelId);
    for (const QString& n : dir.entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (!n.endsWith(QLatin1String(".md")))
            names << n;
    return names;
}

QMenu* exampleMenu(MainWindow* w) {
    auto* menu = w->menuBar()->findChild<QMenu*>(QStringLiteral("OpenExampleMenu"));
    if (menu)
        emit menu->aboutToShow(); // as when the user opens it: rebuilt for the current panel
    return menu;
}

QAction* actionFor(QMenu* menu, const QString& name) {
    for (QAction* a : menu->actions())
        if (a->text() == name || a->text().startsWith(name + QStringLiteral(" (")))
            return a;
    return nullptr;
}

} // namespace

class TestExamplesMenu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void examplesAreFound();
    void menuListsTheCurrentPanelsExamples();
    void openingAnExampleSetsTheInput();
    void openingAnExampleSetLoadsEveryFileInOrder();
    void screenshot();

private:
    PanelWidget* openAndWait(const QString& id);

    std::unique_ptr<PluginManager> m_plugins;
    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_tmp;
};

void TestExamplesMenu::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("PaperlabTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_examples_menu"));
    QSettings().clear();
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    QVERIFY(m_tmp.isValid());
    m_plugins = std::make_unique<PluginManager>();
    m_plugins->scan();
    m_runner = std::make_unique<JobRunner>(nullptr, 2);
    m_window = std::make_unique<MainWindow>(m_plugins.get(), m_runner.get());
    m_window->setAskToSaveOnClose(false);
    m_window->sessions()->setAutosaveDirectory(m_tmp.filePath(QStringLiteral("autosave")));
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestExamplesMenu::cleanupTestCase() {
    if (m_window) {
        for (QMessageBox* box : m_window->findChildren<QMessageBox*>())
            box->close();
        m_window->close();
        m_window.reset();
    }
    m_runner->cancelAll();
    QVERIFY(m_runner->waitForDone(10000));
}

PanelWidget* TestExamplesMenu::openAndWait(const QString& id) {
    QString error;
    PanelWidget* panel = m_window->openPanel(id, &error);
    if (!panel) {
        qWarning() << "cannot open" << id << error;
        return nullptr;
    }
    if (!QTest::qWaitFor([panel] { return panel->model()->result() && !panel->model()->isRunning(); },
                         kRunTimeoutMs))
        return nullptr;
    return panel;
}

void TestExamplesMenu::examplesAreFound() {
    // In a build tree the source tree's examples are used (no install tree beside the test).
    QCOMPARE(QDir(ExampleInputs::root()).canonicalPath(), QDir(kExamples).canonicalPath());
    const QList<ExampleInput> ssn = ExampleInputs::forPanel(QStringLiteral("ssn-nash"));
    QStringList names;
    for (const ExampleInput& e : ssn)
        names << e.name;
    QCOMPARE(names, examplesOnDisk(QStringLiteral("ssn-nash")));
    QVERIFY(names.contains(QStringLiteral("oneill.nfg")));
    const QList<ExampleInput> tiles = ExampleInputs::forPanel(QStringLiteral("tilesparse"));
    QCOMPARE(tiles.size(), 1);
    QCOMPARE(tiles.first().files.size(), 3);
    QVERIFY(tiles.first().files.at(0).endsWith(QStringLiteral("1-queries.npy")));
    QVERIFY(tiles.first().files.at(2).endsWith(QStringLiteral("3-values.npy")));
    QVERIFY(ExampleInputs::forPanel(QStringLiteral("no-such-panel")).isEmpty());
    QVERIFY(ExampleInputs::forPanel(QStringLiteral("../resources")).isEmpty());
}

void TestExamplesMenu::menuListsTheCurrentPanelsExamples() {
    QMenu* menu = exampleMenu(m_window.get());
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), 1); // no panel yet: one disabled placeholder
    QVERIFY(!menu->actions().first()->isEnabled());
    for (const QString& id : {QStringLiteral("ftrl-potential-games"), QStringLiteral("ssn-nash")}) {
        if (!m_plugins->info(id))
            QSKIP("game panels not built");
        PanelWidget* panel = openAndWait(id);
        QVERIFY(panel);
        QCOMPARE(m_window->currentPanel(), panel);
        menu = exampleMenu(m_window.get());
        const QStringList onDisk = examplesOnDisk(id);
        QVERIFY2(!onDisk.isEmpty(), qPrintable(id));
        QCOMPARE(menu->actions().size(), onDisk.size());
        for (const QString& name : onDisk) {
            QAction* a = actionFor(menu, name);
            QVERIFY2(a && a->isEnabled(), qPrintable(id + QLatin1Char('/') + name));
        }
    }
}

void TestExamplesMenu::openingAnExampleSetsTheInput() {
    PanelWidget* panel = m_window->currentPanel();
    if (!panel || panel->pluginId() != QLatin1String("ssn-nash"))
        QSKIP("ssn-nash not open");
    QAction* oneill = actionFor(exampleMenu(m_window.get()), QStringLiteral("oneill.nfg"));
    QVERIFY(oneill);
    QSignalSpy results(panel->model(), &PanelModel::resultChanged);
    oneill->trigger();
    QCOMPARE(panel->model()->inputs().size(), 1);
    QCOMPARE(QFileInfo(panel->model()->inputs().first().path).canonicalFilePath(),
             QFileInfo(kExamples + QStringLiteral("/ssn-nash/oneill.nfg")).canonicalFilePath());
    QVERIFY(
        QTest::qWaitFor([&] { return !results.isEmpty() && !panel->model()->isRunning(); }, kRunTimeoutMs));
    // The run used the example: O'Neill's equilibrium.
    const auto& x = panel->model()->result()->vectors.at("x");
    QCOMPARE(x.size(), size_t(4));
    QVERIFY(std::abs(x[0] - 0.4) < 1e-8 && std::abs(x[3] - 0.2) < 1e-8);
}

void TestExamplesMenu::openingAnExampleSetLoadsEveryFileInOrder() {
    if (!m_plugins->info(QStringLiteral("tilesparse")))
        QSKIP("tilesparse not built");
    PanelWidget* panel = openAndWait(QStringLiteral("tilesparse"));
    QVERIFY(panel);
    QAction* set = actionFor(exampleMenu(m_window.get()), QStringLiteral("decode-step"));
    QVERIFY(set);
    QCOMPARE(set->text(), QStringLiteral("decode-step (3 files)"));
    QSignalSpy results(panel->model(), &PanelModel::resultChanged);
    set->trigger();
    QCOMPARE(panel->model()->inputs().size(), 3);
    QStringList loaded;
    for (const InputFile& f : panel->model()->inputs())
        loaded << QFileInfo(f.path).fileName();
    QCOMPARE(loaded, (QStringList{"1-queries.npy", "2-keys.npy", "3-values.npy"}));
    QVERIFY(
        QTest::qWaitFor([&] { return !results.isEmpty() && !panel->model()->isRunning(); }, kRunTimeoutMs));
    QVERIFY(panel->model()->result());
    QCOMPARE(panel->model()->result()->inputs.size(), size_t(3));
    // Opened twice: the set replaces the inputs instead of adding to them.
    set->trigger();
    QCOMPARE(panel->model()->inputs().size(), 3);
    QVERIFY(QTest::qWaitFor([&] { return !panel->model()->isRunning(); }, kRunTimeoutMs));
}

void TestExamplesMenu::screenshot() {
    for (PanelWidget* p : m_window->panelWidgets())
        if (p->pluginId() == QLatin1String("ssn-nash"))
            m_window->setCurrentPanel(p); // two examples
    if (!m_window->currentPanel())
        QSKIP("no panel open");
    QMenu* file = nullptr;
    for (QAction* a : m_window->menuBar()->actions())
        if (a->menu() && a->menu()->actions().contains(m_window->action(QStringLiteral("actionLoadInput"))))
            file = a->menu();
    QVERIFY(file);
    QMenu* examples = exampleMenu(m_window.get());
    const QPoint fileAt = m_window->menuBar()->mapToGlobal(QPoint(0, m_window->menuBar()->height()));
    file->popup(fileAt);
    QVERIFY(QTest::qWaitForWindowExposed(file));
    file->setActiveAction(examples->menuAction());
    examples->popup(file->mapToGlobal(file->actionGeometry(examples->menuAction()).topRight()));
    QVERIFY(QTest::qWaitForWindowExposed(examples));
    QTest::qWait(200);
    QImage shot;
    if (QGuiApplication::platformName() == QLatin1String("xcb")) {
        shot = m_window->screen()->grabWindow(0).toImage();
    } else { // offscreen: compose the window and the two popups
        shot = ScreenshotHelper::grab(m_window.get());
        QPainter p(&shot);
        const QPoint origin = m_window->mapToGlobal(QPoint(0, 0));
        p.drawImage(file->pos() - origin, ScreenshotHelper::grab(file));
        p.drawImage(examples->pos() - origin, ScreenshotHelper::grab(examples));
    }
    QVERIFY(ScreenshotHelper::distinctColors(shot) > 10);
    QVERIFY(shot.save(QDir::current().absoluteFilePath(QStringLiteral("open-example-menu.png"))));
    examples->hide();
    file->hide();
}

QTEST_MAIN(TestExamplesMenu)
#include "tst_examples_menu.moc"
