#pragma once
/// Internal to SceneBuilder: one function per SceneSpec item kind, each building the VTK pipeline
/// of the item and adding its actor to a renderer. GUI (rendering) thread.

#include "sdk/figure/FigureSpec.h"

#include <QColor>
#include <QPair>

class vtkActor;
class vtkLookupTable;
class vtkRenderer;
class vtkSphereSource;

namespace pl::gui::sceneitems {

/// How an item is coloured: through \a lut over [lo, hi] when it has values, else rgb.
struct Coloring {
    vtkLookupTable* lut = nullptr; ///< not owned (SceneBuilder keeps it alive)
    double lo = 0;
    double hi = 1;
    double rgb[3] = {0.5, 0.5, 0.5};
    double opacity = 1.0;
};

/// True when \a values has one entry per element (the item is coloured by value).
inline bool usesValues(const QVector<double>& values, qsizetype count) {
    return count > 0 && values.size() == count;
}
/// True when a torus has a value grid.
inline bool torusHasValues(const SurfaceSpec& s) {
    return s.gridU > 0 && s.gridV > 0 && s.values.size() == qsizetype(s.gridU) * s.gridV;
}

/// Facets of the instanced sphere for a set of \a count spheres (fewer for large sets) and for
/// interaction frames (\a coarse): {theta, phi} resolution.
QPair<int, int> sphereResolution(qsizetype count, bool coarse);

/// Each returns the new actor (owned by \a renderer) or nullptr when the item is empty.
/// addSpheres also returns the instanced sphere source (owned by the pipeline) in *source.
vtkActor* addSpheres(vtkRenderer* renderer, const SphereSetSpec& spec, const Coloring& c,
                     vtkSphereSource** source = nullptr);
vtkActor* addPolyline(vtkRenderer* renderer, const PolylineSpec& spec, const Coloring& c, double pixelScale);
vtkActor* addSurface(vtkRenderer* renderer, const SurfaceSpec& spec, const Coloring& c, const QColor& edges);
vtkActor* addPoints(vtkRenderer* renderer, const PointCloudSpec& spec, const Coloring& c, double pixelScale);
vtkActor* addArrows(vtkRenderer* renderer, const ArrowSetSpec& spec, const Coloring& c);

} // namespace pl::gui::sceneitems
