#pragma once
/// Builds Qt Charts objects from a ChartSpec: line, scatter, step and bar series, linear or log10
/// axes, labelled reference lines, a legend below the plot, no animations and no OpenGL series
/// (so scene renders, SVG and PDF contain everything). Long series are decimated to about twice
/// the plot width in pixels (min/max per column) and set with replace(), never append().
/// GUI thread (or the thread that owns the chart's scene).

#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

class QChart;

namespace pl::gui {

class ChartBuilder {
public:
    struct Options {
        QString title;              ///< chart title; empty = none
        QSize plotSizePx{900, 520}; ///< expected plot-area size in logical pixels (decimation)
    };

    /// A new chart for \a spec styled with \a theme. The caller owns it (put it in a QChartView
    /// or a QGraphicsScene). Data series are named "data:<i>" (i = index in spec.series, bars:
    /// "bars"), reference lines "marker:<i>".
    static QChart* build(const ChartSpec& spec, const Theme& theme, const Options& options);
    /// Convenience: build(spec.chart, theme, {spec.title}).
    static QChart* build(const FigureSpec& spec, const Theme& theme, QSize plotSizePx = {900, 520});

    /// True when \a b can be shown by updating a chart built from \a a in place (same series
    /// count, styles, names and colours, same axis kinds, categories and marker count).
    static bool sameStructure(const ChartSpec& a, const ChartSpec& b);
    /// Replaces data, axis ranges, ticks and markers of a chart made by build(); requires
    /// sameStructure(old, spec). Returns false (and changes nothing) for a foreign chart.
    static bool updateData(QChart* chart, const ChartSpec& spec, QSize plotSizePx);
    /// Re-decimates for a new plot size (e.g. after a resize) using the stored spec.
    static bool updatePlotSize(QChart* chart, QSize plotSizePx);
    /// Restyles a chart made by build() in place (colours, fonts, pens). Returns false for a
    /// foreign chart.
    static bool applyTheme(QChart* chart, const Theme& theme);
    /// Sets the title of a chart made by build().
    static void setTitle(QChart* chart, const QString& title);
    /// The spec a chart was built from / last updated with (nullptr for a foreign chart).
    static const ChartSpec* specOf(const QChart* chart);
    /// Positions the marker labels for the current plot area. Called automatically on
    /// QChart::plotAreaChanged; call it after a synchronous layout when rendering offscreen.
    static void layoutAnnotations(QChart* chart);
};

} // namespace pl::gui
