#pragma once
/// Graph layouts by VTK's strategies (VTK::InfovisLayout) on a vtkMutableUndirectedGraph:
/// force-directed (vtkForceDirectedLayoutStrategy up to 300 nodes, vtkFast2DLayoutStrategy above)
/// and circular (vtkCircularLayoutStrategy). Deterministic: the strategy's random seed is set and
/// calls are serialised, because VTK's random generator (vtkMath) is process-wide. Any thread.

#include "sdk/figure/FigureSpec.h"

#include <QPointF>
#include <QVector>

namespace pl::gui {

/// One 2D position per node for spec.layout (Force or Circular) with \a seed; empty for the
/// layouts VTK has no strategy for (Given, Spectral) or an empty graph. Edge weights (|weight|)
/// pull harder when they differ. Thread-safe; a 2000-node graph takes a fraction of a second.
QVector<QPointF> computeLayout(const GraphSpec& spec, int seed);

} // namespace pl::gui
