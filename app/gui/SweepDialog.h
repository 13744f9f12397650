#pragma once
/// The Sweep dialog of a panel (issue 33): up to two grid axes over the panel's parameters (values
/// "v1,v2,..." or "lo:hi:n[:log]", as `paperlab sweep --grid`), seeds 1..K and worker threads; runs
/// the grid in the background with the panel's current parameters as the base (BackgroundSweep),
/// and draws the sweep figures (claims per cell, each claim against the first axis, phase diagrams)
/// while results arrive. "Save…" writes a sweep directory that `paperlab sweep` resumes and
/// `paperlab report --sweep` renders. Non-modal; owned by its PanelWidget; GUI thread.

#include <QDialog>
#include <QVector>

#include "sdk/figure/FigureSpec.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace pl {
class BackgroundSweep;
class PanelModel;
} // namespace pl

namespace pl::gui {

class FigureView;

class SweepDialog : public QDialog {
    Q_OBJECT
public:
    /// `model` is borrowed (the panel's); it must outlive the dialog.
    explicit SweepDialog(PanelModel* model, QWidget* parent = nullptr);
    ~SweepDialog() override;

    /// Sets axis `axis` (0 or 1) to parameter `key` with values text (for tests and replay).
    void setAxis(int axis, const QString& key, const QString& values);
    void setSeeds(int seeds);
    /// The sweep behind the dialog (for tests).
    BackgroundSweep* sweep() const { return m_sweep; }
    /// The figures drawn from the results so far.
    const QVector<FigureSpec>& figures() const { return m_figures; }

public slots:
    /// Parses the grid and starts the sweep (a message below the form on a bad grid).
    void startSweep();
    /// Asks for a directory and saves the sweep there.
    void saveInteractive();
    /// Saves the sweep into `dir`; false with the message shown.
    bool saveTo(const QString& dir);

private:
    void fillAxisValues(int axis);
    void refreshFigures();
    void showFigure();
    void setStatus(const QString& text, bool error = false);

    PanelModel* m_model;
    BackgroundSweep* m_sweep;
    QComboBox* m_key[2];
    QLineEdit* m_values[2];
    QSpinBox* m_seeds;
    QSpinBox* m_jobs;
    QPushButton* m_run;
    QPushButton* m_save;
    QProgressBar* m_progress;
    QLabel* m_status;
    QComboBox* m_figureChooser;
    FigureView* m_view;
    QVector<FigureSpec> m_figures;
};

} // namespace pl::gui
