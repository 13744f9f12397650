// Writes every sample figure as PNG (light and dark), SVG and PDF into a folder, for looking at
// layout by eye and as a seed for screenshot baselines. Usage: widgets_gallery [outdir]

#include "SampleFigures.h"
#include "widgets/FigureExporter.h"
#include "widgets/FigureView.h"
#include "widgets/HeatmapView.h"
#include "widgets/ParamForm.h"
#include "widgets/ScreenshotHelper.h"

#include <QHBoxLayout>
#include <QPainter>
#include <QSvgRenderer>

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
    // Widgets as they look on screen, in both themes.
    std::vector<pl::ParamSpec> specs;
    specs.push_back(pl::ParamSpec::integer("n", "Players", 2, 50, 5, "Number of players"));
    specs.push_back(pl::ParamSpec::real("lr", "Learning rate", 1e-5, 1.0, 1e-2, "Step size", "", true));
    specs.push_back(pl::ParamSpec::real("temp", "Temperature", 0.0, 2.0, 0.5, "Softmax temperature", "K"));
    specs.push_back(pl::ParamSpec::boolean("warm", "Warm start", true, "Reuse the previous solution"));
    specs.push_back(pl::ParamSpec::choice("method", "Method", {"ssn", "ftrl", "hybrid"}, "hybrid", "Solver"));
    specs.push_back(pl::ParamSpec::integer("seed", "Seed", 0, 4000000000000LL, 42, "Random seed"));
    specs[0].group = "Game";
    specs[1].group = "Solver";
    specs[2].group = "Solver";
    for (const QString& themeName : Theme::names()) {
        Theme::setCurrent(Theme::byName(themeName));
        QWidget window;
        auto* layout = new QHBoxLayout(&window);
        auto* form = new ParamForm(specs);
        form->setValue(QStringLiteral("temp"), 1.25);
        form->setLocked(QStringLiteral("seed"), true);
        auto* chart = new FigureView;
        chart->setSpec(samples::convergenceChart());
        auto* heat = new FigureView;
        heat->setSpec(samples::bigHeatmap(1024));
        layout->addWidget(form);
        layout->addWidget(chart, 1);
        layout->addWidget(heat, 1);
        window.resize(1500, 520);
        window.show();
        QApplication::processEvents();
        heat->heatmapView()->setWindow(QRectF(300, 200, 40, 24));
        heat->heatmapView()->selectCell(210, 310);
        QApplication::processEvents();
        const QString path = QStringLiteral("%1/widgets-%2.png").arg(dir, themeName);
        ScreenshotHelper::grab(&window).save(path);
        out << path << "\n";
    }
    // SVG rasterised back, to check vector text layout.
    for (const FigureSpec& f : {samples::convergenceChart(), samples::payoffHeatmap()}) {
        QSvgRenderer svg(QStringLiteral("%1/%2.svg").arg(dir, f.id));
        QImage img(1008, 648, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        QPainter p(&img);
        svg.render(&p);
        p.end();
        img.save(QStringLiteral("%1/%2-from-svg.png").arg(dir, f.id));
    }
    return failures ? 1 : 0;
}
