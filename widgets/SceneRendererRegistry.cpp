#include "SceneRendererRegistry.h"

#include "AbstractSceneView.h"

namespace pl::gui {

namespace {

struct Hooks {
    SceneRendererRegistry::RenderFunction render;
    SceneRendererRegistry::ViewFactory view;
};

Hooks& hooks() {
    static Hooks h;
    return h;
}

} // namespace

void SceneRendererRegistry::setRenderFunction(RenderFunction fn) {
    hooks().render = std::move(fn);
}

void SceneRendererRegistry::setViewFactory(ViewFactory fn) {
    hooks().view = std::move(fn);
}

bool SceneRendererRegistry::hasRenderer() {
    return bool(hooks().render);
}

bool SceneRendererRegistry::hasViewFactory() {
    return bool(hooks().view);
}

QImage SceneRendererRegistry::render(const SceneSpec& scene, QSize pixelSize, double pixelScale,
                                     const Theme& theme, QString* error) {
    if (!hooks().render) {
        if (error)
            *error = QStringLiteral("3D figures are not available in this program (the VTK views were not "
                                    "registered: pl::gui::registerVtkViews())");
        return QImage();
    }
    return hooks().render(scene, pixelSize, pixelScale, theme, error);
}

AbstractSceneView* SceneRendererRegistry::createView(QWidget* parent) {
    return hooks().view ? hooks().view(parent) : nullptr;
}

} // namespace pl::gui
