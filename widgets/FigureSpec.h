#pragma once
/// Declarative description of one figure, built by a plugin from a ResultDocument and drawn by
/// the widgets layer (screen, PNG, SVG, PDF and "export data" all start from this one value).
/// Plain data: copyable, safe to build on a worker thread and hand to the GUI thread.

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

namespace pl::gui {

enum class FigureKind { Chart, Heatmap, Graph, Scene3D };

/// "chart" | "heatmap" | "graph" | "3d", as in paper.json.
QString toString(FigureKind kind);
/// Inverse of toString; returns false for an unknown name.
bool figureKindFromString(const QString& name, FigureKind* out);

/// One data series of a chart.
struct SeriesSpec {
    enum class Style { Line, Scatter, LineWithPoints, Step, Bars };
    QString name;              ///< legend text
    Style style = Style::Line;
    QVector<double> x;
    QVector<double> y;         ///< same length as x; non-finite points are skipped when drawn
    int colorIndex = -1;       ///< index into the theme's palette; -1 = next in order
    bool dashed = false;
    double lineWidth = 2.0;    ///< in device-independent pixels
};

/// A reference line across the plot (e.g. "switch to Newton" at x = 812).
struct MarkerSpec {
    enum class Axis { X, Y };
    Axis axis = Axis::X;
    double value = 0;
    QString label;
};

struct ChartSpec {
    QString xLabel;            ///< axis title including the unit, e.g. "time (ms)"
    QString yLabel;
    bool logX = false;         ///< log10 axis; non-positive values are skipped
    bool logY = false;
    QVector<SeriesSpec> series;
    QVector<MarkerSpec> markers;
    QStringList categories;    ///< for Bars: category labels along x (then x holds 0..n-1)
    bool fixedYRange = false;  ///< use yMin..yMax instead of the data range
    double yMin = 0;
    double yMax = 1;
    bool fixedXRange = false;  ///< use xMin..xMax instead of the data range
    double xMin = 0;
    double xMax = 1;
};

struct HeatmapSpec {
    int rows = 0;
    int cols = 0;
    QVector<double> values;    ///< rows*cols, row-major; NaN drawn in the NaN colour
    QStringList rowLabels;     ///< optional, size rows
    QStringList colLabels;     ///< optional, size cols
    QString rowTitle;          ///< e.g. "row strategy"
    QString colTitle;
    QString colormap = QStringLiteral("viridis"); ///< "viridis" | "magma" | "diverging" | "okabe-ito" | "gray"
    QString unit;              ///< shown on the colour bar
    bool centreZero = false;   ///< diverging maps: symmetric range around 0
    QVector<int> highlightRows; ///< rows to outline (e.g. support of x)
    QVector<int> highlightCols;
    bool fixedRange = false;   ///< colour scale uses vMin..vMax instead of the data range
    double vMin = 0;
    double vMax = 1;
    bool annotateCells = false; ///< print each value in its cell when the cells are large enough
};

/// Everything needed to draw and export one figure.
struct FigureSpec {
    QString id;                ///< stable id, as listed in paper.json
    QString title;
    QString caption;           ///< one or two sentences: how to read the figure
    FigureKind kind = FigureKind::Chart;
    ChartSpec chart;           ///< used when kind == Chart
    HeatmapSpec heatmap;       ///< used when kind == Heatmap
};

} // namespace pl::gui
