#pragma once
/// One open panel, generic for every plugin (no paper knowledge): on the left the PanelControls
/// (presets, generated parameter form, seed, input file, Run/Cancel); on the right the tour bar,
/// a tab per figure of paper.json (rebuilt from PanelModel::figure after each
/// result), a metrics tab and the help tab, and below them the claims table (always visible).
/// Errors appear in a non-modal banner and in the log. Input files can be dropped onto the panel.
/// Owns its PanelModel. GUI thread; never waits on an engine.

#include "MessageBanner.h"
#include "sdk/figure/FigureSpec.h"

#include <QHash>
#include <QPointer>
#include <QString>
#include <QWidget>

class QLabel;
class QMessageBox;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QMimeData;
class QScrollArea;
class QTabWidget;
class QTableWidget;
class QUndoStack;

namespace pl {
class PanelModel;
class RobustnessCheck;
class SelectionModel;
class TourPlayer;
} // namespace pl

namespace pl::gui {

class ClaimsTable;
class FigureView;
class HelpViewer;
class PanelControls;
class TourBar;
class SweepDialog;
class FigureArea;
class PinnedRun;
class MetricsPage;

class PanelWidget : public QWidget {
    Q_OBJECT
public:
    /// Takes ownership of `model` (reparented to this widget). Does not start a run.
    explicit PanelWidget(PanelModel* model, QWidget* parent = nullptr);
    ~PanelWidget() override;

    PanelModel* model() const { return m_model; }
    QString pluginId() const;
    /// The panel's title (the paper's short title).
    QString title() const;

    /// Figure ids of paper.json, in tab order.
    QStringList figureIds() const;
    /// The view showing figure `id` (nullptr for an unknown id).
    FigureView* figureView(const QString& id) const;
    /// The last figure built for `id`; false when there is none yet.
    bool figureSpec(const QString& id, FigureSpec* out) const;
    /// Number of figures built from the current result.
    int builtFigureCount() const { return int(m_specs.size()); }
    /// The figure of the current tab ("" when a non-figure tab is shown).
    QString currentFigureId() const;
    void showFigure(const QString& id);

    PanelControls* controls() const { return m_controls; }
    ClaimsTable* claimsTable() const { return m_claims; }
    QTableWidget* metricsTable() const;
    HelpViewer* helpViewer() const { return m_help; }
    MessageBanner* banner() const { return m_banner; }
    QTabWidget* tabs() const { return m_tabs; }

    /// The panel's undo stack (parameters, presets, seed, pasted state).
    QUndoStack* undoStack() const;

    /// "paperlab:<id>?seed=N&key=value…" (non-default parameters only), see PanelStateCodec.
    QString stateString() const;
    /// Restores a state string as one undoable step and runs; on a bad string returns false with
    /// *error and nothing changes.
    bool applyStateString(const QString& text, QString* error = nullptr);

    /// Names of the tours the plugin ships (paper.json "tours").
    QStringList tourNames() const;
    /// Starts tour `name` (loads and validates it first); false with a message when it cannot.
    bool startTour(const QString& name);
    void endTour();
    TourPlayer* tourPlayer() const { return m_tourPlayer; }
    TourBar* tourBar() const { return m_tourBar; }
    /// The figure tab currently highlighted by a tour ("" when none).
    QString highlightedFigure() const { return m_highlighted; }

    /// DPI used by figure exports (from Preferences), also by the figures' context menus.
    void setExportDpi(int dpi);
    int exportDpi() const { return m_dpi; }

    /// Whether a dropped/loaded file can be an input of this panel (by extension).
    bool acceptsInputFile(const QString& path) const;
    /// Loads an input file chosen by the user; on failure shows the error (banner, dialog, log),
    /// and nothing changes. Runs on success.
    bool loadInputFile(const QString& path);
    /// Loads files that belong together (an example set such as Q, K, V) as the panel's inputs,
    /// in order, replacing the current ones, then runs once. One file: loadInputFile(). On failure
    /// shows the error as loadInputFile() does and leaves the panel without inputs.
    bool loadInputFiles(const QStringList& paths);

