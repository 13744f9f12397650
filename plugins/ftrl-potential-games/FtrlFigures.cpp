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
        if (fig::hasSeries(d, "steps_vs_n_best_response"))
            f.chart.series << fig::series(d, "steps_vs_n_best_response", QStringLiteral("alternating best response"),
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
        f.chart.xLabel = labelOr(fig::xlabel(d, "trajectory_xy"), "row player") +
                         QStringLiteral(": 1 − E[index]/(n−1)");
        f.chart.yLabel = labelOr(fig::ylabel(d, "trajectory_xy"), "column player") +
                         QStringLiteral(": 1 − E[index]/(n−1)");
        f.chart.series << fig::series(d, "trajectory_xy", QStringLiteral("iterate"), SeriesSpec::Style::LineWithPoints, 4);
        f.chart.fixedYRange = true;
        f.chart.yMin = -0.02;
        f.chart.yMax = 1.02;
        f.caption = QStringLiteral("Each point is a recorded iterate (log-spaced in time). Each axis maps a mixed "
                                   "strategy to 1 − E[index]/(n−1): 1 is the first strategy, 0 the last; for 2×2 "
                                   "games this is the probability of the first strategy.");
    } else if (id == QLatin1String("periods")) {
        f.title = QStringLiteral("Fictitious play: length of each period");
        f.chart.xLabel = QStringLiteral("period (profile on the improvement path)");
        f.chart.yLabel = QStringLiteral("period length (plays)");
        f.chart.logY = true;
        f.chart.series << fig::series(d, "fp_period_length", QStringLiteral("exact fictitious play"),
                                      SeriesSpec::Style::LineWithPoints, 0);
        f.caption = QStringLiteral("Each period has to outlast the whole history before it: the lengths grow "
                                   "geometrically or faster along the improvement path of the snake.");
    } else if (id == QLatin1String("eta_sweep")) {
        f.title = QStringLiteral("Entropic FTRL: steps to the equilibrium vs learning rate");
        f.chart.xLabel = QStringLiteral("learning rate η (1/payoff)");
        f.chart.yLabel = QStringLiteral("steps until ≥ 0.99 mass on (n, n)");
        f.chart.logX = true;
        f.chart.logY = true;
        f.chart.series << fig::series(d, "ftrl_steps_vs_eta_n3", QStringLiteral("n = 3"), SeriesSpec::Style::LineWithPoints, 0);
        f.chart.series << fig::series(d, "ftrl_steps_vs_eta_n4", QStringLiteral("n = 4"), SeriesSpec::Style::LineWithPoints, 1);
        f.caption = QStringLiteral("The paper's lower bound holds for every learning rate on its construction. On "
                                   "our snake small η mixes enough to escape quickly: compare the curves at small "
                                   "and large η.");
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
