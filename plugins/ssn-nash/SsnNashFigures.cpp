#include "SsnNashFigures.h"

#include "sdk/FigureHelpers.h"

#include <QFile>
#include <cmath>
#include <stdexcept>

namespace pl::ssnnash {

using gui::FigureKind;
using gui::SeriesSpec;

gui::FigureSpec buildFigure(const QString& id, const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = id;
    if (id == QLatin1String("gap_vs_iteration")) {
        f.title = QStringLiteral("Duality gap vs iteration");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("iteration (a Newton step counts as one)");
        f.chart.yLabel = QStringLiteral("duality gap max(Ay) − min(xᵀA)");
        f.chart.logX = true; // the Newton phase is a few steps after thousands of PRM+ steps
        f.chart.logY = true;
        const struct {
            const char* key;
            const char* name;
            int color;
        } curves[] = {{"gap_prm_plus", "PRM+", 0}, {"gap_ssn", "SSN (cold start)", 1}, {"gap_hybrid", "hybrid", 2}};
        for (const auto& c : curves)
            if (fig::hasSeries(d, c.key))
                f.chart.series << fig::series(d, c.key, QString::fromLatin1(c.name), SeriesSpec::Style::Line, c.color);
        if (fig::hasSeries(d, "gap_prm_plus_last")) {
            SeriesSpec last = fig::series(d, "gap_prm_plus_last", QStringLiteral("PRM+ last iterate"),
                                          SeriesSpec::Style::Line, 0);
            last.dashed = true;
            last.lineWidth = 1.0;
            f.chart.series << last;
        }
        if (f.chart.series.isEmpty())
            f.chart.series << fig::series(d, "gap_vs_iteration", QStringLiteral("gap"));
        const double sw = fig::metric(d, "switch_iteration");
        if (std::isfinite(sw) && sw > 0)
            f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, sw, QStringLiteral("switch to Newton")};
        f.caption = QStringLiteral("All solvers run on the same game. PRM+ falls roughly like 1/t; once the hybrid "
                                   "switches to semi-smooth Newton the gap drops to machine precision in a few steps.");
    } else if (id == QLatin1String("gap_vs_work")) {
        f.title = QStringLiteral("Duality gap vs work");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("work (matrix-vector product equivalents)");
        f.chart.yLabel = QStringLiteral("duality gap");
        f.chart.logX = true;
        f.chart.logY = true;
        const struct {
            const char* key;
            const char* name;
            int color;
        } curves[] = {{"gap_vs_work_prm_plus", "PRM+", 0}, {"gap_vs_work_ssn", "SSN (cold start)", 1},
                      {"gap_vs_work_hybrid", "hybrid", 2}};
        for (const auto& c : curves)
            if (fig::hasSeries(d, c.key))
                f.chart.series << fig::series(d, c.key, QString::fromLatin1(c.name), SeriesSpec::Style::Line, c.color);
        f.caption = QStringLiteral("The fair comparison: a Newton step costs a linear solve, counted here as its "
                                   "equivalent number of matrix-vector products with A.");
    } else if (id == QLatin1String("gap_ratio")) {
        f.title = QStringLiteral("Ratio of successive gaps in the Newton phase");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("Newton step");
        f.chart.yLabel = QStringLiteral("gap(k+1) / gap(k)");
        f.chart.logY = true;
        f.chart.series << fig::series(d, "gap_ratio", QStringLiteral("successive gap ratio"),
                                      SeriesSpec::Style::LineWithPoints, 2);
        f.caption = QStringLiteral("Superlinear convergence shows as ratios that fall towards zero; linear "
                                   "convergence would level off at a constant.");
    } else if (id == QLatin1String("strategies")) {
        f.title = QStringLiteral("Equilibrium strategies");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("strategy index");
        f.chart.yLabel = QStringLiteral("probability");
        auto xs = d.vectors.find("x"), ys = d.vectors.find("y");
        if (xs != d.vectors.end())
            f.chart.series << fig::bars(xs->second, QStringLiteral("x (row player)"), 0);
        if (ys != d.vectors.end())
            f.chart.series << fig::bars(ys->second, QStringLiteral("y (column player)"), 1);
        const size_t n = std::max(xs != d.vectors.end() ? xs->second.size() : 0, ys != d.vectors.end() ? ys->second.size() : 0);
        for (size_t i = 0; i < n; ++i)
            f.chart.categories << QString::number(i + 1);
        f.caption = QStringLiteral("Mixed strategies returned by the selected solver; bars above zero form the support.");
    } else if (id == QLatin1String("payoff")) {
        f.title = QStringLiteral("Payoff matrix A (row player maximises xᵀAy)");
        f.kind = FigureKind::Heatmap;
        if (d.matrices.count("payoff") == 0) {
            // Very large games: the engine leaves the matrix out of the result.
            f.heatmap.rows = f.heatmap.cols = 1;
            f.heatmap.values = {std::nan("")};
            f.caption = QStringLiteral("The payoff matrix is too large to include in the result.");
            return f;
        }
        f.heatmap = fig::heatmap(d, "payoff");
        f.heatmap.colormap = QStringLiteral("diverging");
        f.heatmap.centreZero = true;
        f.heatmap.unit = QStringLiteral("payoff to the row player");
        f.heatmap.rowTitle = QStringLiteral("row strategy");
        f.heatmap.colTitle = QStringLiteral("column strategy");
        if (auto sx = d.labels.find("support_x"); sx != d.labels.end())
            for (int64_t i : sx->second)
                f.heatmap.highlightRows << int(i);
        if (auto sy = d.labels.find("support_y"); sy != d.labels.end())
            for (int64_t j : sy->second)
                f.heatmap.highlightCols << int(j);
        f.caption = QStringLiteral("Outlined rows and columns are the supports of the equilibrium strategies.");
    } else {
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    }
    return f;
}

QString helpMarkdown() {
    QFile f(QStringLiteral(":/ssn-nash/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("# ssn-nash\n");
}

} // namespace pl::ssnnash
