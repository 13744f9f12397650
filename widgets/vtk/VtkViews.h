#pragma once
/// Entry point of paperlab_vtkviews. registerVtkViews() plugs the VTK implementations into the
/// VTK-free widgets library: GraphLayoutProvider gets VTK's force-directed / circular layouts,
/// SceneRendererRegistry gets the offscreen renderer (3D exports) and the VtkSceneView factory
/// (3D figures on screen). Call it once on the GUI thread after constructing QApplication (the
/// app's main() and every test that shows or exports 3D figures); calling it again is harmless.
/// Before QApplication exists, set QSurfaceFormat::setDefaultFormat(pl::gui::vtkSurfaceFormat())
/// and Qt::AA_ShareOpenGLContexts.

#include <QSurfaceFormat>

namespace pl::gui {

void registerVtkViews();
/// The OpenGL format VTK 9.1 needs (3.2 core, depth 24): VtkViewport::defaultFormat().
QSurfaceFormat vtkSurfaceFormat();

} // namespace pl::gui
