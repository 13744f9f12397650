#pragma once
/// Node positions for a GraphSpec, shared by GraphView (on a worker thread) and the exporters
/// (GUI thread), so the screen and every file show the same picture. "given", "circular" and
/// "spectral" are built in; "force" (and "circular", through VTK's strategy) comes from a function
/// that paperlab_vtkviews registers in pl::gui::registerVtkViews(). Without it, "force" falls back
/// to the spectral layout. Deterministic in (structure, layout, seed); results are cached (16
/// graphs). All functions are thread-safe.

#include "sdk/figure/FigureSpec.h"

#include <QPointF>
#include <QVector>
#include <functional>

namespace pl::gui {

class GraphLayoutProvider {
public:
    /// Positions (any unit, one per node) for spec.layout with seed spec.layoutSeed; an empty
    /// result means "not handled here" and the built-in layout is used. Called on any thread,
    /// possibly concurrently: the function must serialise what it shares.
    using LayoutFunction = std::function<QVector<QPointF>(const GraphSpec& spec)>;

    /// Installs (or, with an empty function, removes) the external layout. Clears the cache.
    static void setLayoutFunction(LayoutFunction fn);
    static bool hasLayoutFunction();

    /// One position per node (any unit; callers fit them to their rectangle). Cached.
    static QVector<QPointF> compute(const GraphSpec& spec);
    /// The cached result for \a spec, if any (no computation).
    static bool cached(const GraphSpec& spec, QVector<QPointF>* out);
    /// Built-in layouts only (Force gives the spectral layout). Not cached.
    static QVector<QPointF> computeBuiltIn(const GraphSpec& spec);

    /// Hash of what a layout depends on: node count, edges, weights, layout, seed, given positions.
    static quint64 layoutKey(const GraphSpec& spec);
    static void clearCache();

    /// Nodes on a unit circle in index order (node 0 at the top, clockwise).
    static QVector<QPointF> circular(int n);
    /// Coordinates from the Laplacian eigenvectors 2 and 3 (orthogonal iteration); deterministic.
    static QVector<QPointF> spectral(const GraphSpec& spec);
};

} // namespace pl::gui
