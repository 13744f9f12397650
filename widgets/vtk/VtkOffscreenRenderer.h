#pragma once
/// Renders a SceneSpec into a QImage without showing a window: an offscreen vtkRenderWindow (VTK's
/// own X window and core-profile context, design/architecture.md §5.4 option B), read back with
/// vtkWindowToImageFilter, flipped (VTK's origin is bottom-left) and deep-copied. Used by exports
/// (PNG at any DPI, images inside SVG/PDF), `paperlab figure`, tests and benchmarks.
/// Option A (a Qt context on a QOffscreenSurface) is not used: under QT_QPA_PLATFORM=offscreen,
/// which the CLI uses, Qt only creates compatibility-profile contexts and VTK 9.1 then drops text
/// and translucent geometry. Debian's VTK 9.1 is built for X only and aborts without a display,
/// so availability is probed first through Qt: without an X server (DISPLAY) or OpenGL 3.2,
/// render() fails with a message ("needs an X server ... try xvfb-run -a ..."). GUI thread.

#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

#include <QImage>
#include <QSize>
#include <memory>

class vtkRenderer;

namespace pl::gui {

class VtkOffscreenRenderer {
public:
    /// Creates the context lazily on the first render().
    VtkOffscreenRenderer();
    ~VtkOffscreenRenderer();
    VtkOffscreenRenderer(const VtkOffscreenRenderer&) = delete;
    VtkOffscreenRenderer& operator=(const VtkOffscreenRenderer&) = delete;

    /// \a scene at \a pixelSize (at most 8192 a side) on \a theme's background, ARGB32, top-left
    /// origin. \a pixelScale: device pixels per logical pixel (lines, points, text).
    /// Null image + *error on failure.
    QImage render(const SceneSpec& scene, QSize pixelSize, const Theme& theme, QString* error = nullptr,
                  double pixelScale = 1.0);
    /// Renders the scene already in renderer() again (benchmarks, camera changes).
    QImage renderAgain(QString* error = nullptr);
    /// The renderer of the last render() (camera access for tests); nullptr before.
    vtkRenderer* renderer() const;

    /// True when an OpenGL 3.2 context can be created here; *why says why not.
    static bool isAvailable(QString* why = nullptr);
    /// A process-wide instance (GUI thread), released before QGuiApplication goes away.
    static VtkOffscreenRenderer& shared();

private:
    bool ensureContext(QString* error);
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace pl::gui
