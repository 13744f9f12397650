#pragma once
/// A detached panel: a top-level window (owned by the main window, so it closes with it) that
/// holds one panel widget. Closing it or "Reattach" (Ctrl+Shift+D) asks the main window to put
/// the panel back into its tabs. Carries the panel shortcuts (F1 help, F5 run, Esc cancel) for
/// its own window. GUI thread.

#include <QMainWindow>

namespace pl::gui {

class PanelWindow : public QMainWindow {
    Q_OBJECT
public:
    /// Takes `panel` (reparented into this window). `parent` is the main window.
    PanelWindow(QWidget* panel, const QString& title, QWidget* parent);

    QWidget* panel() const { return m_panel; }
    /// Removes the panel from this window (unparented) and returns it; the window is then empty.
    QWidget* takePanel();

signals:
    /// The user closed the window or chose Reattach. The main window reattaches and deletes it.
    void reattachRequested(pl::gui::PanelWindow* window);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* m_panel;
};

} // namespace pl::gui
