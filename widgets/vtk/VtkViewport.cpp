#include "VtkViewport.h"

#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QScopedValueRollback>
#include <QTimer>
#include <QWheelEvent>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include <vector>

namespace pl::gui {

struct VtkViewport::Impl {
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkRenderer> renderer;
    vtkNew<vtkGenericRenderWindowInteractor> interactor;
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    std::vector<unsigned long> observers;
    QSize deviceSize;
    QPointF pressPos;
    double wheelDelta = 0;
    int renders = 0;
    bool ready = false;
    bool needsRender = true;
    bool inPaint = false;
    bool leftDown = false;
    bool interacting = false;
    QTimer wheelSettle;
};

QSurfaceFormat VtkViewport::defaultFormat() {
    // The values of VTK 9.1's QVTKRenderWindowAdapter::defaultFormat(), depth 24.
    QSurfaceFormat f;
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 2);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    f.setRedBufferSize(8);
    f.setGreenBufferSize(8);
    f.setBlueBufferSize(8);
    f.setAlphaBufferSize(8);
    f.setDepthBufferSize(24);
    f.setStencilBufferSize(0);
    f.setSamples(0);
    return f;
}

VtkViewport::VtkViewport(QWidget* parent) : QOpenGLWidget(parent), d(std::make_unique<Impl>()) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setUpdateBehavior(QOpenGLWidget::NoPartialUpdate);
    setMinimumSize(80, 60);
    // QOpenGLWidget::resized also fires when the device pixel ratio changes (other screen).
    connect(this, &QOpenGLWidget::resized, this, &VtkViewport::updateSize);
    d->wheelSettle.setSingleShot(true);
    d->wheelSettle.setInterval(250);
    connect(&d->wheelSettle, &QTimer::timeout, this, [this] {
        if (QGuiApplication::mouseButtons() == Qt::NoButton)
            setInteracting(false);
    });

    d->window->SetReadyForRendering(false); // no context until initializeGL()
    d->window->SetFrameBlitModeToNoBlit();  // paintGL() blits into Qt's framebuffer
    d->window->SetMultiSamples(0);
    d->window->AddRenderer(d->renderer);
    d->window->SetInteractor(d->interactor);
    d->interactor->SetRenderWindow(d->window);
    d->interactor->SetInteractorStyle(d->style);
    d->interactor->EnableRenderOff(); // VTK renders only inside paintGL()
    d->interactor->Initialize();
    const unsigned long events[] = {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                                    vtkCommand::WindowFrameEvent};
    for (unsigned long ev : events)
        d->observers.push_back(d->window->AddObserver(ev, this, &VtkViewport::onVtkEvent));
}

VtkViewport::~VtkViewport() {
    // The context dies in ~QOpenGLWidget, after our members: release VTK's GL objects now and
    // make sure aboutToBeDestroyed no longer reaches this object.
    if (QOpenGLContext* ctx = context())
        disconnect(ctx, nullptr, this, nullptr);
    if (d->ready)
        cleanupGL();
    for (unsigned long id : d->observers)
        d->window->RemoveObserver(id);
}

vtkRenderer* VtkViewport::renderer() const {
    return d->renderer;
}

vtkGenericOpenGLRenderWindow* VtkViewport::renderWindow() const {
    return d->window;
}

vtkGenericRenderWindowInteractor* VtkViewport::interactor() const {
    return d->interactor;
}

bool VtkViewport::isReady() const {
    return d->ready;
}

double VtkViewport::pixelRatio() const {
    return devicePixelRatioF();
}

int VtkViewport::renderCount() const {
    return d->renders;
}

bool VtkViewport::isInteracting() const {
    return d->interacting;
}

void VtkViewport::setInteracting(bool on) {
    if (on == d->interacting)
        return;
    d->interacting = on;
    emit interactionChanged(on);
    if (!on)
        requestRender(); // the full-quality frame
}

void VtkViewport::requestRender() {
    d->needsRender = true;
    update();
}

void VtkViewport::onVtkEvent(vtkObject*, unsigned long eventId, void* callData) {
    switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
        // The context only, not QOpenGLWidget::makeCurrent(): that also binds Qt's framebuffer,
        // which VTK may ask for in the middle of a render, after binding its own framebuffer.
        if (QOpenGLContext* ctx = context())
            ctx->makeCurrent(ctx->surface());
        break;
    case vtkCommand::WindowIsCurrentEvent: {
        // Must tell the truth: several viewports mean several contexts.
        QOpenGLContext* ctx = context();
        QOpenGLContext* cur = QOpenGLContext::currentContext();
        *static_cast<bool*>(callData) = ctx && cur == ctx && cur->surface() == ctx->surface();
        break;
    }
    case vtkCommand::WindowFrameEvent:
        if (!d->inPaint) // a render outside paintGL(): show it
            update();
        break;
    default:
        break;
    }
}

