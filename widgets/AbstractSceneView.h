#pragma once
/// On-screen 3D view of a SceneSpec, as FigureView sees it. The implementation (a VTK viewport)
/// lives in paperlab_vtkviews and is created through SceneRendererRegistry, so this library stays
/// free of VTK. GUI thread.

#include "sdk/figure/FigureSpec.h"

#include <QImage>
#include <QVector3D>
#include <QWidget>

namespace pl::gui {

class AbstractSceneView : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    /// Shows \a scene; \a resetCamera = false keeps the current camera (data-only updates).
    virtual void setScene(const SceneSpec& scene, const QString& title, bool resetCamera = true) = 0;
    /// Frames the whole scene again with the spec's camera hints.
    virtual void resetCamera() = 0;
    /// What the view shows now, at device resolution; null when OpenGL is unavailable.
    virtual QImage grabScene() = 0;

signals:
    /// A click picked \a element (sphere, point, vertex... index) of item \a item ("spheres 0",
    /// "polyline 1", ... or the item's name) at \a position (scene units).
    void picked(const QString& item, int element, const QVector3D& position);
    /// Read-out of the last pick (for the caption line); empty when nothing was hit.
    void hoverTextChanged(const QString& text);
};

} // namespace pl::gui
