#include "LinkedSelection.h"

#include <algorithm>

namespace pl::gui {

namespace {

/// Indices of \a wanted inside [0, n).
QVector<int> within(const QVector<int>& wanted, qsizetype n) {
    QVector<int> out;
    for (int i : wanted)
        if (i >= 0 && i < n)
            out << i;
    return out;
}

void applyChart(ChartSpec& c, const QString& dim, const QVector<int>& wanted) {
    if (c.series.isEmpty())
        return;
    const SeriesSpec& s = c.series.first();
    const bool bars = s.style == SeriesSpec::Style::Bars;
    c.linkedPoints = within(wanted, bars && !c.categories.isEmpty() ? c.categories.size() : s.x.size());
    for (int k : std::as_const(c.linkedPoints)) {
        MarkerSpec m;
        m.axis = MarkerSpec::Axis::X;
        m.value = k < s.x.size() ? s.x[k] : double(k);
        const QString name = k < c.categories.size() ? c.categories[k] : QString::number(m.value, 'g', 6);
        m.label = QStringLiteral("%1 %2").arg(dim, name);
        c.markers << m;
    }
}

void applyScene(SceneSpec& scene, const QVector<int>& wanted) {
    if (scene.spheres.isEmpty())
        return;
    const SphereSetSpec& base = scene.spheres.first();
    scene.linkedSpheres = within(wanted, base.centers.size());
    if (scene.linkedSpheres.isEmpty())
        return;
    SphereSetSpec shell;
    shell.style.name = QStringLiteral("selected");
    shell.style.color = Rgba(0xFF, 0x2D, 0xA0); // magenta: apart from the series palette, both themes
    shell.style.opacity = 0.6;
    for (int k : std::as_const(scene.linkedSpheres)) {
        shell.centers << base.centers[k];
        const double r = k < base.radii.size() ? base.radii[k] : base.radius;
        shell.radii << 2.5 * r;
        if (k < base.labels.size())
            shell.labels << base.labels[k];
    }
    scene.spheres << shell;
}

} // namespace

QVector<int> normalizedIndices(QVector<int> indices) {
    indices.erase(std::remove_if(indices.begin(), indices.end(), [](int i) { return i < 0; }), indices.end());
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    return indices;
}

QStringList selectionDimensions(const FigureSpec& spec) {
    QStringList dims;
    for (const QString& d :
         {spec.selection.chartPoints, spec.selection.heatmapRows, spec.selection.heatmapCols,
          spec.selection.graphNodes, spec.selection.sceneSpheres})
        if (!d.isEmpty() && !dims.contains(d))
            dims << d;
    return dims;
}

FigureSpec withLinkedSelection(const FigureSpec& spec, const SelectionMap& selection) {
    FigureSpec out = spec;
    const SelectionDims& d = spec.selection;
    auto chosen = [&](const QString& dim) { return dim.isEmpty() ? QVector<int>{} : selection.value(dim); };
    switch (spec.kind) {
    case FigureKind::Chart:
        if (!d.chartPoints.isEmpty())
            applyChart(out.chart, d.chartPoints, chosen(d.chartPoints));
        break;
    case FigureKind::Heatmap:
        out.heatmap.linkedRows = within(chosen(d.heatmapRows), spec.heatmap.rows);
        out.heatmap.linkedCols = within(chosen(d.heatmapCols), spec.heatmap.cols);
        break;
    case FigureKind::Graph:
        out.graph.linkedNodes = within(chosen(d.graphNodes), spec.graph.nodes.size());
        break;
    case FigureKind::Scene3D:
        if (!d.sceneSpheres.isEmpty())
            applyScene(out.scene, chosen(d.sceneSpheres));
        break;
    }
    return out;
}

SelectionMap selectionForCell(const FigureSpec& spec, int row, int col) {
    SelectionMap out;
    const SelectionDims& d = spec.selection;
    if (spec.kind != FigureKind::Heatmap || row < 0 || col < 0)
        return out;
    if (!d.heatmapRows.isEmpty())
        out[d.heatmapRows] << row;
    if (!d.heatmapCols.isEmpty())
        out[d.heatmapCols] << col;
    for (auto it = out.begin(); it != out.end(); ++it)
        *it = normalizedIndices(*it);
    return out;
}

} // namespace pl::gui
