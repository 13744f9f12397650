#pragma once
/// Internal to SceneBuilder: picking. Spheres and arrows are intersected analytically with the
/// view ray (exact for any number of glyphs); lines, surfaces and points through a vtkCellPicker
/// limited to their actors. The nearest hit along the ray wins. Rendering thread.

#include "SceneBuilder.h"

#include <QVector>

class vtkActor;
class vtkRenderer;

namespace pl::gui::scenepick {

/// An actor of the scene and the item it draws.
struct Entry {
    vtkActor* actor = nullptr; ///< owned by the renderer
    QString kind;              ///< "sphere" | "polyline" | "surface" | "point" | "arrow"
    int index = -1;            ///< index in the SceneSpec list of that kind
};

ScenePick pick(vtkRenderer* renderer, const SceneSpec& scene, const QVector<Entry>& entries, double x,
               double y);

} // namespace pl::gui::scenepick