void VtkViewport::initializeGL() {
    // Also runs again when the context is re-created (dock floated, widget reparented).
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &VtkViewport::cleanupGL,
            Qt::ConnectionType(Qt::DirectConnection | Qt::UniqueConnection));
    const QSurfaceFormat f = context()->format();
    if (f.majorVersion() < 3 || (f.majorVersion() == 3 && f.minorVersion() < 2)) {
        qWarning("VtkViewport: OpenGL %d.%d context; VTK needs 3.2", f.majorVersion(), f.minorVersion());
        d->ready = false;
        return;
    }
    vtkOpenGLState* state = d->window->GetState();
    state->Reset();
    state->vtkglDepthFunc(GL_LEQUAL); // Qt leaves GL_LESS; VTK expects GL_LEQUAL
    d->window->SetForceMaximumHardwareLineWidth(1);
    d->window->SetReadyForRendering(true);
    d->window->SetOwnContext(false); // Qt owns the context
    d->window->SetMapped(true);
    d->window->OpenGLInitContext(); // VTK's GL setup on Qt's current context
    d->ready = true;
    updateSize();
    d->needsRender = true;
    emit glReady();
}

void VtkViewport::updateSize() {
    const double dpr = devicePixelRatioF();
    const QSize px(std::max(1, qRound(width() * dpr)), std::max(1, qRound(height() * dpr)));
    d->deviceSize = px;
    d->interactor->UpdateSize(px.width(), px.height()); // also resizes the render window
    d->window->SetSize(px.width(), px.height());
    d->needsRender = true;
}

void VtkViewport::paintGL() {
    if (!d->ready || !d->window->GetReadyForRendering())
        return;
    QScopedValueRollback<bool> inPaint(d->inPaint, true);
    const double dpr = devicePixelRatioF();
    const QSize px(std::max(1, qRound(width() * dpr)), std::max(1, qRound(height() * dpr)));
    if (px != d->deviceSize)
        updateSize();
    vtkOpenGLState* state = d->window->GetState();
    state->Reset(); // Qt changed GL state behind VTK's cache
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);
    QOpenGLExtraFunctions* f = context()->extraFunctions();
    f->glBindVertexArray(0); // another renderer may have left its VAO bound
    if (std::exchange(d->needsRender, false)) {
        d->window->Render(); // into VTK's own framebuffer (NoBlit)
        ++d->renders;
    }
    makeCurrent(); // Render() may let other widgets switch contexts
    // makeCurrent() rebinds Qt's framebuffer behind VTK's state cache: without this re-sync VTK
    // believes its display framebuffer is still bound for reading, skips the bind and the blit
    // copies Qt's own (stale) framebuffer onto itself.
    state->Reset();

    // Copy VTK's display framebuffer into the framebuffer Qt composes the widget from.
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    const GLenum drawBuffer = GL_COLOR_ATTACHMENT0;
    f->glDrawBuffers(1, &drawBuffer);
    const bool scissor = f->glIsEnabled(GL_SCISSOR_TEST);
    if (scissor) {
        state->vtkglDisable(GL_SCISSOR_TEST);
        f->glDisable(GL_SCISSOR_TEST);
    }
    const int* src = d->window->GetRenderFramebuffer()->GetLastSize();
    d->window->BlitDisplayFramebuffer(0, 0, 0, src[0], src[1], 0, 0, px.width(), px.height(),
                                      GL_COLOR_BUFFER_BIT, GL_LINEAR);
    // VTK leaves alpha 0 in the background: force it to 1, or Qt composites the widget over grey.
    f->glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
    f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    f->glClearColor(0, 0, 0, 1);
    f->glClear(GL_COLOR_BUFFER_BIT);
    f->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    if (scissor) {
        state->vtkglEnable(GL_SCISSOR_TEST);
        f->glEnable(GL_SCISSOR_TEST);
    }
    state->Pop();
}

void VtkViewport::cleanupGL() {
    if (!d->ready)
        return;
    makeCurrent();
    d->window->Finalize(); // frees VTK's GL objects in this context
    d->window->SetReadyForRendering(false);
    d->ready = false;
    d->needsRender = true;
    doneCurrent();
}

