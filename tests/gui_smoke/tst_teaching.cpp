// Teaching features of the main window, offscreen, on the real ssn-nash panel: undo/redo with
// merged slider moves, presets and seeds undoable; user presets saved with locked/hidden
// controls; guided tour playback (next/previous, highlighted figure, parameters put back);
// Copy/Paste state through QClipboard (bad strings refused); accessible names, keyboard order
// and text that follows the application font. Screenshots go to the working directory.
#include "gui/MainWindow.h"
#include "gui/PanelControls.h"
#include "gui/PanelWidget.h"
#include "gui/ParamChangeCommand.h"
#include "gui/SavePresetDialog.h"
#include "gui/SeedSpinBox.h"
#include "gui/TourBar.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/TourPlayer.h"
#include "widgets/ParamForm.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <memory>

using namespace pl;
using namespace pl::gui;

namespace {
constexpr int kRunTimeoutMs = 120000;
}

class TestTeaching : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void undoRedoMergesSliderMoves();
    void presetAndSeedAreUndoable();
    void userPresetLocksAndHides();
    void tourPlayback();
    void copyAndPasteState();
    void accessibleNamesAndKeyboardOrder();
    void textFollowsTheApplicationFont();

private:
    PanelWidget* panel() const { return m_panel; }
    void waitIdle() {
        QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->result() && !m_panel->model()->isRunning(), kRunTimeoutMs);
    }

    std::unique_ptr<PluginManager> m_plugins;
    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<MainWindow> m_window;
    PanelWidget* m_panel = nullptr;
};

void TestTeaching::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("PaperlabTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_teaching"));
    QSettings().clear();
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    m_plugins = std::make_unique<PluginManager>();
    m_plugins->scan();
    const PluginInfo* info = m_plugins->info(QStringLiteral("ssn-nash"));
    if (!info || !info->error.isEmpty())
        QSKIP("ssn-nash is not installed");
    m_runner = std::make_unique<JobRunner>(nullptr, 2);
    m_window = std::make_unique<MainWindow>(m_plugins.get(), m_runner.get());
    m_window->setAskToSaveOnClose(false);
    m_window->resize(1400, 900);
    m_window->show();
    QString error;
    m_panel = m_window->openPanel(QStringLiteral("ssn-nash"), &error);
    QVERIFY2(m_panel, qPrintable(error));
    // Smaller, faster runs for the test.
    ParamSet ps = m_panel->model()->params();
    ps.setText("claim_games", "0");
    ps.setText("lp_reference", "false");
    m_panel->model()->restoreParams(ps, QString());
    m_panel->model()->requestRun();
    waitIdle();
    m_panel->undoStack()->clear();
}

void TestTeaching::cleanupTestCase() {
    if (m_window) {
        m_window->close();
        m_window.reset();
    }
    if (m_runner) {
        m_runner->cancelAll();
        QVERIFY(m_runner->waitForDone(10000));
    }
}

