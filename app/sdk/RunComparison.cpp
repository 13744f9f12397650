#include "RunComparison.h"

#include <algorithm>

namespace pl {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

std::vector<ParamDifference> parameterDifferences(const ResultDocument& a, const ResultDocument& b) {
    std::vector<ParamDifference> out;
    if (a.seed != b.seed)
        out.push_back({"seed", std::to_string(a.seed), std::to_string(b.seed)});
    auto find = [](const ResultDocument& d, const std::string& key) -> std::string {
        for (const auto& [k, v] : d.params)
            if (k == key)
                return toString(v);
        return {};
    };
    for (const auto& [k, v] : a.params) {
        const std::string bv = find(b, k), av = toString(v);
        if (av != bv)
            out.push_back({k, av, bv});
    }
    for (const auto& [k, v] : b.params)
        if (std::none_of(a.params.begin(), a.params.end(), [&](const auto& p) { return p.first == k; }))
            out.push_back({k, "", toString(v)});
    return out;
}

namespace {

FigureSpec overlayCharts(const FigureSpec& a, const FigureSpec& b) {
    FigureSpec f = b;
    f.chart.series.clear();
    for (int i = 0; i < b.chart.series.size(); ++i) {
        SeriesSpec sb = b.chart.series[i];
        if (sb.colorIndex < 0)
            sb.colorIndex = i;
        // A's series of the same name (else the same position) in B's colour, dashed and thinner.
        int j = -1;
        for (int k = 0; k < a.chart.series.size() && j < 0; ++k)
            if (a.chart.series[k].name == sb.name)
                j = k;
        if (j < 0 && i < a.chart.series.size())
            j = i;
        if (j >= 0) {
            SeriesSpec sa = a.chart.series[j];
            sa.name = QStringLiteral("A: ") + sa.name;
            sa.colorIndex = sb.colorIndex;
            sa.dashed = true;
            sa.lineWidth = std::max(0.8, sb.lineWidth * 0.6);
            if (sa.style == SeriesSpec::Style::LineWithPoints)
                sa.style = SeriesSpec::Style::Line;
            f.chart.series.push_back(sa);
        }
        sb.name = QStringLiteral("B: ") + sb.name;
        f.chart.series.push_back(sb);
    }
    f.chart.markers += a.chart.markers;
    f.caption = QStringLiteral("A dashed, B solid. ") + b.caption;
    return f;
}

bool sameShape(const FigureSpec& a, const FigureSpec& b) {
    return a.kind == FigureKind::Heatmap && b.kind == FigureKind::Heatmap &&
           a.heatmap.rows == b.heatmap.rows && a.heatmap.cols == b.heatmap.cols &&
           a.heatmap.values.size() == b.heatmap.values.size();
}

FigureSpec difference(const FigureSpec& a, const FigureSpec& b) {
    FigureSpec f = b;
    for (int i = 0; i < f.heatmap.values.size(); ++i)
        f.heatmap.values[i] = b.heatmap.values[i] - a.heatmap.values[i];
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.centreZero = true;
    f.heatmap.fixedRange = false;
    f.heatmap.unit =
        (b.heatmap.unit.isEmpty() ? QStringLiteral("B − A") : QStringLiteral("B − A, ") + b.heatmap.unit);
    f.title = b.title + QStringLiteral(" (B − A)");
    f.caption = QStringLiteral("Difference of run B and run A, cell by cell (0 = unchanged). ") + b.caption;
    return f;
}

} // namespace

FigureSpec compareFigures(const FigureSpec& a, const FigureSpec& b, CompareView view) {
    if (view == CompareView::OnlyA)
        return a;
    if (view == CompareView::OnlyB)
        return b;
    if (b.kind == FigureKind::Chart && a.kind == FigureKind::Chart && view == CompareView::Overlay)
        return overlayCharts(a, b);
    if (sameShape(a, b))
        return difference(a, b);
    FigureSpec f = b;
    f.caption = QStringLiteral("Run B (this figure is not compared: %1). ")
                    .arg(a.kind != b.kind || b.kind == FigureKind::Heatmap
                             ? QStringLiteral("A and B differ in shape")
                             : QStringLiteral("no overlay for this kind")) +
                b.caption;
    return f;
}

} // namespace pl
