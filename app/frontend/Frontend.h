#pragma once
/// The rendering side as the executable sees it: the interface of the shared module
/// libpaperlab_frontend.so (GUI, report writers, figure exporters, widgets, VTK views), which
/// app/main.cpp opens with QLibrary only for the commands that draw (the GUI, `figure`, `report`,
/// `replay`). This header is QtCore-only: including it loads nothing; `paperlab run`, `params` and
/// `list` never open the module, so they run without Qt Gui, Qt Widgets, VTK or OpenGL.
/// Every function: main (GUI) thread, after createApplication().

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <vector>

class QCoreApplication;

namespace pl {

class IPaperPlugin;
class PluginManager;
struct PluginInfo;
struct SweepResults;
struct Tour;

/// Exports figures and writes reports for the headless commands.
class FigureRenderer {
public:
    virtual ~FigureRenderer() = default;
    /// Writes \a spec to \a path atomically; the format follows the suffix (.png, .svg, .pdf).
    /// \a dpi: raster resolution. False with a message in *error on failure (no GL for 3D, I/O).
    virtual bool exportFigure(const gui::FigureSpec& spec, const QString& path, int dpi, QString* error) = 0;
    /// The panel report of one result: HTML to \a htmlPath, then PDF to \a pdfPath (an empty path
    /// skips that format; the PDF is not written when the HTML fails). References are only used
    /// during the call.
    virtual bool writeReport(const PluginInfo& info, const IPaperPlugin& plugin, const ResultDocument& result,
                             int dpi, const QString& htmlPath, const QString& pdfPath, QString* error) = 0;
    /// The tour handout: results[i] was computed with step i's parameters. Paths as writeReport.
    virtual bool writeTourReport(const PluginInfo& info, const IPaperPlugin& plugin, const Tour& tour,
                                 const std::vector<ResultDocument>& results, int dpi, const QString& htmlPath,
                                 const QString& pdfPath, QString* error) = 0;
    /// The robustness report of a finished sweep with its figures (app/sdk/SweepFigures). Paths as
    /// writeReport.
    virtual bool writeSweepReport(const PluginInfo& info, const SweepResults& sweep,
                                  const QVector<gui::FigureSpec>& figures, int dpi, const QString& htmlPath,
                                  const QString& pdfPath, QString* error) = 0;
    /// The A/B comparison report of two results with the compared figures (app/sdk/RunComparison).
    /// Paths as writeReport.
    virtual bool writeCompareReport(const PluginInfo& info, const ResultDocument& a, const ResultDocument& b,
                                    const QVector<gui::FigureSpec>& figures, int dpi, const QString& htmlPath,
                                    const QString& pdfPath, QString* error) = 0;
    /// A split figure area as one file: \a specs row-major in a \a rows x \a cols grid, each cell
    /// the size of a single exported figure; format from the suffix of \a path, written atomically.
    virtual bool exportLayout(const QVector<gui::FigureSpec>& specs, int rows, int cols, const QString& path,
                              int dpi, QString* error) = 0;
};

/// The whole frontend: the application object with GUI support, the desktop GUI and the renderer.
class Frontend : public FigureRenderer {
public:
    /// Creates the QApplication (shared OpenGL contexts and the default surface format set first,
    /// VTK views registered, window icon). Call once, before any other Q*Application exists;
    /// the caller owns the result and destroys it before returning from main().
    virtual std::unique_ptr<QCoreApplication> createApplication(int& argc, char** argv) = 0;
    /// Runs the desktop GUI on \a app (made by createApplication) until the last window closes;
    /// returns the exit code. \a args: command line without the program name.
    virtual int runGui(QCoreApplication& app, PluginManager& plugins, const QStringList& args,
                       const QElapsedTimer& sinceStart) = 0;
};

} // namespace pl

/// Bump when the Frontend interface changes: a module built for another version returns nullptr.
inline constexpr int kPaperlabFrontendVersion = 4;
/// Name of the module's entry point, extern "C" pl::Frontend* paperlab_frontend(int version):
/// a process-lifetime object owned by the module (never unloaded), or nullptr when \a version is
/// not kPaperlabFrontendVersion.
#define PAPERLAB_FRONTEND_ENTRY "paperlab_frontend"
using PaperlabFrontendEntry = pl::Frontend* (*)(int version);
