#include "FtrlFigures.h"

#include "sdk/FigureHelpers.h"

#include <QFile>
#include <stdexcept>

namespace pl::ftrl {

using gui::FigureKind;
using gui::SeriesSpec;

static QString labelOr(const QString& s, const char* fallback) { return s.isEmpty() ? QString::fromUtf8(fallback) : s; }

gui::FigureSpec buildFigure(const QString& id, const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = id;
    f.kind = FigureKind::Chart;
    if (id == QLatin1String("steps_vs_n")) {
        f.title = QStringLiteral("Steps to equilibrium vs number of strategies n");
        f.chart.xLabel = QStringLiteral("n (strategies per player)");
        f.chart.yLabel = QStringLiteral("steps until the equilibrium profile is reached");
        f.chart.logY = true;
        if (fig::hasSeries(d, "steps_vs_n_fp"))
            f.chart.series << fig::series(d, "steps_vs_n_fp", QStringLiteral("fictitious play (exact)"),
                                          SeriesSpec::Style::LineWithPoints, 0);
        if (fig::hasSeries(d, "steps_vs_n_ftrl"))
            f.chart.series << fig::series(d, "steps_vs_n_ftrl", QStringLiteral("FTRL (selected dynamics)"),
                                          SeriesSpec::Style::LineWithPoints, 1);
        if (fig::hasSeries(d, "steps_vs_n_br"))
            f.chart.series << fig::series(d, "steps_vs_n_br", QStringLiteral("alternating best response"),
                                          SeriesSpec::Style::LineWithPoints, 2);
        f.caption = QStringLiteral("On the built-in snake construction. A straight line on this log axis is "
                                   "exponential growth; a line that bends upwards is faster than exponential.");
    } else if (id == QLatin1String("nash_gap")) {
        f.title = QStringLiteral("Nash gap of the iterate");
        f.chart.xLabel = labelOr(fig::xlabel(d, "nash_gap_vs_iteration"), "iteration");
        f.chart.yLabel = QStringLiteral("Nash gap (largest gain from a unilateral deviation)");
        f.chart.logX = true;
        f.chart.logY = true;
        f.chart.series << fig::series(d, "nash_gap_vs_iteration", QStringLiteral("Nash gap"), SeriesSpec::Style::Line, 0);
        f.caption = QStringLiteral("Plateaus are periods during which the iterate sits near one pure profile.");
    } else if (id == QLatin1String("potential")) {
        f.title = QStringLiteral("Potential of the iterate");
        f.chart.xLabel = labelOr(fig::xlabel(d, "potential_vs_iteration"), "iteration");
        f.chart.yLabel = QStringLiteral("potential Φ(x, y)");
        f.chart.logX = true;
        f.chart.series << fig::series(d, "potential_vs_iteration", QStringLiteral("potential"), SeriesSpec::Style::Line, 2);
        f.caption = QStringLiteral("The potential climbs the improvement path step by step, one period at a time.");
    } else if (id == QLatin1String("trajectory")) {
        f.title = QStringLiteral("Trajectory of the iterates");
        f.chart.xLabel = labelOr(fig::xlabel(d, "trajectory"), "row player");
        f.chart.yLabel = labelOr(fig::ylabel(d, "trajectory"), "column player");
        f.chart.series << fig::series(d, "trajectory", QStringLiteral("iterate"), SeriesSpec::Style::LineWithPoints, 4);
        f.caption = QStringLiteral("Each point is a recorded iterate (log-spaced in time).");
    } else if (id == QLatin1String("payoff")) {
        f.title = QStringLiteral("Payoff matrix of the row player");
        f.kind = FigureKind::Heatmap;
        f.heatmap = fig::heatmap(d, "payoff");
        f.heatmap.colormap = QStringLiteral("viridis");
        f.heatmap.unit = QStringLiteral("payoff");
        f.heatmap.rowTitle = QStringLiteral("row strategy");
        f.heatmap.colTitle = QStringLiteral("column strategy");
        if (auto xs = d.vectors.find("x"); xs != d.vectors.end())
            f.heatmap.highlightRows = fig::support(xs->second, 0.01);
        if (auto ys = d.vectors.find("y"); ys != d.vectors.end())
            f.heatmap.highlightCols = fig::support(ys->second, 0.01);
        f.caption = QStringLiteral("Outlined: strategies holding at least 1% of the final mixed strategies.");
    } else {
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    }
    return f;
}

QString helpMarkdown() {
    QFile f(QStringLiteral(":/ftrl-potential-games/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("# ftrl-potential-games\n");
}

} // namespace pl::ftrl
