// Writes every sample figure as PNG (light and dark), SVG and PDF into a folder, for looking at
// layout by eye and as a seed for screenshot baselines. Usage: widgets_gallery [outdir]

#include "SampleFigures.h"
#include "widgets/FigureExporter.h"

#include <QApplication>
#include <QDir>
#include <QTextStream>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp/paperlab-gallery");
    QDir().mkpath(dir);
    using namespace pl::gui;
    const QList<FigureSpec> figures = {samples::convergenceChart(), samples::scatterChart(),
                                       samples::barChart(), samples::payoffHeatmap(),
                                       samples::bigHeatmap(512)};
    QTextStream out(stdout);
    int failures = 0;
    for (const FigureSpec& f : figures) {
        for (const QString& themeName : Theme::names()) {
            ExportOptions o;
            o.theme = Theme::byName(themeName);
            o.dpi = 150;
            QString error;
            const QString path = QStringLiteral("%1/%2-%3.png").arg(dir, f.id, themeName);
            if (!FigureExporter::exportFile(f, path, o, &error)) {
                out << "FAILED " << error << "\n";
                ++failures;
            } else {
                out << path << "\n";
            }
        }
        for (const QString& suffix : {QStringLiteral("svg"), QStringLiteral("pdf")}) {
            QString error;
            const QString path = QStringLiteral("%1/%2.%3").arg(dir, f.id, suffix);
            if (!FigureExporter::exportFile(f, path, {}, &error)) {
                out << "FAILED " << error << "\n";
                ++failures;
            } else {
                out << path << "\n";
            }
        }
    }
    return failures ? 1 : 0;
}
