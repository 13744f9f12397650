#include "TilesparseFigures.h"

#include "sdk/FigureHelpers.h"

#include <QFile>
#include <cmath>
#include <stdexcept>

namespace pl::tilesparsefig {

using gui::FigureKind;
using gui::SeriesSpec;

namespace {

struct Method {
    const char* key;
    const char* name;
    int color;
};
const Method kMethods[] = {{"k_only", "K-only (top-k blocks)", 0},
                           {"qk2d", "QK-2D uniform", 1},
                           {"qk2d_global", "QK-2D global", 2},
                           {"tiered", "tiered QK-2D + autotuner", 3}};

QString budgetText(const ResultDocument& d) {
    return QString::number(100.0 * fig::metric(d, "display_budget"), 'g', 3) + QStringLiteral(" %");
}

void budgetChart(gui::FigureSpec& f, const ResultDocument& d, const char* prefix, const QString& ylabel,
                 bool logY) {
    f.kind = FigureKind::Chart;
    f.chart.xLabel = QStringLiteral("compute budget (fraction of head-group × key-block tiles)");
    f.chart.yLabel = ylabel;
    f.chart.logX = true;
    f.chart.logY = logY;
    for (const auto& m : kMethods) {
        const std::string key = std::string(prefix) + m.key;
        if (!fig::hasSeries(d, key))
            continue;
        SeriesSpec s =
            fig::series(d, key, QString::fromLatin1(m.name), SeriesSpec::Style::LineWithPoints, m.color);
        if (logY) // the full budget is exact (error ~1e-15): leave it off a log axis
            for (double& y : s.y)
                if (y < 1e-9)
                    y = std::nan("");
        f.chart.series << s;
    }
    const double shown = fig::metric(d, "display_budget");
    if (std::isfinite(shown))
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, shown, QStringLiteral("shown budget")};
}

void tileHeatmap(gui::FigureSpec& f, const ResultDocument& d, const std::string& key, const QString& unit) {
    f.kind = FigureKind::Heatmap;
    f.heatmap = fig::heatmap(d, key);
    f.heatmap.rowTitle = QStringLiteral("head group");
    f.heatmap.colTitle = QStringLiteral("key block");
    f.heatmap.unit = unit;
    f.heatmap.colLabels.clear(); // hundreds of blocks: the axis title is enough
}

} // namespace

