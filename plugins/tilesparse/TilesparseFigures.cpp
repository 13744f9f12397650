// The tilesparse panel: its engine and figure table (ids, kinds and titles as in paper.json),
// and the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "tilesparse/TileSparseEngine.h"
#include "tilesparse/TileSparseKeys.h"

#include <cmath>

namespace pl::tilesparsefig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = tilesparse::keys;

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
    return QString::number(100.0 * fig::metric(d, keys::metric::kDisplayBudget), 'g', 3) +
           QStringLiteral(" %");
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
    const double shown = fig::metric(d, keys::metric::kDisplayBudget);
    if (std::isfinite(shown))
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, shown, QStringLiteral("shown budget")};
}

void tileHeatmap(gui::FigureSpec& f, const ResultDocument& d, const std::string& key, const QString& unit) {
    f.kind = FigureKind::Heatmap;
    // Linked selection (issue 34): the tile heatmaps share one grid of head groups x key blocks.
    f.selection.heatmapRows = QStringLiteral("head group");
    f.selection.heatmapCols = QStringLiteral("key block");
    f.heatmap = fig::heatmap(d, key);
    f.heatmap.rowTitle = QStringLiteral("head group");
    f.heatmap.colTitle = QStringLiteral("key block");
    f.heatmap.unit = unit;
    f.heatmap.colLabels.clear(); // hundreds of blocks: the axis title is enough
}

void errorVsBudget(const ResultDocument& d, FigureSpec& f) {
    budgetChart(f, d, keys::series::kErrorPrefix, QStringLiteral("relative output error ‖o − ô‖ / ‖o‖"),
                true);
    f.caption = QStringLiteral("Exact attention on each method's tiles, mean over rows and held-out decode "
                               "steps. At equal compute, QK-2D lets every head group spend its tiles on the "
                               "blocks it needs; K-only makes all groups compute the same blocks.");
}

void massVsBudget(const ResultDocument& d, FigureSpec& f) {
    budgetChart(f, d, keys::series::kMassPrefix, QStringLiteral("retained attention mass"), false);
    f.caption = QStringLiteral("Share of the dense softmax mass that lies on the selected tiles.");
}

void top1VsBudget(const ResultDocument& d, FigureSpec& f) {
    budgetChart(f, d, keys::series::kTop1Prefix, QStringLiteral("top-1 agreement with dense attention"),
                false);
    f.caption =
        QStringLiteral("Stand-in for task accuracy: argmax of a fixed random read-out of the "
                       "concatenated head outputs, compared with dense attention. Coarse (few tokens).");
}

void attentionMass(const ResultDocument& d, FigureSpec& f) {
    tileHeatmap(f, d, keys::matrix::kAttentionMass, QStringLiteral("mass per row"));
    f.heatmap.colormap = QStringLiteral("magma");
    f.caption =
        QStringLiteral("Dense softmax mass of each head group on each key block (first held-out step). "
                       "Horizontal stripes that differ between rows are head sparsity.");
}

void selected(const ResultDocument& d, FigureSpec& f, const std::string& m) {
    const std::string key = keys::matrix::kSelectedPrefix + m;
    tileHeatmap(f, d, key, QStringLiteral("selected (1) / skipped (0)"));
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.caption = QStringLiteral("Tiles computed at the shown budget (") + budgetText(d) +
                QStringLiteral("), retained mass ") +
                QString::number(fig::metric(d, keys::metric::kMassPrefix + m), 'f', 3) +
                QStringLiteral(". Block 0 (sink) and the most recent blocks are always computed.");
}

void roofline(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("arithmetic intensity (FLOP/byte)");
    f.chart.yLabel = QStringLiteral("attainable (TFLOP/s)");
    f.chart.logX = f.chart.logY = true;
    SeriesSpec bound =
        fig::series(d, keys::series::kRooflineBound, QStringLiteral("roofline"), SeriesSpec::Style::Line, 7);
    bound.dashed = true;
    f.chart.series << bound;
    f.chart.series << fig::series(d, keys::series::kRooflineDense,
                                  QStringLiteral("dense: GQA, MLA, MLA+MTP2"), SeriesSpec::Style::Scatter, 5);
    for (const auto& m : kMethods)
        if (fig::hasSeries(d, std::string(keys::series::kRooflinePrefix) + m.key))
            f.chart.series << fig::series(d, std::string(keys::series::kRooflinePrefix) + m.key,
                                          QString::fromLatin1(m.name), SeriesSpec::Style::Scatter, m.color);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, fig::metric(d, keys::metric::kRidge),
                                       QStringLiteral("ridge")};
    // Headroom above the compute roof so points on it are not drawn on the frame.
    double roof = 0;
    if (const Series* b = fig::seriesData(d, keys::series::kRooflineBound))
        for (double y : b->y)
            roof = std::max(roof, y);
    if (roof > 0) {
        f.chart.fixedYRange = true;
        f.chart.yMin = roof * 1e-4;
        f.chart.yMax = roof * 3;
    }
    f.caption =
        QStringLiteral("One point per method and budget in the selected cost preset. Points left of the "
                       "ridge are memory-bound: QK-2D fetches more distinct blocks for the same FLOPs. QK-2D "
                       "uniform and global often coincide (same tiles and fetched blocks).");
}

