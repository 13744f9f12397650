// paperlab: the desktop workbench and its headless command line in one executable.
//
// The executable links only the model side (paperlab_sdk: Qt Core, Qt Concurrent, the engines'
// core). Commands that compute (run, params, list, --version, --help) run on a QCoreApplication
// and never load Qt Gui, Qt Widgets, VTK or OpenGL. Commands that draw (figure, report, replay)
// and the GUI open the rendering side, libpaperlab_frontend.so (app/frontend/Frontend.h), which
// creates a QApplication instead; the choice is made here, before either exists.
#include "cli/CliRunner.h"
#include "frontend/Frontend.h"
#include "frontend/FrontendLoader.h"
#include "sdk/PluginManager.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <memory>

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

/// glibc's allocator returns the top of the heap to the kernel whenever more than 128 KiB is free
/// there, and serves blocks over 128 KiB (adaptively up to 32 MiB) with fresh mmap()s: an engine
/// that allocates and frees matrices in a loop (training on the tape, solvers) then spends as much
/// time in page faults as in arithmetic (continual-forgetting: 6.4 s user + 6.7 s system; with
/// these settings 5.6 s + 0.0 s, results identical). Keep up to 256 MiB of free heap, pad each
/// heap growth by 16 MiB and mmap only blocks over 32 MiB (the largest value glibc accepts).
/// Process-wide, before any thread starts; tests get the same through GLIBC_TUNABLES (CTest).
void tuneAllocator() {
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    mallopt(M_TOP_PAD, 16 * 1024 * 1024);
}

} // namespace

int main(int argc, char** argv) {
    tuneAllocator();
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

    // The GUI and the drawing commands need the frontend; the others never load it.
    QString frontendError;
    pl::Frontend* frontend = nullptr;
    if (!headless || pl::cli::needsRenderer(args))
        frontend = pl::loadFrontend(&frontendError);
    if (!headless && !frontend) {
        std::fprintf(stderr, "paperlab: error: cannot start the GUI: %s\n", qPrintable(frontendError));
        return 1;
    }
    std::unique_ptr<QCoreApplication> app =
        frontend ? frontend->createApplication(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Paperlab"));
    QCoreApplication::setOrganizationName(QStringLiteral("Paperlab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PAPERLAB_VERSION));

    int code = 0;
    {
        pl::PluginManager plugins;
        plugins.scan();
        if (headless) {
            QTextStream out(stdout), err(stderr);
            code = pl::cli::run(args, plugins, out, err, frontend, frontendError);
            out.flush();
            err.flush();
        } else {
            code = frontend->runGui(*app, plugins, args, sinceStart);
        }
    }
    return code;
}
