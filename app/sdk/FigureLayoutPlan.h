#pragma once
/// The split figure area of a panel as data (issue 34), for drawing it without the GUI: `replay`
/// renders a session's layout as one composite figure. Reads the state the GUI's FigureArea saves
/// in sessions ({"mode": "single|side_by_side|stacked|quad", "figures": [ids]}) and resolves the
/// figure of every pane as the GUI's FigureGrid does. Model side; any thread.

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace pl {

/// A grid of panes, row-major: pane i is at row i / cols, column i % cols.
struct FigureLayoutPlan {
    QString mode;        ///< "side_by_side", "stacked" or "quad"
    int rows = 1;        ///< 1 (side by side), 2 (stacked, quad)
    int cols = 1;        ///< 2 (side by side, quad), 1 (stacked)
    QStringList figures; ///< one figure id per pane (rows * cols of them)
};

/// The plan of a saved layout `state` for a panel whose figures are `figureIds` (paper.json
/// order). A pane whose saved id is missing or not a figure of the panel shows figure i (the last
/// one when there are fewer), like a fresh FigureGrid. False for "single" (tabs: nothing to
/// compose), an unknown mode, or a panel without figures.
bool figureLayoutPlan(const QJsonObject& state, const QStringList& figureIds, FigureLayoutPlan* out);

} // namespace pl
