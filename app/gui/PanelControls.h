#pragma once
/// The left side of a panel, generated for any plugin: preset chooser, the parameter form
/// (from the engine's ParamSpecs: slider + spin box, units, tooltips, reset), the seed, the input
/// file row (Load…, current input summary, Clear) and Run / Cancel with the run status.
/// A view of a PanelModel (not owned; must outlive the controls). GUI thread.

#include "MessageBanner.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QToolButton;
class QUndoStack;

namespace pl {
class PanelModel;
}

namespace pl::gui {

class ParamForm;
class SeedSpinBox;
struct PanelSnapshot;

class PanelControls : public QWidget {
    Q_OBJECT
public:
    explicit PanelControls(PanelModel* model, QWidget* parent = nullptr);

    ParamForm* paramForm() const { return m_form; }
    QComboBox* presetCombo() const { return m_preset; }
    SeedSpinBox* seedBox() const { return m_seed; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    /// The input summary shown ("no input file: built-in workload" when none).
    QString inputSummary() const;
    /// The run status line ("running… 40%", "done in 12 ms", "cancelled", ...).
    QString statusText() const;

    /// File-dialog name filter for the engine's input extensions.
    QString inputFilter() const;

    /// The panel's undo stack (owned): every parameter, preset and seed change is one step;
    /// consecutive moves of one control merge (ParamChangeCommand).
    QUndoStack* undoStack() const { return m_undo; }
    /// Puts a whole state into the model as one undoable step ("Paste state"), then runs.
    void applyState(const PanelSnapshot& state, const QString& undoText);
    /// Saves the current parameters as the user preset `name` (QSettings, per panel) with the
    /// keys it locks or hides, then selects it. Refuses the name of a paper preset.
    bool saveUserPreset(const QString& name, const QString& description, const QStringList& locked,
                        const QStringList& hidden, QString* error = nullptr);

public slots:
    /// Applies the named preset (paper.json or user) as one undo step and runs; reports unknown names.
    void applyPreset(const QString& name);
    /// The "Save preset…" dialog (name, description, locked and hidden controls).
    void savePresetInteractive();
    /// Every parameter back to the engine's default, then a run.
    void resetParameters();
    /// Asks for an input file (modal file dialog) and loads it.
    void chooseInputFile();
    /// Shows "cancelled" / "failed" in the status line (called by the panel).
    void setStatusText(const QString& text);

signals:
    /// A message for the panel's banner (and the log).
    void messageRequested(const QString& text, pl::gui::MessageBanner::Level level);
    /// A file chosen with Load… (the panel loads it, with error reporting).
    void inputFileChosen(const QString& path);

private:
    void syncParams();
    void syncPresetUi();
    void rebuildPresetCombo();
    void setupAccessibility();
    /// Pushes the change from `before` to the model's current state (no-op when equal).
    void recordChange(const QString& mergeKey, const PanelSnapshot& before, const QString& text);
    void syncInputs();
    void onFormValueChanged(const QString& key, bool dragging);

    PanelModel* m_model;
    ParamForm* m_form = nullptr;
    QComboBox* m_preset;
    QLabel* m_presetDescription;
    SeedSpinBox* m_seed;
    QWidget* m_inputBox = nullptr;
    QLabel* m_inputSummary = nullptr;
    QToolButton* m_clearInput = nullptr;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QLabel* m_status;
    QToolButton* m_dice = nullptr;
    QUndoStack* m_undo;
    bool m_syncing = false;
};

} // namespace pl::gui