    /// Writes figure `id` (PNG at exportDpi(), SVG or PDF from the suffix) atomically.
    bool exportFigure(const QString& id, const QString& path, QString* error) const;
    /// Writes the data behind figure `id` (CSV or JSON from the suffix) atomically.
    bool exportFigureData(const QString& id, const QString& path, QString* error) const;
    /// Writes the current result document (the CLI's result JSON) atomically.
    bool exportResult(const QString& path, QString* error) const;
    /// Writes the panel's report (HTML or PDF from the suffix); with a run pinned as A, the A/B
    /// comparison report (parameters that differ, A, B and B − A, figures overlaid).
    bool exportReport(const QString& path, QString* error) const;

public slots:
    void run();
    void cancel();
    /// Shows the help tab (F1).
    void showHelp();
    /// Shows a message in the banner and the log.
    void showMessage(const QString& text, pl::gui::MessageBanner::Level level = MessageBanner::Level::Error);
    /// File dialogs for the export actions (GUI only).
    void exportCurrentFigureInteractive();
    void exportDataInteractive();
    void exportResultInteractive();
    void exportReportInteractive();
    /// Puts stateString() on the clipboard.
    void copyState();
    /// Applies the clipboard's state string; refuses a bad one with a message.
    void pasteState();
    /// Starts the only tour, or asks which one.
    void startTourInteractive();
    /// Runs the current parameters on seeds 1..K in the background and fills the claims table's
    /// "On seeds" column; a second call while one runs cancels it.
    void checkRobustness();
    /// Shows the panel's Sweep dialog (created on first use, owned by this widget).
    SweepDialog* openSweepDialog();
    RobustnessCheck* robustness() const { return m_robustness; }
    /// The figure area: layout chooser, tabs, and the multi-pane grid (issue 34).
    FigureArea* figureArea() const { return m_figureArea; }
    /// "Pin as A" (issue 34): the pinned run and the comparison view.
    PinnedRun* pinnedRun() const { return m_pinned; }
    /// The panel's linked selection (owned by the panel; every figure view is linked to it).
    SelectionModel* selectionModel() const { return m_selection; }

signals:
    /// Parameters, preset, seed or inputs changed (the workspace needs saving).
    void stateChanged();
    /// Figures, claims and metrics now show a new result.
    void resultShown();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    /// Keeps the controls' column wide enough when the (system) font size changes.
    void changeEvent(QEvent* event) override;

private:
    void buildFigureTabs();
    void highlightFigure(const QString& id);
    void updateFromResult();
    void updateMetrics();
    QStringList droppedInputs(const QMimeData* mime) const;
    /// Banner, non-modal dialog and log for a refused input file.
    void showInputError(const QString& error, const QString& consequence);
    QString askSavePath(const QString& title, const QString& suggestedName, const QString& filter) const;

    PanelModel* m_model;
    PanelControls* m_controls;
    QScrollArea* m_scroll;
    MessageBanner* m_banner;
    QTabWidget* m_tabs;
    ClaimsTable* m_claims;
    QLabel* m_claimsSummary;
    RobustnessCheck* m_robustness;
    QPushButton* m_robustButton;
    SweepDialog* m_sweepDialog = nullptr;
    FigureArea* m_figureArea = nullptr;
    PinnedRun* m_pinned = nullptr;
    SelectionModel* m_selection = nullptr;
    QSpinBox* m_robustSeeds;
    QProgressBar* m_robustProgress;
    MetricsPage* m_metricsPage;
    HelpViewer* m_help;
    QHash<QString, FigureView*> m_views;
    QHash<QString, FigureSpec> m_specs;
    QPointer<QMessageBox> m_errorBox;
    TourBar* m_tourBar;
    TourPlayer* m_tourPlayer = nullptr;
    QString m_highlighted;
    int m_dpi = 300;
    bool m_runErrorShown = false;
    bool m_loadingInput = false;
};

} // namespace pl::gui
