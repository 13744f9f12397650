// Frame-time benchmark for the widgets layer (offscreen, QImage targets, one thread):
//  * heatmap 4096 x 4096: image pyramid build, pan and zoom frames through HeatmapView's paint
//    path at 1280 x 800;
//  * chart with 100k points: ChartBuilder::updateData (decimate + replace) and a scene render,
//    against the naive path (replace all 100k points, render).
// Prints one line per measurement and a JSON summary on the last line.

#include "SampleFigures.h"
#include "widgets/ChartBuilder.h"
#include "widgets/HeatmapView.h"

#include <QApplication>
#include <QChart>
#include <QElapsedTimer>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QPainter>
#include <QTextStream>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace pl::gui;

namespace {

struct Stats {
    double median = 0, mean = 0, p95 = 0;
};

Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, size_t(std::ceil(v.size() * 0.95)) - 1)];
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean = sum / double(v.size());
    return s;
}

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}

void report(QJsonObject& json, const QString& name, const Stats& s) {
    out() << QStringLiteral("%1  median %2 ms  mean %3 ms  p95 %4 ms\n")
                 .arg(name, -44)
                 .arg(s.median, 7, 'f', 2)
                 .arg(s.mean, 7, 'f', 2)
                 .arg(s.p95, 7, 'f', 2);
    out().flush();
    json[name] = QJsonObject{{QStringLiteral("median_ms"), s.median},
                             {QStringLiteral("mean_ms"), s.mean},
                             {QStringLiteral("p95_ms"), s.p95}};
}

double msSince(const QElapsedTimer& t) {
    return t.nsecsElapsed() / 1e6;
}

void renderView(HeatmapView& view, QImage& target) {
    QPainter p(&target);
    view.render(&p);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const bool quick = app.arguments().contains(QStringLiteral("--quick"));
    const int frames = quick ? 15 : 60;
    QJsonObject json;
    const QSize screen(1280, 800);

    // Heatmap 4096 x 4096.
    const HeatmapSpec big = samples::bigHeatmap(4096).heatmap;
    {
        std::vector<double> t;
        for (int i = 0; i < (quick ? 1 : 3); ++i) {
            QElapsedTimer timer;
            timer.start();
            HeatmapImage img(big);
            t.push_back(msSince(timer));
        }
        report(json, QStringLiteral("heatmap4096.build_pyramid"), stats(t));
    }
    HeatmapView view;
    view.resize(screen);
    view.setTheme(Theme::light());
    view.setSpec(big, QStringLiteral("bench"));
    QImage target(screen, QImage::Format_ARGB32_Premultiplied);
    renderView(view, target); // warm-up

    for (double windowCells : {4096.0, 1024.0, 128.0}) {
        std::vector<double> t;
        const double x0 = (4096 - windowCells) / 2, y0 = (4096 - windowCells) / 2;
        for (int i = 0; i < frames; ++i) {
            const double dx = std::sin(i * 0.3) * windowCells * 0.2,
                         dy = std::cos(i * 0.2) * windowCells * 0.2;
            QElapsedTimer timer;
            timer.start();
            view.setWindow(QRectF(x0 + dx, y0 + dy, windowCells, windowCells));
            renderView(view, target);
            t.push_back(msSince(timer));
        }
        report(json, QStringLiteral("heatmap4096.pan_frame.window%1").arg(int(windowCells)), stats(t));
    }
    {
        std::vector<double> t;
        view.resetZoom();
        const QPointF anchor = view.currentLayout().plot.center() + QPointF(37, -21);
        for (int i = 0; i < frames; ++i) {
            QElapsedTimer timer;
            timer.start();
            view.zoomBy(i < frames / 2 ? 1.25 : 0.8, anchor);
            renderView(view, target);
            t.push_back(msSince(timer));
        }
        report(json, QStringLiteral("heatmap4096.zoom_frame"), stats(t));
    }

    // Chart with 100k points.
    const int n = 100000;
    auto makeSpec = [n](double phase) {
        FigureSpec f;
        f.title = QStringLiteral("100k points");
        f.chart.xLabel = QStringLiteral("step");
        f.chart.yLabel = QStringLiteral("value");
        SeriesSpec s;
        s.name = QStringLiteral("signal");
        s.x.resize(n);
        s.y.resize(n);
        for (int i = 0; i < n; ++i) {
            s.x[i] = i;
            s.y[i] = std::sin(i * 0.0007 + phase) + 0.2 * std::sin(i * 0.09);
        }
        f.chart.series = {s};
        return f;
    };
    std::vector<FigureSpec> specs;
    for (int i = 0; i < 4; ++i)
        specs.push_back(makeSpec(i * 0.5));
    {
        QGraphicsScene scene;
        QChart* chart = ChartBuilder::build(specs[0], Theme::light(), QSize(1150, 640));
        scene.addItem(chart);
        chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(screen)));
        chart->layout()->activate();
        QCoreApplication::processEvents();
        const QSize plot = chart->plotArea().size().toSize();
        std::vector<double> tu, tr, tt;
        for (int i = 0; i < frames; ++i) {
            QElapsedTimer timer;
            timer.start();
            ChartBuilder::updateData(chart, specs[size_t(i) % specs.size()].chart, plot);
            const double u = msSince(timer);
            QPainter p(&target);
            p.setRenderHint(QPainter::Antialiasing);
            scene.render(&p, QRectF(QPointF(0, 0), QSizeF(screen)), QRectF(QPointF(0, 0), QSizeF(screen)));
            p.end();
            tu.push_back(u);
            tt.push_back(msSince(timer));
            tr.push_back(tt.back() - u);
        }
        report(json, QStringLiteral("chart100k.update_data(decimate+replace)"), stats(tu));
        report(json, QStringLiteral("chart100k.render"), stats(tr));
        report(json, QStringLiteral("chart100k.frame"), stats(tt));
    }
    {
        // Naive reference: every point into the series, then render.
        QGraphicsScene scene;
        auto* chart = new QChart;
        chart->setAnimationOptions(QChart::NoAnimation);
        auto* line = new QLineSeries;
        chart->addSeries(line);
        chart->createDefaultAxes();
        scene.addItem(chart);
        chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(screen)));
        chart->layout()->activate();
        std::vector<QList<QPointF>> pts;
        for (const FigureSpec& f : specs) {
            QList<QPointF> l;
            l.reserve(n);
            for (int i = 0; i < n; ++i)
                l << QPointF(f.chart.series[0].x[i], f.chart.series[0].y[i]);
            pts.push_back(l);
        }
        chart->axes(Qt::Horizontal).first()->setRange(0, n);
        chart->axes(Qt::Vertical).first()->setRange(-1.3, 1.3);
        std::vector<double> tt;
        for (int i = 0; i < std::max(5, frames / 4); ++i) {
            QElapsedTimer timer;
            timer.start();
            line->replace(pts[size_t(i) % pts.size()]);
            QPainter p(&target);
            p.setRenderHint(QPainter::Antialiasing);
            scene.render(&p, QRectF(QPointF(0, 0), QSizeF(screen)), QRectF(QPointF(0, 0), QSizeF(screen)));
            p.end();
            tt.push_back(msSince(timer));
        }
        report(json, QStringLiteral("chart100k.naive_frame(no decimation)"), stats(tt));
    }
    out() << QJsonDocument(json).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}
