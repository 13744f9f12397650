#include "VtkOffscreenRenderer.h"

#include "SceneBuilder.h"
#include "VtkViewport.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkWindowToImageFilter.h>

namespace pl::gui {

namespace {

QString xServerHint() {
    return QStringLiteral("3D figures need an X server with OpenGL 3.2 (Debian's VTK 9.1 renders through "
                          "GLX only); try xvfb-run -a paperlab ...");
}

/// Qt platforms that reach OpenGL through X11 need DISPLAY; answering early avoids a failing
/// connection attempt deep inside the platform plugin.
bool displayMissing() {
    const QString platform = QGuiApplication::platformName();
    const bool x11Platform = platform == QLatin1String("offscreen") || platform == QLatin1String("xcb");
    return x11Platform && qEnvironmentVariableIsEmpty("DISPLAY");
}

VtkOffscreenRenderer* g_shared = nullptr;

/// VTK makes its own GL context current behind Qt's back; afterwards the context Qt believes
/// current is made current again (or none), so Qt and our viewports never draw into VTK's.
class GlCurrentGuard {
public:
    GlCurrentGuard()
        : m_context(QOpenGLContext::currentContext()), m_surface(m_context ? m_context->surface() : nullptr) {
    }
    ~GlCurrentGuard() {
        if (m_context && m_surface)
            m_context->makeCurrent(m_surface);
        else if (QOpenGLContext* c = QOpenGLContext::currentContext())
            c->doneCurrent();
    }
    GlCurrentGuard(const GlCurrentGuard&) = delete;
    GlCurrentGuard& operator=(const GlCurrentGuard&) = delete;

private:
    QOpenGLContext* m_context;
    QSurface* m_surface;
};

void releaseShared() {
    delete g_shared;
    g_shared = nullptr;
}

} // namespace

struct VtkOffscreenRenderer::Impl {
    vtkSmartPointer<vtkRenderWindow> window;
    vtkNew<vtkRenderer> renderer;
    SceneBuilder builder;
    bool ready = false;
    bool failed = false;
    QString error;
};

VtkOffscreenRenderer::VtkOffscreenRenderer() : d(std::make_unique<Impl>()) {}

VtkOffscreenRenderer::~VtkOffscreenRenderer() {
    if (d->window) {
        const GlCurrentGuard guard;
        d->window->Finalize();
    }
}

bool VtkOffscreenRenderer::isAvailable(QString* why) {
    // Probed once: a Qt OpenGL context on this platform proves that an X server answers (VTK's
    // X window would abort() without one) and that OpenGL 3.2 exists.
    static int state = -1; // -1 unknown, 0 no, 1 yes
    static QString reason;
    if (state < 0) {
        state = 0;
        if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance())) {
            reason = QStringLiteral("3D rendering needs a QGuiApplication");
            state = -1; // may be created later
        } else if (displayMissing()) {
            reason = xServerHint();
        } else {
            const GlCurrentGuard guard;
            QOffscreenSurface surface;
            surface.setFormat(VtkViewport::defaultFormat());
            surface.create();
            QOpenGLContext ctx;
            ctx.setFormat(VtkViewport::defaultFormat());
            if (!ctx.create() || !ctx.makeCurrent(&surface)) {
                reason = xServerHint();
            } else {
                const QSurfaceFormat f = ctx.format();
                ctx.doneCurrent();
                if (f.majorVersion() < 3 || (f.majorVersion() == 3 && f.minorVersion() < 2))
                    reason = QStringLiteral("OpenGL %1.%2 found; 3D figures need 3.2")
                                 .arg(f.majorVersion())
                                 .arg(f.minorVersion());
                else
                    state = 1;
            }
        }
    }
    if (state != 1 && why)
        *why = reason;
    return state == 1;
}

VtkOffscreenRenderer& VtkOffscreenRenderer::shared() {
    if (!g_shared) {
        g_shared = new VtkOffscreenRenderer;
        // Post routines run at the start of ~QGuiApplication, while the display still exists.
        qAddPostRoutine(releaseShared);
    }
    return *g_shared;
}

vtkRenderer* VtkOffscreenRenderer::renderer() const {
    return d->ready ? d->renderer.Get() : nullptr;
}

bool VtkOffscreenRenderer::ensureContext(QString* error) {
    if (d->ready)
        return true;
    QString why;
    if (d->failed || !isAvailable(&why)) {
        d->failed = true;
        if (d->error.isEmpty())
            d->error = why;
        if (error)
            *error = d->error;
        return false;
    }
    // VTK's own offscreen X window (a core-profile GLX context that VTK creates). Not a Qt
    // context: Qt's offscreen platform only makes compatibility-profile contexts, in which VTK 9.1
    // loses text and translucent geometry.
    d->window = vtkSmartPointer<vtkRenderWindow>::New();
    d->window->SetOffScreenRendering(1);
    d->window->SetMultiSamples(0);
    d->window->SetSize(64, 64);
    d->window->AddRenderer(d->renderer);
    d->ready = true;
    return true;
}

QImage VtkOffscreenRenderer::render(const SceneSpec& scene, QSize px, const Theme& theme, QString* error,
                                    double pixelScale) {
    if (!ensureContext(error))
        return QImage();
    if (px.isEmpty() || px.width() > 8192 || px.height() > 8192) {
        if (error)
            *error =
                QStringLiteral("3D image size %1 x %2 is outside 1..8192").arg(px.width()).arg(px.height());
        return QImage();
    }
    d->window->SetSize(px.width(), px.height());
    d->builder.build(d->renderer, scene, theme, pixelScale, true);
    // Smooth edges for figures (the on-screen view keeps the cheaper plain rendering).
    d->renderer->SetUseFXAA(true);
    return renderAgain(error);
}

QImage VtkOffscreenRenderer::renderAgain(QString* error) {
    if (!ensureContext(error))
        return QImage();
    const GlCurrentGuard guard;
    d->window->Render();
    vtkNew<vtkWindowToImageFilter> grab;
    grab->SetInput(d->window);
    grab->SetInputBufferTypeToRGB(); // RGBA would carry VTK's transparent background
    grab->ReadFrontBufferOff();
    grab->ShouldRerenderOff();
    grab->Update();
    vtkImageData* img = grab->GetOutput();
    int dims[3] = {0, 0, 0};
    img->GetDimensions(dims);
    auto* bits = static_cast<const uchar*>(img->GetScalarPointer());
    if (!bits || dims[0] <= 0 || dims[1] <= 0) {
        if (error)
            *error = QStringLiteral("the 3D renderer returned no image");
        return QImage();
    }
    // Wrap VTK's buffer (bottom-left origin, tightly packed RGB), flip; mirrored() deep-copies.
    const QImage wrapped(bits, dims[0], dims[1], qsizetype(dims[0]) * 3, QImage::Format_RGB888);
    return wrapped.mirrored(false, true).convertToFormat(QImage::Format_ARGB32);
}

} // namespace pl::gui