void modelledTime(const ResultDocument& d, FigureSpec& f) {
    budgetChart(f, d, keys::series::kTimePrefix, QStringLiteral("modelled time per layer and step (µs)"),
                true);
    SeriesSpec dense =
        fig::series(d, keys::series::kTimeDense, QStringLiteral("dense"), SeriesSpec::Style::Line, 7);
    dense.dashed = true;
    f.chart.series << dense;
    const double x = fig::metric(d, keys::metric::kCrossoverBudgetQk2d);
    if (std::isfinite(x))
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, x,
                                           QStringLiteral("QK-2D compute-bound")};
    f.caption =
        QStringLiteral("max(FLOPs / peak, bytes / bandwidth). While compute-bound, QK-2D's extra block "
                       "fetches cost nothing and its time equals K-only's.");
}

void autotuner(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kAutotuneGrid);
    f.heatmap.rowTitle = QStringLiteral("tier-1 share k1/C");
    f.heatmap.colTitle = QStringLiteral("groups in tiers 2 and 3");
    f.heatmap.unit = QStringLiteral("retained attention mass (calibration steps)");
    f.heatmap.annotateCells = true;
    f.caption = QStringLiteral("Shown budget ") + budgetText(d) + QStringLiteral("; chosen: ") +
                QString::number(fig::metric(d, keys::metric::kAutotuneLevels)) +
                QStringLiteral(" tier(s), k1/C = ") +
                QString::number(fig::metric(d, keys::metric::kAutotuneK1Fraction)) +
                QStringLiteral(", m2 = ") + QString::number(fig::metric(d, keys::metric::kAutotuneM2)) +
                QStringLiteral(", m3 = ") + QString::number(fig::metric(d, keys::metric::kAutotuneM3)) +
                QStringLiteral(" (one tier = K-only scores ") +
                QString::number(fig::metric(d, keys::metric::kAutotuneObjectiveOneTier), 'f', 3) +
                QStringLiteral(").");
}

void headMass(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("head");
    f.chart.yLabel = QStringLiteral("retained attention mass");
    size_t n = 0;
    for (const auto& m : {kMethods[0], kMethods[1], kMethods[3]}) {
        if (const auto* v = fig::vector(d, std::string(keys::vector::kHeadMassPrefix) + m.key)) {
            f.chart.series << fig::bars(*v, QString::fromLatin1(m.name), m.color);
            n = std::max(n, v->size());
        }
    }
    for (size_t i = 0; i < n; ++i)
        f.chart.categories << QString::number(i);
    f.caption =
        QStringLiteral("At the shown budget: which heads lose their attention under K-only selection.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<tilesparse::TileSparseEngine>({
        {"error_vs_budget", FigureKind::Chart, "Output error vs compute budget", errorVsBudget},
        {"mass_vs_budget", FigureKind::Chart, "Retained mass vs compute budget", massVsBudget},
        {"top1_vs_budget", FigureKind::Chart, "Top-1 agreement vs compute budget", top1VsBudget},
        {"attention_mass", FigureKind::Heatmap, "True attention mass per tile", attentionMass},
        {"selected_k_only", FigureKind::Heatmap, "Selected tiles: K-only",
         [](const ResultDocument& d, FigureSpec& f) { selected(d, f, "k_only"); }},
        {"selected_qk2d", FigureKind::Heatmap, "Selected tiles: QK-2D uniform",
         [](const ResultDocument& d, FigureSpec& f) { selected(d, f, "qk2d"); }},
        {"selected_tiered", FigureKind::Heatmap, "Selected tiles: tiered QK-2D",
         [](const ResultDocument& d, FigureSpec& f) { selected(d, f, "tiered"); }},
        {"roofline", FigureKind::Chart, "Roofline", roofline},
        {"modelled_time", FigureKind::Chart, "Modelled time vs budget", modelledTime},
        {"autotuner", FigureKind::Heatmap, "Autotuner grid", autotuner},
        {"head_mass", FigureKind::Chart, "Retained mass per head", headMass},
    });
    return def;
}

} // namespace pl::tilesparsefig
