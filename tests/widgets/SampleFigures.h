#pragma once
// Deterministic sample figures shared by the widget tests, the gallery and the benchmark.

#include "sdk/figure/FigureSpec.h"

#include <cmath>
#include <limits>

namespace pl::gui::samples {

/// Convergence plot: two log-scale error curves, a step series, a NaN and a reference line.
inline FigureSpec convergenceChart() {
    FigureSpec f;
    f.id = QStringLiteral("convergence");
    f.title = QStringLiteral("Residual vs iteration");
    f.caption = QStringLiteral("Newton switches in at the dashed line.");
    f.kind = FigureKind::Chart;
    ChartSpec& c = f.chart;
    c.xLabel = QStringLiteral("iteration");
    c.yLabel = QStringLiteral("residual ‖F(x)‖");
    c.logY = true;
    SeriesSpec a, b, s;
    a.name = QStringLiteral("hybrid (ours)");
    b.name = QStringLiteral("gradient baseline");
    b.dashed = true;
    s.name = QStringLiteral("active set size");
    s.style = SeriesSpec::Style::Step;
    for (int i = 0; i <= 1000; ++i) {
        a.x << i;
        b.x << i;
        a.y << (i < 600 ? std::exp(-i / 120.0) : std::exp(-5.0) * std::exp(-(i - 600) / 15.0)) + 1e-12;
        b.y << 1.0 / (1.0 + 0.02 * i);
        if (i % 50 == 0) {
            s.x << i;
            s.y << 1e-3 * (1 + (i / 200));
        }
    }
    a.y[500] = std::numeric_limits<double>::quiet_NaN();
    b.y[10] = -1; // not drawable on a log axis
    c.series = {a, b, s};
    MarkerSpec m;
    m.axis = MarkerSpec::Axis::X;
    m.value = 600;
    m.label = QStringLiteral("switch to Newton");
    MarkerSpec tol;
    tol.axis = MarkerSpec::Axis::Y;
    tol.value = 1e-8;
    tol.label = QStringLiteral("tolerance");
    c.markers = {m, tol};
    return f;
}

/// Scatter + line on linear axes.
inline FigureSpec scatterChart(int n = 400) {
    FigureSpec f;
    f.id = QStringLiteral("scatter");
    f.title = QStringLiteral("Samples and fit");
    f.kind = FigureKind::Chart;
    f.chart.xLabel = QStringLiteral("x (a.u.)");
    f.chart.yLabel = QStringLiteral("y (a.u.)");
    SeriesSpec pts, fit;
    pts.name = QStringLiteral("samples");
    pts.style = SeriesSpec::Style::Scatter;
    fit.name = QStringLiteral("fit");
    unsigned state = 12345u;
    auto rnd = [&state]() {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) / double(1u << 24);
    };
    for (int i = 0; i < n; ++i) {
        const double x = 10.0 * i / n;
        pts.x << x;
        pts.y << std::sin(x) + 0.3 * (rnd() - 0.5);
    }
    for (int i = 0; i <= 200; ++i) {
        fit.x << 0.05 * i;
        fit.y << std::sin(0.05 * i);
    }
    f.chart.series = {pts, fit};
    return f;
}

/// Grouped bars with categories.
inline FigureSpec barChart() {
    FigureSpec f;
    f.id = QStringLiteral("bars");
    f.title = QStringLiteral("Accuracy by method");
    f.kind = FigureKind::Chart;
    f.chart.xLabel = QStringLiteral("dataset");
    f.chart.yLabel = QStringLiteral("accuracy (%)");
    f.chart.categories = {QStringLiteral("MNIST"), QStringLiteral("CIFAR-10"), QStringLiteral("SVHN")};
    SeriesSpec a, b;
    a.name = QStringLiteral("ours");
    a.style = SeriesSpec::Style::Bars;
    a.y = {98.1, 91.4, 95.0};
    b.name = QStringLiteral("baseline");
    b.style = SeriesSpec::Style::Bars;
    b.y = {97.2, 88.9, 93.1};
    f.chart.series = {a, b};
    return f;
}

/// A labelled payoff-like matrix with a NaN, highlights and a diverging map.
inline FigureSpec payoffHeatmap(int rows = 8, int cols = 10) {
    FigureSpec f;
    f.id = QStringLiteral("payoff");
    f.title = QStringLiteral("Row player payoff");
    f.kind = FigureKind::Heatmap;
    HeatmapSpec& h = f.heatmap;
    h.rows = rows;
    h.cols = cols;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            h.values << std::sin(0.7 * r) * std::cos(0.45 * c) * 3.0;
    if (rows > 2 && cols > 3)
        h.values[2 * cols + 3] = std::numeric_limits<double>::quiet_NaN();
    for (int r = 0; r < rows; ++r)
        h.rowLabels << QStringLiteral("strategy %1").arg(r + 1);
    for (int c = 0; c < cols; ++c)
        h.colLabels << QStringLiteral("s%1").arg(c + 1);
    h.rowTitle = QStringLiteral("row strategy");
    h.colTitle = QStringLiteral("column strategy");
    h.colormap = QStringLiteral("diverging");
    h.centreZero = true;
    h.unit = QStringLiteral("payoff");
    h.highlightRows = {1};
    h.highlightCols = {4};
    h.annotateCells = true;
    return f;
}

/// A large smooth field (default 4096 x 4096) for zoom/pan tests and benchmarks.
inline FigureSpec bigHeatmap(int n = 4096) {
    FigureSpec f;
    f.id = QStringLiteral("field");
    f.title = QStringLiteral("Attention field");
    f.kind = FigureKind::Heatmap;
    HeatmapSpec& h = f.heatmap;
    h.rows = n;
    h.cols = n;
    h.values.resize(qsizetype(n) * n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            h.values[qsizetype(r) * n + c] =
                std::sin(r * 0.01) * std::cos(c * 0.013) + 0.001 * ((r * 7 + c * 13) % 97);
    h.rowTitle = QStringLiteral("query");
    h.colTitle = QStringLiteral("key");
    h.unit = QStringLiteral("score");
    h.colormap = QStringLiteral("viridis");
    return f;
}

} // namespace pl::gui::samples