gui::FigureSpec buildFigure(const QString& id, const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = id;
    if (id == QLatin1String("error_vs_budget")) {
        f.title = QStringLiteral("Output error vs compute budget");
        budgetChart(f, d, "error_", QStringLiteral("relative output error ‖o − ô‖ / ‖o‖"), true);
        f.caption =
            QStringLiteral("Exact attention on each method's tiles, mean over rows and held-out decode "
                           "steps. At equal compute, QK-2D lets every head group spend its tiles on the "
                           "blocks it needs; K-only makes all groups compute the same blocks.");
    } else if (id == QLatin1String("mass_vs_budget")) {
        f.title = QStringLiteral("Retained attention mass vs compute budget");
        budgetChart(f, d, "mass_", QStringLiteral("retained attention mass"), false);
        f.caption = QStringLiteral("Share of the dense softmax mass that lies on the selected tiles.");
    } else if (id == QLatin1String("top1_vs_budget")) {
        f.title = QStringLiteral("Top-1 agreement vs compute budget");
        budgetChart(f, d, "top1_", QStringLiteral("top-1 agreement with dense attention"), false);
        f.caption =
            QStringLiteral("Stand-in for task accuracy: argmax of a fixed random read-out of the "
                           "concatenated head outputs, compared with dense attention. Coarse (few tokens).");
    } else if (id == QLatin1String("attention_mass")) {
        f.title = QStringLiteral("True attention mass per tile");
        tileHeatmap(f, d, "attention_mass", QStringLiteral("mass per row"));
        f.heatmap.colormap = QStringLiteral("magma");
        f.caption =
            QStringLiteral("Dense softmax mass of each head group on each key block (first held-out step). "
                           "Horizontal stripes that differ between rows are head sparsity.");
    } else if (id.startsWith(QLatin1String("selected_"))) {
        const std::string m = id.mid(9).toStdString();
        const std::string key = "selected_" + m;
        if (!d.matrices.count(key))
            throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
        QString name = QString::fromStdString(m);
        for (const auto& mm : kMethods)
            if (m == mm.key)
                name = QString::fromLatin1(mm.name);
        f.title = QStringLiteral("Selected tiles: ") + name;
        tileHeatmap(f, d, key, QStringLiteral("selected (1) / skipped (0)"));
        f.heatmap.fixedRange = true;
        f.heatmap.vMin = 0;
        f.heatmap.vMax = 1;
        f.caption = QStringLiteral("Tiles computed at the shown budget (") + budgetText(d) +
                    QStringLiteral("), retained mass ") +
                    QString::number(fig::metric(d, "mass_" + m), 'f', 3) +
                    QStringLiteral(". Block 0 (sink) and the most recent blocks are always computed.");
    } else if (id == QLatin1String("roofline")) {
        f.title = QStringLiteral("Roofline");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("arithmetic intensity (FLOP/byte)");
        f.chart.yLabel = QStringLiteral("attainable (TFLOP/s)");
        f.chart.logX = f.chart.logY = true;
        SeriesSpec bound =
            fig::series(d, "roofline_bound", QStringLiteral("roofline"), SeriesSpec::Style::Line, 7);
        bound.dashed = true;
        f.chart.series << bound;
        f.chart.series << fig::series(d, "roofline_dense", QStringLiteral("dense: GQA, MLA, MLA+MTP2"),
                                      SeriesSpec::Style::Scatter, 5);
        for (const auto& m : kMethods)
            if (fig::hasSeries(d, std::string("roofline_") + m.key))
                f.chart.series << fig::series(d, std::string("roofline_") + m.key,
                                              QString::fromLatin1(m.name), SeriesSpec::Style::Scatter,
                                              m.color);
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, fig::metric(d, "ridge"),
                                           QStringLiteral("ridge")};
        // Headroom above the compute roof so points on it are not drawn on the frame.
        double roof = 0;
        for (double y :
             d.series.count("roofline_bound") ? d.series.at("roofline_bound").y : std::vector<double>{})
            roof = std::max(roof, y);
        if (roof > 0) {
            f.chart.fixedYRange = true;
            f.chart.yMin = roof * 1e-4;
            f.chart.yMax = roof * 3;
        }
        f.caption = QStringLiteral(
            "One point per method and budget in the selected cost preset. Points left of the "
            "ridge are memory-bound: QK-2D fetches more distinct blocks for the same FLOPs. QK-2D "
            "uniform and global often coincide (same tiles and fetched blocks).");
    } else if (id == QLatin1String("modelled_time")) {
        f.title = QStringLiteral("Modelled time vs compute budget");
        budgetChart(f, d, "time_", QStringLiteral("modelled time per layer and step (µs)"), true);
        SeriesSpec dense = fig::series(d, "time_dense", QStringLiteral("dense"), SeriesSpec::Style::Line, 7);
        dense.dashed = true;
        f.chart.series << dense;
        const double x = fig::metric(d, "crossover_budget_qk2d");
        if (std::isfinite(x))
            f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, x,
                                               QStringLiteral("QK-2D compute-bound")};
        f.caption =
            QStringLiteral("max(FLOPs / peak, bytes / bandwidth). While compute-bound, QK-2D's extra block "
                           "fetches cost nothing and its time equals K-only's.");
    } else if (id == QLatin1String("autotuner")) {
        f.title = QStringLiteral("Autotuner grid (calibration objective)");
        f.kind = FigureKind::Heatmap;
        f.heatmap = fig::heatmap(d, "autotune_grid");
        f.heatmap.rowTitle = QStringLiteral("tier-1 share k1/C");
        f.heatmap.colTitle = QStringLiteral("groups in tiers 2 and 3");
        f.heatmap.unit = QStringLiteral("retained attention mass (calibration steps)");
        f.heatmap.annotateCells = true;
        f.caption =
            QStringLiteral("Shown budget ") + budgetText(d) + QStringLiteral("; chosen: ") +
            QString::number(fig::metric(d, "autotune_levels")) + QStringLiteral(" tier(s), k1/C = ") +
            QString::number(fig::metric(d, "autotune_k1_fraction")) + QStringLiteral(", m2 = ") +
            QString::number(fig::metric(d, "autotune_m2")) + QStringLiteral(", m3 = ") +
            QString::number(fig::metric(d, "autotune_m3")) + QStringLiteral(" (one tier = K-only scores ") +
            QString::number(fig::metric(d, "autotune_objective_one_tier"), 'f', 3) + QStringLiteral(").");
    } else if (id == QLatin1String("head_mass")) {
        f.title = QStringLiteral("Retained mass per head");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("head");
        f.chart.yLabel = QStringLiteral("retained attention mass");
        size_t n = 0;
        for (const auto& m : {kMethods[0], kMethods[1], kMethods[3]}) {
            auto it = d.vectors.find(std::string("head_mass_") + m.key);
            if (it != d.vectors.end()) {
                f.chart.series << fig::bars(it->second, QString::fromLatin1(m.name), m.color);
                n = std::max(n, it->second.size());
            }
        }
        for (size_t i = 0; i < n; ++i)
            f.chart.categories << QString::number(i);
        f.caption =
            QStringLiteral("At the shown budget: which heads lose their attention under K-only selection.");
    } else {
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    }
    return f;
}

QString helpMarkdown() {
    QFile f(QStringLiteral(":/tilesparse/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("# tilesparse\n");
}

} // namespace pl::tilesparsefig
