#pragma once
/// The 3D figure view that FigureView shows for kind "3d": a VtkViewport drawing a SceneSpec
/// through SceneBuilder, following the application theme, with click picking (signal + read-out)
/// and "r" to reset the camera; a message instead of the viewport when the scene carries one. The
/// viewport (a QOpenGLWidget) is created with the first drawable scene. On Qt platforms without
/// OpenGL widgets (offscreen, minimal, vnc) it shows a static image from VtkOffscreenRenderer
/// instead. Created through SceneRendererRegistry (registerVtkViews()). GUI thread.

#include "widgets/AbstractSceneView.h"
#include "widgets/Theme.h"

#include <memory>

class QLabel;
class QStackedLayout;

namespace pl::gui {

class SceneBuilder;
class SceneImageWidget;
class VtkViewport;
struct ScenePick;

class VtkSceneView : public AbstractSceneView {
    Q_OBJECT
public:
    explicit VtkSceneView(QWidget* parent = nullptr);
    ~VtkSceneView() override;

    void setScene(const SceneSpec& scene, const QString& title, bool resetCamera = true) override;
    void resetCamera() override;
    QImage grabScene() override;

    /// Uses \a theme instead of following Theme::current().
    void setTheme(const Theme& theme);
    /// The viewport; nullptr before the first drawable scene and on platforms without OpenGL
    /// widgets (isInteractive() == false).
    VtkViewport* viewport() const { return m_viewport; }
    /// False on Qt platforms that cannot show OpenGL widgets (a static image is shown).
    bool isInteractive() const;
    const SceneBuilder& builder() const { return *m_builder; }
    /// Picks at a widget position (logical pixels, origin top-left), as a click there would.
    ScenePick pickAt(const QPointF& widgetPos);
    /// Read-out of the last pick.
    QString lastPickText() const { return m_pickText; }

private:
    friend class SceneImageWidget;
    void applyPalette();
    void ensureView();
    void rebuild(bool resetCamera);
    void onClicked(double x, double y);

    std::unique_ptr<SceneBuilder> m_builder;
    SceneSpec m_scene;
    QString m_title;
    Theme m_theme;
    bool m_followTheme = true;
    bool m_built = false;
    double m_builtScale = 1.0;
    QString m_pickText;
    QWidget* m_host = nullptr;
    QStackedLayout* m_stack = nullptr;
    VtkViewport* m_viewport = nullptr;
    SceneImageWidget* m_image = nullptr;
    QLabel* m_titleLabel = nullptr;
    QLabel* m_message = nullptr;
};

} // namespace pl::gui
