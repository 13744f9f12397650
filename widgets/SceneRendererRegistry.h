#pragma once
/// Hooks through which paperlab_vtkviews (VTK) draws 3D figures for this VTK-free library: an
/// offscreen renderer used by FigureExporter (PNG, SVG, PDF, thumbnails) and a factory for the
/// on-screen view used by FigureView. Filled by pl::gui::registerVtkViews() (widgets/vtk/VtkViews.h),
/// which the application and the tests call once after constructing QApplication. GUI thread.

#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

#include <QImage>
#include <QSize>
#include <functional>

class QWidget;

namespace pl::gui {

class AbstractSceneView;

class SceneRendererRegistry {
public:
    /// Renders \a scene at \a pixelSize device pixels on \a theme's background; \a pixelScale is
    /// device pixels per logical pixel (line widths, point and text sizes). Returns a null image
    /// and sets *error (e.g. "needs an X server") on failure. GUI thread.
    using RenderFunction = std::function<QImage(const SceneSpec& scene, QSize pixelSize, double pixelScale,
                                                const Theme& theme, QString* error)>;
    /// Creates the on-screen view, owned by \a parent.
    using ViewFactory = std::function<AbstractSceneView*(QWidget* parent)>;

    static void setRenderFunction(RenderFunction fn);
    static void setViewFactory(ViewFactory fn);
    static bool hasRenderer();
    static bool hasViewFactory();

    /// The registered renderer's image, or a null image with *error set when none is registered
    /// or rendering fails.
    static QImage render(const SceneSpec& scene, QSize pixelSize, double pixelScale, const Theme& theme,
                         QString* error = nullptr);
    /// A new view, or nullptr when no factory is registered.
    static AbstractSceneView* createView(QWidget* parent);
};

} // namespace pl::gui