void TestTeaching::undoRedoMergesSliderMoves() {
    ParamForm* form = panel()->controls()->paramForm();
    QUndoStack* undo = panel()->undoStack();
    const int64_t rows0 = panel()->model()->params().getInt("rows");
    // A drag of the rows slider: several positions, then the release.
    QSlider* slider = form->slider("rows");
    QVERIFY(slider);
    slider->setSliderDown(true);
    for (int pos : {slider->value() - 10, slider->value() - 20, slider->value() - 30})
        slider->setValue(pos);
    slider->setSliderDown(false);
    QVERIFY(panel()->model()->params().getInt("rows") != rows0);
    QCOMPARE(undo->count(), 1); // one step for the whole drag
    QVERIFY(form->setValue("rows", int64_t(20)));
    QCOMPARE(undo->count(), 1); // same control, within the merge window
    QVERIFY(form->setValue("cols", int64_t(21)));
    QCOMPARE(undo->count(), 2);
    QVERIFY2(m_window->action("actionUndo")->text().contains(QStringLiteral("cols")),
             qPrintable(m_window->action("actionUndo")->text()));
    QVERIFY(!m_window->action("actionRedo")->isEnabled());

    m_window->action("actionUndo")->trigger();
    QCOMPARE(panel()->model()->params().getInt("cols"), int64_t(50));
    QCOMPARE(form->value("cols"), ParamValue(int64_t(50)));
    m_window->action("actionUndo")->trigger();
    QCOMPARE(panel()->model()->params().getInt("rows"), rows0);
    m_window->action("actionRedo")->trigger();
    QCOMPARE(panel()->model()->params().getInt("rows"), int64_t(20));
    m_window->action("actionRedo")->trigger();
    QCOMPARE(panel()->model()->params().getInt("cols"), int64_t(21));
    QCOMPARE(m_window->action("actionRedo")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    QCOMPARE(m_window->action("actionUndo")->shortcut(), QKeySequence(QKeySequence::Undo));
    // Outside the merge window a new step starts.
    QTest::qWait(ParamChangeCommand::kMergeWindowMs + 100);
    waitIdle();
}

void TestTeaching::presetAndSeedAreUndoable() {
    QUndoStack* undo = panel()->undoStack();
    const ParamSet before = panel()->model()->params();
    const int n = undo->count();
    panel()->controls()->applyPreset(QStringLiteral("prm+ alone"));
    QCOMPARE(panel()->model()->activePreset(), QStringLiteral("prm+ alone"));
    QCOMPARE(undo->count(), n + 1);
    const quint64 seed = panel()->model()->seed();
    panel()->controls()->seedBox()->setValue(seed + 1);
    QCOMPARE(panel()->model()->seed(), seed + 1);
    QCOMPARE(undo->count(), n + 2);
    undo->undo();
    QCOMPARE(panel()->model()->seed(), seed);
    undo->undo();
    QVERIFY(panel()->model()->params() == before);
    QVERIFY(panel()->model()->activePreset().isEmpty());
    QCOMPARE(panel()->controls()->presetCombo()->currentIndex(), 0);
    waitIdle();
}

void TestTeaching::userPresetLocksAndHides() {
    PanelControls* c = panel()->controls();
    ParamForm* form = c->paramForm();
    QVERIFY(form->setValue("rows", int64_t(12)));
    QString error;
    QVERIFY(!c->saveUserPreset(QStringLiteral("paper defaults"), {}, {}, {}, &error)); // paper's name
    QVERIFY(c->saveUserPreset(QStringLiteral("class 1"), QStringLiteral("Fixed size for the exercise"),
                              {QStringLiteral("rows"), QStringLiteral("cols")}, {QStringLiteral("gamma")},
                              &error));
    QCOMPARE(panel()->model()->activePreset(), QStringLiteral("class 1"));
    QVERIFY(form->isLocked("rows") && form->isLocked("cols"));
    QVERIFY(form->isRowHidden("gamma"));
    QVERIFY(!form->isLocked("solver"));
    QVERIFY(c->presetCombo()->findData(QStringLiteral("class 1")) > 0);
    QVERIFY(QSettings().value(QStringLiteral("presets/ssn-nash")).toString().contains("class 1"));
    QVERIFY(form->editor("rows")->grab().save(QStringLiteral("teaching-locked-row.png")));
    QVERIFY(c->grab().save(QStringLiteral("teaching-user-preset.png")));
    // Another preset lifts the locks; choosing ours again brings them back.
    c->applyPreset(QStringLiteral("paper defaults"));
    QVERIFY(!form->isLocked("rows") && !form->isRowHidden("gamma"));
    c->applyPreset(QStringLiteral("class 1"));
    QCOMPARE(panel()->model()->params().getInt("rows"), int64_t(12));
    QVERIFY(form->isLocked("rows"));
    // A new panel of the same plugin lists the saved preset.
    PanelWidget* second = m_window->openPanel(QStringLiteral("ssn-nash"));
    QVERIFY(second);
    QVERIFY(second->controls()->presetCombo()->findData(QStringLiteral("class 1")) > 0);
    m_window->closePanel(second);
    m_window->setCurrentPanel(panel());
    // The dialog a teacher uses.
    SavePresetDialog dialog(panel()->model()->engine().params(), m_window.get());
    dialog.resize(520, 480);
    QVERIFY(dialog.grab().save(QStringLiteral("teaching-save-preset-dialog.png")));
    c->applyPreset(QStringLiteral("paper defaults"));
    waitIdle();
}

void TestTeaching::tourPlayback() {
    QVERIFY(panel()->tourNames().contains(QStringLiteral("second-order")));
    const ParamSet before = panel()->model()->params();
    QVERIFY(panel()->startTour(QStringLiteral("second-order")));
    TourPlayer* player = panel()->tourPlayer();
    TourBar* bar = panel()->tourBar();
    QVERIFY(player && bar && bar->isVisible());
    QCOMPARE(player->currentIndex(), 0);
    QCOMPARE(bar->caption(), player->tour().steps.at(0).caption);
    QVERIFY(bar->stepText().contains(QStringLiteral("1 of 6")));
    QCOMPARE(panel()->highlightedFigure(), QStringLiteral("gap_vs_iteration"));
    QCOMPARE(panel()->currentFigureId(), QStringLiteral("gap_vs_iteration"));
    QCOMPARE(panel()->model()->params().getString("solver"), std::string("prm_plus"));
    QVERIFY(!bar->previousButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!player->isWaiting(), kRunTimeoutMs);
    QVERIFY(m_window->grab().save(QStringLiteral("teaching-tour.png")));

    bar->nextButton()->click();
    QCOMPARE(player->currentIndex(), 1);
    QCOMPARE(panel()->model()->params().getString("solver"), std::string("hybrid"));
    bar->nextButton()->click();
    QCOMPARE(panel()->highlightedFigure(), QStringLiteral("gap_vs_work"));
    QVERIFY(bar->stepText().contains(QStringLiteral("3 of 6")));
    QTRY_VERIFY_WITH_TIMEOUT(!player->isWaiting(), kRunTimeoutMs);
    QVERIFY(m_window->grab().save(QStringLiteral("teaching-tour-step3.png")));
    bar->previousButton()->click();
    QCOMPARE(player->currentIndex(), 1);
    QCOMPARE(panel()->highlightedFigure(), QStringLiteral("gap_vs_iteration"));
    // Play moves on by itself after each result; Pause stops it.
    player->setInterval(10);
    bar->playButton()->click();
    QVERIFY(player->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(player->currentIndex() >= 2, kRunTimeoutMs);
    bar->playButton()->click();
    QVERIFY(!player->isPlaying());
    panel()->endTour();
    QVERIFY(!bar->isVisible());
    QVERIFY(panel()->highlightedFigure().isEmpty());
    QVERIFY(panel()->model()->params() == before);
    waitIdle();
}

void TestTeaching::copyAndPasteState() {
    ParamForm* form = panel()->controls()->paramForm();
    QVERIFY(form->setValue("solver", std::string("prm_plus")));
    QVERIFY(form->setValue("rows", int64_t(33)));
    panel()->controls()->seedBox()->setValue(1234);
    m_window->action("actionCopyState")->trigger();
    const QString copied = QGuiApplication::clipboard()->text();
    QVERIFY2(copied.startsWith(QStringLiteral("paperlab:ssn-nash?seed=1234&")), qPrintable(copied));
    QVERIFY(copied.contains(QStringLiteral("solver=prm_plus")) && copied.contains(QStringLiteral("rows=33")));
    QVERIFY(!copied.contains(QStringLiteral("cols="))); // defaults are left out
    const ParamSet copiedParams = panel()->model()->params();

    QVERIFY(form->setValue("rows", int64_t(44)));
    panel()->controls()->seedBox()->setValue(99);
    const int steps = panel()->undoStack()->count();
    QGuiApplication::clipboard()->setText(copied);
    m_window->action("actionPasteState")->trigger();
    QVERIFY(panel()->model()->params() == copiedParams);
    QCOMPARE(panel()->model()->seed(), quint64(1234));
    QCOMPARE(panel()->undoStack()->count(), steps + 1);
    panel()->undoStack()->undo(); // paste is one undo step
    QCOMPARE(panel()->model()->params().getInt("rows"), int64_t(44));
    QCOMPARE(panel()->model()->seed(), quint64(99));

    const ParamSet now = panel()->model()->params();
    for (const QString& bad : {QStringLiteral("hello"), QStringLiteral("paperlab:ssn-nash?rows=99999"),
                               QStringLiteral("paperlab:ftrl-potential-games?seed=1")}) {
        QGuiApplication::clipboard()->setText(bad);
        m_window->action("actionPasteState")->trigger();
        QCOMPARE(panel()->banner()->level(), MessageBanner::Level::Error);
        QVERIFY2(panel()->banner()->text().contains(QStringLiteral("refused")),
                 qPrintable(panel()->banner()->text()));
        QVERIFY(panel()->model()->params() == now);
        QCOMPARE(panel()->model()->seed(), quint64(99));
    }
    panel()->banner()->dismiss();
    waitIdle();
}

void TestTeaching::accessibleNamesAndKeyboardOrder() {
    PanelControls* c = panel()->controls();
    ParamForm* form = c->paramForm();
    QVERIFY(!c->presetCombo()->accessibleName().isEmpty());
    QVERIFY(!c->runButton()->accessibleName().isEmpty());
    QStringList order;
    for (const ParamSpec& spec : form->specs()) {
        const QString key = QString::fromStdString(spec.key);
        QVERIFY2(!form->editor(key)->accessibleName().isEmpty(), qPrintable(key));
        if (QSlider* s = form->slider(key))
            QVERIFY2(!s->accessibleName().isEmpty(), qPrintable(key));
        order << key;
    }
    // Following the focus chain from the preset combo meets the editors in form order.
    QStringList seen;
    QWidget* w = c->presetCombo();
    for (int i = 0; i < 2000 && seen.size() < order.size(); ++i) {
        w = w->nextInFocusChain();
        for (const QString& key : order)
            if (form->editor(key) == w && !seen.contains(key))
                seen << key;
    }
    QCOMPARE(seen, order);
    QVERIFY(!m_window->action("actionCopyState")->shortcut().isEmpty());
    QVERIFY(!m_window->action("actionPasteState")->shortcut().isEmpty());
}

void TestTeaching::textFollowsTheApplicationFont() {
    // No widget of the panel may pin a pixel font size: all text scales with the system font.
    for (QWidget* w : panel()->findChildren<QWidget*>())
        QVERIFY2(w->font().pixelSize() == -1, qPrintable(w->metaObject()->className()));
    const int before = panel()->controls()->runButton()->sizeHint().height();
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 16));
    QCoreApplication::processEvents();
    QVERIFY(panel()->controls()->runButton()->sizeHint().height() > before);
    QVERIFY(panel()->controls()->paramForm()->editor("rows")->font().pointSize() == 16);
    // The controls' column grows with the text instead of clipping the editors.
    QTRY_VERIFY(panel()->controls()->width() >= panel()->controls()->sizeHint().width() - 2);
    QVERIFY(m_window->grab().save(QStringLiteral("teaching-large-font.png")));
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
}

QTEST_MAIN(TestTeaching)
#include "tst_teaching.moc"
