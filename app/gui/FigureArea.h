#pragma once
/// The figure area of a panel: a layout chooser above either the panel's tabs (figures, metrics,
/// help: layout "single") or a FigureGrid of 2 or 4 panes (issue 34). Holds the layout state that
/// sessions save ({"mode", "figures"}) and the keyboard shortcuts: Ctrl+Alt+1..4 switch layouts,
/// Ctrl+Alt+Right moves focus to the next pane. Knows no paper. GUI thread.

#include "gui/FigureGrid.h"

#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QStackedWidget;
class QTabWidget;

namespace pl::gui {

class FigureArea : public QWidget {
    Q_OBJECT
public:
    /// `tabs` (the single layout) is reparented into the area; `figures` are (id, title) pairs.
    FigureArea(QTabWidget* tabs, const QList<QPair<QString, QString>>& figures, FigureGrid::SpecSource source,
               QWidget* parent = nullptr);

    /// Switches layout; `figures` (optional) are the panes' figure ids in order.
    void setLayoutMode(FigureLayoutMode mode, const QStringList& figures = {});
    FigureLayoutMode layoutMode() const;
    /// {"mode": name, "figures": [ids]} (figures only for multi-pane layouts).
    QJsonObject layoutState() const;
    /// Applies layoutState(); false (nothing changed) for an unknown mode.
    bool applyLayoutState(const QJsonObject& state);
    FigureGrid* grid() const { return m_grid; }
    /// Redraws the panes showing this figure.
    void updateSpec(const FigureSpec& spec) { m_grid->updateSpec(spec); }

signals:
    /// The layout or a pane's figure changed (sessions are then unsaved).
    void layoutChanged();

private:
    QComboBox* m_chooser;
    QStackedWidget* m_stack;
    FigureGrid* m_grid;
};

} // namespace pl::gui
