#pragma once
/// A vtkGenericOpenGLRenderWindow hosted in a Qt 6 QOpenGLWidget, without VTK::GUISupportQt (which
/// Debian builds against Qt 5). It follows VTK 9.1's own QVTKOpenGLNativeWidget sequence
/// (design/architecture.md §5): observers for WindowMakeCurrentEvent / WindowIsCurrentEvent /
/// WindowFrameEvent, SetReadyForRendering, SetOwnContext(false) and OpenGLInitContext() in
/// initializeGL(), NoBlit rendering plus BlitDisplayFramebuffer() into defaultFramebufferObject()
/// in paintGL(), Finalize() on QOpenGLContext::aboutToBeDestroyed (re-initialised when a dock is
/// floated), sizes in device pixels (devicePixelRatioF). Mouse, wheel and key events go to a
/// vtkGenericRenderWindowInteractor with the trackball camera style (left: rotate, middle or
/// Shift+left: pan, right or wheel: zoom, key r: reset camera); VTK renders only inside paintGL.
/// The WindowMakeCurrentEvent observer makes the *context* current (QOpenGLContext::makeCurrent on
/// the widget's surface), never QOpenGLWidget::makeCurrent(): the latter also binds Qt's
/// framebuffer, and VTK asks for MakeCurrent in the middle of a render, after binding its own
/// framebuffer; the frame then lands in Qt's framebuffer and the blit copies garbage (the failure
/// noted in design/architecture.md §5.3a). VTK types are forward-declared only. GUI thread.

#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <memory>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkObject;
class vtkRenderer;

namespace pl::gui {

class VtkViewport : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkViewport(QWidget* parent = nullptr);
    ~VtkViewport() override;

    /// OpenGL 3.2 core, double buffer, RGBA8, depth 24, no multisampling: what VTK 9.1 needs.
    /// The application sets it as the default format before constructing QApplication.
    static QSurfaceFormat defaultFormat();

    /// The renderer (owned by the viewport); add props to it, then call requestRender().
    vtkRenderer* renderer() const;
    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkGenericRenderWindowInteractor* interactor() const;

    /// Renders the VTK scene again at the next paint.
    void requestRender();
    /// True after a successful initializeGL() (false without OpenGL 3.2).
    bool isReady() const;
    /// Device pixel ratio in use (render-window size = widget size * this).
    double pixelRatio() const;
    /// Number of VTK renders so far (for tests: interaction must render).
    int renderCount() const;
    /// True while a mouse button is down or the wheel turned less than 250 ms ago.
    bool isInteracting() const;

signals:
    /// A left click without drag at display position (x, y) in device pixels, origin bottom-left
    /// (VTK display coordinates).
    void clicked(double x, double y);
    /// Key r (or resetCamera action): the owner frames the scene again.
    void resetCameraRequested();
    /// The GL context was created and VTK initialised on it.
    void glReady();
    /// An interaction (drag or wheel) started or ended; owners may draw cheaper frames meanwhile.
    void interactionChanged(bool interacting);

protected:
    void initializeGL() override;
    void paintGL() override;
    bool event(QEvent* event) override;

private:
    void updateSize();
    void cleanupGL();
    void onVtkEvent(vtkObject* caller, unsigned long eventId, void* callData);
    bool forwardMouse(QEvent* event);
    void setInteracting(bool on);

    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace pl::gui
