// The ssn-nash panel: its engine and figure table (ids, kinds and titles as in paper.json),
// and the figure builders. Pure functions of the result (thread-safe).
#include "games/SsnNashEngine.h"
#include "games/SsnNashKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::ssnnash {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

struct Curve {
    const char* key;
    const char* name;
    int color;
};

void gapVsIteration(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("iteration (a Newton step counts as one)");
    f.chart.yLabel = QStringLiteral("duality gap max(Ay) − min(xᵀA)");
    f.chart.logX = true; // the Newton phase is a few steps after thousands of PRM+ steps
    f.chart.logY = true;
    const Curve curves[] = {{keys::series::kGapPrmPlus, "PRM+", 0},
                            {keys::series::kGapSsn, "SSN (cold start)", 1},
                            {keys::series::kGapHybrid, "hybrid", 2}};
    for (const auto& c : curves)
        if (fig::hasSeries(d, c.key))
            f.chart.series << fig::series(d, c.key, QString::fromLatin1(c.name), SeriesSpec::Style::Line,
                                          c.color);
    if (fig::hasSeries(d, keys::series::kGapPrmPlusLast)) {
        SeriesSpec last = fig::series(d, keys::series::kGapPrmPlusLast, QStringLiteral("PRM+ last iterate"),
                                      SeriesSpec::Style::Line, 0);
        last.dashed = true;
        last.lineWidth = 1.0;
        f.chart.series << last;
    }
    if (f.chart.series.isEmpty())
        f.chart.series << fig::series(d, keys::series::kGapVsIteration, QStringLiteral("gap"));
    const double sw = fig::metric(d, keys::metric::kSwitchIteration);
    if (std::isfinite(sw) && sw > 0)
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, sw, QStringLiteral("switch to Newton")};
    f.caption =
        QStringLiteral("All solvers run on the same game. PRM+ falls roughly like 1/t; once the hybrid "
                       "switches to semi-smooth Newton the gap drops to machine precision in a few steps.");
}

void gapVsWork(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("work (matrix-vector product equivalents)");
    f.chart.yLabel = QStringLiteral("duality gap");
    f.chart.logX = true;
    f.chart.logY = true;
    const Curve curves[] = {{keys::series::kGapVsWorkPrmPlus, "PRM+", 0},
                            {keys::series::kGapVsWorkSsn, "SSN (cold start)", 1},
                            {keys::series::kGapVsWorkHybrid, "hybrid", 2}};
    for (const auto& c : curves)
        if (fig::hasSeries(d, c.key))
            f.chart.series << fig::series(d, c.key, QString::fromLatin1(c.name), SeriesSpec::Style::Line,
                                          c.color);
    f.caption = QStringLiteral("The fair comparison: a Newton step costs a linear solve, counted here as its "
                               "equivalent number of matrix-vector products with A.");
}

void gapRatio(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("Newton step");
    f.chart.yLabel = QStringLiteral("gap(k+1) / gap(k)");
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kGapRatio, QStringLiteral("successive gap ratio"),
                                  SeriesSpec::Style::LineWithPoints, 2);
    f.caption = QStringLiteral("Superlinear convergence shows as ratios that fall towards zero; linear "
                               "convergence would level off at a constant.");
}

/// Linked selection (issue 34): bar k of the strategies chart is strategy k of both players, so
/// it marks row k and column k of the payoff matrix; a cell (i, j) marks strategies i and j.
const QString kStrategyDim = QStringLiteral("strategy");

void strategies(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("strategy index");
    f.chart.yLabel = QStringLiteral("probability");
    const std::vector<double>* xs = fig::vector(d, keys::vector::kX);
    const std::vector<double>* ys = fig::vector(d, keys::vector::kY);
    if (xs)
        f.chart.series << fig::bars(*xs, QStringLiteral("x (row player)"), 0);
    if (ys)
        f.chart.series << fig::bars(*ys, QStringLiteral("y (column player)"), 1);
    const size_t n = std::max(xs ? xs->size() : 0, ys ? ys->size() : 0);
    for (size_t i = 0; i < n; ++i)
        f.chart.categories << QString::number(i + 1);
    f.selection.chartPoints = kStrategyDim;
    f.caption =
        QStringLiteral("Mixed strategies returned by the selected solver; bars above zero form the support.");
}

void payoff(const ResultDocument& d, FigureSpec& f) {
    const Matrix* a = fig::findMatrix(d, keys::matrix::kPayoff);
    if (!a) {
        // Very large games: the engine leaves the matrix out of the result.
        f.heatmap.rows = f.heatmap.cols = 1;
        f.heatmap.values = {std::nan("")};
        f.caption = QStringLiteral("The payoff matrix is too large to include in the result.");
        return;
    }
    f.heatmap = fig::heatmap(*a);
    f.selection.heatmapRows = f.selection.heatmapCols = kStrategyDim;
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.centreZero = true;
    f.heatmap.unit = QStringLiteral("payoff to the row player");
    f.heatmap.rowTitle = QStringLiteral("row strategy");
    f.heatmap.colTitle = QStringLiteral("column strategy");
    if (const auto* sx = fig::labels(d, keys::label::kSupportX))
        for (int64_t i : *sx)
            f.heatmap.highlightRows << int(i);
    if (const auto* sy = fig::labels(d, keys::label::kSupportY))
        for (int64_t j : *sy)
            f.heatmap.highlightCols << int(j);
    f.caption = QStringLiteral("Outlined rows and columns are the supports of the equilibrium strategies.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<games::SsnNashEngine>({
        {"gap_vs_iteration", FigureKind::Chart, "Duality gap vs iteration", gapVsIteration},
        {"gap_vs_work", FigureKind::Chart, "Duality gap vs work", gapVsWork},
        {"gap_ratio", FigureKind::Chart, "Ratio of successive gaps (Newton phase)", gapRatio},
        {"strategies", FigureKind::Chart, "Equilibrium strategies", strategies},
        {"payoff", FigureKind::Heatmap, "Payoff matrix and support", payoff},
    });
    return def;
}

} // namespace pl::ssnnash
