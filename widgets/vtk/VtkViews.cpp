#include "VtkViews.h"

#include "VtkGraphLayout.h"
#include "VtkOffscreenRenderer.h"
#include "VtkSceneView.h"
#include "VtkViewport.h"
#include "widgets/GraphLayoutProvider.h"
#include "widgets/SceneRendererRegistry.h"

namespace pl::gui {

void registerVtkViews() {
    GraphLayoutProvider::setLayoutFunction(
        [](const GraphSpec& spec) { return computeLayout(spec, spec.layoutSeed); });
    SceneRendererRegistry::setRenderFunction(
        [](const SceneSpec& scene, QSize px, double pixelScale, const Theme& theme, QString* error) {
            return VtkOffscreenRenderer::shared().render(scene, px, theme, error, pixelScale);
        });
    SceneRendererRegistry::setViewFactory(
        [](QWidget* parent) -> AbstractSceneView* { return new VtkSceneView(parent); });
}

QSurfaceFormat vtkSurfaceFormat() {
    return VtkViewport::defaultFormat();
}

} // namespace pl::gui
