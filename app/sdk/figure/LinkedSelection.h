#pragma once
/// The linked selection as plain data (issue 34): a map from a named dimension ("residue",
/// "node", ...) to the selected indices of that dimension, and how a figure shows it. A figure
/// declares its dimensions in FigureSpec::selection; withLinkedSelection() returns the figure as
/// drawn with the selection (accent outlines, rings, markers, shells). QtCore only, any thread.

#include "sdk/figure/FigureSpec.h"

#include <QMap>
#include <QString>
#include <QVector>

namespace pl::gui {

/// Dimension name -> selected indices (sorted, unique, >= 0). An absent or empty entry selects
/// nothing in that dimension.
using SelectionMap = QMap<QString, QVector<int>>;

/// Sorts \a indices, drops duplicates and negatives.
QVector<int> normalizedIndices(QVector<int> indices);

/// The dimensions \a spec declares (unique, in the order chart, rows, cols, nodes, spheres).
QStringList selectionDimensions(const FigureSpec& spec);

/// \a spec with the selection drawn: heatmap linkedRows/linkedCols, graph linkedNodes, chart
/// linkedPoints plus one X marker per point (at series[0].x[k], labelled with the dimension and
/// the category or index), scene linkedSpheres plus a translucent sphere set "selected" around
/// the chosen spheres of spheres[0]. Indices outside the figure are dropped. Parts whose
/// dimension is not in \a selection are left as they are.
FigureSpec withLinkedSelection(const FigureSpec& spec, const SelectionMap& selection);

/// What a click on heatmap cell (\a row, \a col) publishes: the row in heatmapRows and the
/// column in heatmapCols (both in one entry when the names are equal); empty for other kinds.
SelectionMap selectionForCell(const FigureSpec& spec, int row, int col);

} // namespace pl::gui
