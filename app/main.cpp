// paperlab: the desktop workbench and its headless command line in one executable.
#include "cli/CliRunner.h"
#include "sdk/PluginManager.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QIcon>
#include <QSurfaceFormat>
#include <QTextStream>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef PAPERLAB_HAVE_GUI
#include "gui/GuiMain.h"
#endif

namespace {

/// Headless commands print only their own lines ("paperlab: error: ..."): Qt's own warnings
/// (e.g. about XDG_RUNTIME_DIR on servers) would break scripts that read stderr. They are kept
/// with PAPERLAB_VERBOSE=1.
void headlessMessageHandler(QtMsgType type, const QMessageLogContext& ctx, const QString& msg) {
    const bool ours = ctx.category && std::strncmp(ctx.category, "paperlab", 8) == 0;
    if (type == QtFatalMsg || ours || qEnvironmentVariableIsSet("PAPERLAB_VERBOSE")) {
        std::fprintf(stderr, "%s\n", qPrintable(msg));
        std::fflush(stderr);
    }
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

int main(int argc, char** argv) {
    QElapsedTimer sinceStart;
    sinceStart.start();
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const bool headless = pl::cli::isHeadlessCommand(args);
    // Headless commands never open a window: render charts offscreen unless told otherwise.
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (headless)
        qInstallMessageHandler(headlessMessageHandler);
    // Must precede QApplication (VTK viewports share GL contexts between windows).
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QSurfaceFormat fmt = QSurfaceFormat::defaultFormat();
    fmt.setRenderableType(QSurfaceFormat::OpenGL);
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setDepthBufferSize(24);
    fmt.setStencilBufferSize(8);
    QSurfaceFormat::setDefaultFormat(fmt);

    QApplication app(argc, argv);
    pl::gui::registerVtkViews(); // graph layouts and 3D rendering for figures (paperlab_vtkviews)
    QApplication::setApplicationName(QStringLiteral("Paperlab"));
    QApplication::setOrganizationName(QStringLiteral("Paperlab"));
    QApplication::setApplicationVersion(QStringLiteral(PAPERLAB_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/paperlab/icons/org.paperlab.paperlab.svg")));
    QApplication::setDesktopFileName(QStringLiteral("org.paperlab.paperlab"));

    pl::PluginManager plugins;
    plugins.scan();
    if (headless) {
        QTextStream out(stdout), err(stderr);
        const int code = pl::cli::run(args, plugins, out, err);
        out.flush();
        err.flush();
        return code;
    }
#ifdef PAPERLAB_HAVE_GUI
    return pl::runGui(app, plugins, args, sinceStart);
#else
    std::fprintf(stderr, "paperlab: error: this build has no GUI; use the headless commands (paperlab --help)\n");
    return 1;
#endif
}