bool VtkViewport::forwardMouse(QEvent* event) {
    auto* me = static_cast<QMouseEvent*>(event);
    const double dpr = devicePixelRatioF();
    const QPointF pos = me->position();
    vtkGenericRenderWindowInteractor* iren = d->interactor;
    iren->SetEventInformationFlipY(int(pos.x() * dpr + 1e-4), int(pos.y() * dpr + 1e-4),
                                   (me->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                   (me->modifiers() & Qt::ShiftModifier) ? 1 : 0, 0,
                                   event->type() == QEvent::MouseButtonDblClick ? 1 : 0);
    iren->SetAltKey((me->modifiers() & Qt::AltModifier) ? 1 : 0);
    switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
        setInteracting(true);
        if (me->button() == Qt::LeftButton) {
            d->pressPos = pos;
            d->leftDown = true;
            iren->InvokeEvent(vtkCommand::LeftButtonPressEvent, me);
        } else if (me->button() == Qt::MiddleButton) {
            iren->InvokeEvent(vtkCommand::MiddleButtonPressEvent, me);
        } else if (me->button() == Qt::RightButton) {
            iren->InvokeEvent(vtkCommand::RightButtonPressEvent, me);
        }
        break;
    case QEvent::MouseButtonRelease:
        if (me->button() == Qt::LeftButton) {
            iren->InvokeEvent(vtkCommand::LeftButtonReleaseEvent, me);
            if (d->leftDown && (pos - d->pressPos).manhattanLength() < 4)
                emit clicked(pos.x() * dpr, d->deviceSize.height() - 1 - pos.y() * dpr);
            d->leftDown = false;
        } else if (me->button() == Qt::MiddleButton) {
            iren->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent, me);
        } else if (me->button() == Qt::RightButton) {
            iren->InvokeEvent(vtkCommand::RightButtonReleaseEvent, me);
        }
        if (me->buttons() == Qt::NoButton)
            setInteracting(false);
        requestRender();
        break;
    case QEvent::MouseMove:
        iren->InvokeEvent(vtkCommand::MouseMoveEvent, me);
        if (me->buttons() != Qt::NoButton)
            requestRender(); // the style moved the camera
        break;
    default:
        return false;
    }
    return true;
}

bool VtkViewport::event(QEvent* event) {
    switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove:
        if (d->ready && forwardMouse(event)) {
            event->accept();
            return true;
        }
        break;
    case QEvent::Wheel: {
        auto* we = static_cast<QWheelEvent*>(event);
        if (!d->ready)
            break;
        const double dpr = devicePixelRatioF();
        d->interactor->SetEventInformationFlipY(int(we->position().x() * dpr), int(we->position().y() * dpr),
                                                (we->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                                (we->modifiers() & Qt::ShiftModifier) ? 1 : 0);
        setInteracting(true);
        d->wheelSettle.start();
        // Accumulate to whole notches, as QVTKInteractorAdapter does (touchpads send small steps).
        d->wheelDelta += we->angleDelta().y();
        while (d->wheelDelta >= 120) {
            d->interactor->InvokeEvent(vtkCommand::MouseWheelForwardEvent, we);
            d->wheelDelta -= 120;
        }
        while (d->wheelDelta <= -120) {
            d->interactor->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, we);
            d->wheelDelta += 120;
        }
        requestRender();
        we->accept();
        return true;
    }
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
        auto* ke = static_cast<QKeyEvent*>(event);
        if (event->type() == QEvent::KeyPress && ke->key() == Qt::Key_R &&
            ke->modifiers() == Qt::NoModifier) {
            emit resetCameraRequested();
            return true;
        }
        // Key events only (no CharEvent: the style's single-letter commands such as stereo,
        // fly-to or "exit" make no sense inside a panel).
        const QByteArray text = ke->text().toLatin1();
        d->interactor->SetKeyEventInformation((ke->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                              (ke->modifiers() & Qt::ShiftModifier) ? 1 : 0,
                                              text.isEmpty() ? 0 : text[0], ke->isAutoRepeat() ? 1 : 0);
        d->interactor->InvokeEvent(
            event->type() == QEvent::KeyPress ? vtkCommand::KeyPressEvent : vtkCommand::KeyReleaseEvent, ke);
        break;
    }
    case QEvent::Enter:
        d->interactor->InvokeEvent(vtkCommand::EnterEvent, event);
        break;
    case QEvent::Leave:
        d->interactor->InvokeEvent(vtkCommand::LeaveEvent, event);
        break;
    default:
        break;
    }
    return QOpenGLWidget::event(event);
}

} // namespace pl::gui
