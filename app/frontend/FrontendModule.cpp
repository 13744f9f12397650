// libpaperlab_frontend.so: the rendering side behind app/frontend/Frontend.h. Opened by the
// executable with QLibrary for the GUI, `figure`, `report` and `replay`; links the GUI, the report
// writers (paperlab_render), the widgets and the VTK views.
#include "frontend/Frontend.h"
#include "render/CompareReportWriter.h"
#include "render/ReportWriter.h"
#include "render/SweepReportWriter.h"
#include "render/TourReportWriter.h"
#include "sdk/PaperPlugin.h"
#include "widgets/FigureExporter.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QSurfaceFormat>

#include <cstdio>

#ifdef PAPERLAB_HAVE_GUI
#include "gui/GuiMain.h"
#endif

namespace pl {

namespace {

template <typename Writer>
bool writeBoth(const Writer& w, const QString& htmlPath, const QString& pdfPath, QString* error) {
    if (!htmlPath.isEmpty() && !w.writeHtml(htmlPath, error))
        return false;
    return pdfPath.isEmpty() || w.writePdf(pdfPath, error);
}

class FrontendImpl final : public Frontend {
public:
    std::unique_ptr<QCoreApplication> createApplication(int& argc, char** argv) override {
        // Must precede QApplication (VTK viewports share GL contexts between windows).
        QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
        QSurfaceFormat fmt = QSurfaceFormat::defaultFormat();
        fmt.setRenderableType(QSurfaceFormat::OpenGL);
        fmt.setVersion(3, 2);
        fmt.setProfile(QSurfaceFormat::CoreProfile);
        fmt.setDepthBufferSize(24);
        fmt.setStencilBufferSize(8);
        QSurfaceFormat::setDefaultFormat(fmt);
        auto app = std::make_unique<QApplication>(argc, argv);
        gui::registerVtkViews(); // graph layouts and 3D rendering for figures (paperlab_vtkviews)
        QApplication::setWindowIcon(QIcon(QStringLiteral(":/paperlab/icons/org.paperlab.paperlab.svg")));
        QApplication::setDesktopFileName(QStringLiteral("org.paperlab.paperlab"));
        return app;
    }

    int runGui(QCoreApplication& app, PluginManager& plugins, const QStringList& args,
               const QElapsedTimer& sinceStart) override {
#ifdef PAPERLAB_HAVE_GUI
        return pl::runGui(static_cast<QApplication&>(app), plugins, args, sinceStart);
#else
        Q_UNUSED(app);
        Q_UNUSED(plugins);
        Q_UNUSED(args);
        Q_UNUSED(sinceStart);
        std::fprintf(stderr,
                     "paperlab: error: this build has no GUI; use the headless commands (paperlab --help)\n");
        return 1;
#endif
    }

    bool exportFigure(const gui::FigureSpec& spec, const QString& path, int dpi, QString* error) override {
        if (gui::FigureExporter::dataSuffixes().contains(QFileInfo(path).suffix().toLower()))
            return gui::FigureExporter::exportDataFile(spec, path, error);
        gui::ExportOptions eo;
        eo.dpi = dpi;
        return gui::FigureExporter::exportFile(spec, path, eo, error);
    }

    bool writeReport(const PluginInfo& info, const IPaperPlugin& plugin, const ResultDocument& result,
                     int dpi, const QString& htmlPath, const QString& pdfPath, QString* error) override {
        return writeBoth(ReportWriter(info, plugin, result, dpi), htmlPath, pdfPath, error);
    }

    bool writeTourReport(const PluginInfo& info, const IPaperPlugin& plugin, const Tour& tour,
                         const std::vector<ResultDocument>& results, int dpi, const QString& htmlPath,
                         const QString& pdfPath, QString* error) override {
        return writeBoth(TourReportWriter(info, plugin, tour, results, dpi), htmlPath, pdfPath, error);
    }

    bool writeSweepReport(const PluginInfo& info, const SweepResults& sweep,
                          const QVector<gui::FigureSpec>& figures, int dpi, const QString& htmlPath,
                          const QString& pdfPath, QString* error) override {
        return writeBoth(SweepReportWriter(info, sweep, figures, dpi), htmlPath, pdfPath, error);
    }
    bool writeCompareReport(const PluginInfo& info, const ResultDocument& a, const ResultDocument& b,
                            const QVector<gui::FigureSpec>& figures, int dpi, const QString& htmlPath,
                            const QString& pdfPath, QString* error) override {
        return writeBoth(CompareReportWriter(info, a, b, figures, dpi), htmlPath, pdfPath, error);
    }
    bool exportLayout(const QVector<gui::FigureSpec>& specs, int rows, int cols, const QString& path, int dpi,
                      QString* error) override {
        gui::ExportOptions eo;
        eo.dpi = dpi;
        eo.sizeInches = QSizeF(eo.sizeInches.width() * cols, eo.sizeInches.height() * rows);
        return gui::FigureExporter::exportGridFile(specs, rows, cols, path, eo, error);
    }
};

} // namespace

} // namespace pl

extern "C" Q_DECL_EXPORT pl::Frontend* paperlab_frontend(int version) {
    static pl::FrontendImpl frontend;
    return version == kPaperlabFrontendVersion ? &frontend : nullptr;
}
