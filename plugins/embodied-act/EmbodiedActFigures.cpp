// The embodied-act panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json), and one builder per figure. Builders read the result only through pl::fig lookups.
#include "core/Numeric.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "simloop/EmbodiedActEngine.h"
#include "simloop/EmbodiedActKeys.h"

#include <algorithm>
#include <cmath>

namespace pl::embodied {

using gui::FigureKind;
using gui::FigureSpec;
using gui::MarkerSpec;
using gui::SeriesSpec;

namespace {

constexpr int kMaxMarkers = 8; ///< anomaly/action markers drawn on a chart (the log lists all)
constexpr int kLogRows = 22;   ///< agent-log rows drawn (the result holds up to 400)

QString task(const ResultDocument& d) {
    return QString::fromStdString(fig::param(d, keys::param::kTask));
}

QString agentName(const ResultDocument& d) {
    const std::string a = fig::param(d, keys::param::kAgent);
    return a == "runtime"    ? QStringLiteral("runtime agent")
           : a == "baseline" ? QStringLiteral("baseline")
                             : QStringLiteral("single run");
}

QString outputLabel(const QString& t) {
    if (t == QLatin1String("pid"))
        return QStringLiteral("plant output y");
    if (t == QLatin1String("robertson"))
        return QStringLiteral("y₂ · 10⁴ (intermediate species)");
    if (t == QLatin1String("energy"))
        return QStringLiteral("q₁ (first mass displacement)");
    return QStringLiteral("x (oscillator displacement)");
}

/// Markers at the perception (anomaly) and reflection (action) events of the agent log.
void eventMarkers(const ResultDocument& d, FigureSpec& f, bool anomalies, bool actions) {
    const Matrix& log = *fig::matrix(d, keys::matrix::kAgentLog);
    int drawn = 0;
    for (int64_t r = 0; r < log.rows && drawn < kMaxMarkers; ++r) {
        const int module = int(log.at(r, 2));
        const bool isAnomaly = module == 2 && int(log.at(r, 3)) != 0;
        const bool isAction = module == 3 && int(log.at(r, 4)) != 0;
        if ((isAnomaly && anomalies) || (isAction && actions)) {
            // "perception: overshoot: y − 1 = …" → "overshoot"; "reflection: abort, Ki ×0.6" → the action.
            QString text = QString::fromStdString(log.rowLabels[size_t(r)]).section(QLatin1Char(':'), 1);
            if (isAnomaly)
                text = text.section(QLatin1Char(':'), 0, 0);
            text = text.trimmed();
            if (text.size() > 22)
                text = text.left(21) + QStringLiteral("…");
            f.chart.markers << MarkerSpec{MarkerSpec::Axis::X, log.at(r, 0), text};
            ++drawn;
        }
    }
}

void trajectory(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("integrator steps spent in the episode (cumulative)");
    f.chart.yLabel = outputLabel(task(d));
    f.chart.series << fig::series(d, keys::series::kTimeline, QStringLiteral("output, one stretch per run"),
                                  SeriesSpec::Style::Line, 0);
    eventMarkers(d, f, true, false);
    const int attempts = int(fig::metric(d, keys::metric::kAttemptsShown));
    f.caption =
        QStringLiteral("The %1's first episode on the step axis: each run is a stretch, cut short where "
                       "the runtime monitors fired; markers name the anomaly and the action (first %2). "
                       "%3 runs, %4 of %5 budget steps.")
            .arg(agentName(d))
            .arg(kMaxMarkers)
            .arg(attempts)
            .arg(fig::metric(d, keys::metric::kStepsShown))
            .arg(fig::metric(d, keys::metric::kBudget));
}

void output(const ResultDocument& d, FigureSpec& f) {
    const QString t = task(d);
    f.chart.xLabel = t == QLatin1String("robertson") ? QStringLiteral("t (log scale)") : QStringLiteral("t");
    f.chart.yLabel = outputLabel(t);
    f.chart.logX = t == QLatin1String("robertson");
    SeriesSpec s =
        fig::series(d, keys::series::kOutput, QStringLiteral("shown run"), SeriesSpec::Style::Line, 0);
    if (f.chart.logX) { // t = 0 cannot be drawn on a log axis
        s.x.removeFirst();
        s.y.removeFirst();
    }
    if (const Series* data = fig::findSeries(d, keys::series::kData)) {
        SeriesSpec pts =
            fig::series(d, keys::series::kData, QStringLiteral("noisy data"), SeriesSpec::Style::Scatter, 1);
        f.chart.series << pts;
        (void)data;
    }
    f.chart.series << s;
    if (t == QLatin1String("pid")) {
        f.chart.markers << MarkerSpec{MarkerSpec::Axis::Y, 1.0, QStringLiteral("reference r = 1")};
        const double ts = fig::metric(d, keys::metric::kSettlingTime);
        if (std::isfinite(ts))
            f.chart.markers << MarkerSpec{MarkerSpec::Axis::X, ts, QStringLiteral("settled (2 %)")};
        f.caption =
            QStringLiteral("Unit-step response of the accepted (or last) run: overshoot %1, settling time "
                           "%2, IAE %3.")
                .arg(fig::metric(d, keys::metric::kOvershoot), 0, 'f', 3)
                .arg(std::isfinite(ts) ? QString::number(ts, 'f', 2) : QStringLiteral("not settled"))
                .arg(fig::metric(d, keys::metric::kIae), 0, 'f', 3);
    } else if (t == QLatin1String("identify")) {
        f.caption =
            QStringLiteral("Fitted oscillator (ω = %1, ζ = %2; truth 2, 0.1) against the noisy samples.")
                .arg(fig::metric(d, keys::metric::kOmegaFit), 0, 'f', 4)
                .arg(fig::metric(d, keys::metric::kZetaFit), 0, 'f', 4);
    } else if (t == QLatin1String("energy")) {
        f.caption =
            QStringLiteral("First mass of the FPUT chain; largest relative energy error of this run %1.")
                .arg(fig::metric(d, keys::metric::kEnergyDrift), 0, 'g', 3);
    } else {
        f.caption =
            QStringLiteral("Robertson's intermediate species on a log time axis up to t = %1 (mass error "
                           "%2).")
                .arg(fig::metric(d, keys::metric::kFinalTime), 0, 'g', 3)
                .arg(fig::metric(d, keys::metric::kMassError), 0, 'g', 2);
    }
}

void stepSize(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("integrator step (cumulative over the episode's runs)");
    f.chart.yLabel = QStringLiteral("accepted step size h (log scale)");
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kStepSize, QStringLiteral("h"), SeriesSpec::Style::Line,
                                  2);
    eventMarkers(d, f, false, true);
    f.caption =
        QStringLiteral("Every accepted step of the %1's first episode. A flat floor far below the horizon "
                       "is the explicit method held at its stability limit; after a switch to BDF h grows "
                       "by orders of magnitude.")
            .arg(agentName(d));
}

void agentLog(const ResultDocument& d, FigureSpec& f) {
    const Matrix& log = *fig::matrix(d, keys::matrix::kAgentLog);
    const int64_t rows = std::min<int64_t>(log.rows, kLogRows);
    // A swimlane table: one row per event, its module's column filled, the message as the row label.
    f.heatmap.rows = int(rows);
    f.heatmap.cols = 4;
    for (int64_t r = 0; r < rows; ++r) {
        const int module = int(log.at(r, 2));
        for (int c = 0; c < 4; ++c)
            f.heatmap.values << (c == module ? module + 0.5 : kNaN);
        f.heatmap.rowLabels << QStringLiteral("[%1] %2")
                                   .arg(log.at(r, 0))
                                   .arg(QString::fromStdString(log.rowLabels[size_t(r)])
                                            .section(QLatin1Char(':'), 1)
                                            .trimmed());
    }
    f.heatmap.colLabels << QStringLiteral("plan") << QStringLiteral("code") << QStringLiteral("perception")
                        << QStringLiteral("reflection");
    f.heatmap.rowTitle = QStringLiteral("[cumulative step] message");
    f.heatmap.colTitle = QStringLiteral("module");
    f.heatmap.colormap = QStringLiteral("okabe-ito");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 8;
    f.heatmap.unit = QStringLiteral("module");
    f.caption = QStringLiteral("The %1's log for its first episode (first %2 of %3 events; all of them, with "
                               "full messages, in the result's agent_log): plan → code → perception → "
                               "reflection, as in the paper's four-module loop.")
                    .arg(agentName(d))
                    .arg(rows)
                    .arg(log.rows);
}

void successWaste(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasMetric(d, keys::metric::kSuccessRuntime)) {
        f.message =
            QStringLiteral("agent = none runs once and compares no agents: set agent = runtime or baseline.");
        return;
    }
    const double budget = fig::metric(d, keys::metric::kBudget);
    f.chart.categories << QStringLiteral("success rate (%)") << QStringLiteral("wasted steps (% budget)");
    SeriesSpec rt, bl;
    rt.name = QStringLiteral("runtime perception");
    bl.name = QStringLiteral("execute-then-respond");
    rt.style = bl.style = SeriesSpec::Style::Bars;
    rt.colorIndex = 0;
    bl.colorIndex = 1;
    rt.x = bl.x = {0, 1};
    rt.y = {100 * fig::metric(d, keys::metric::kSuccessRuntime),
            100 * fig::metric(d, keys::metric::kMedianWastedRuntime) / budget};
    bl.y = {100 * fig::metric(d, keys::metric::kSuccessBaseline),
            100 * fig::metric(d, keys::metric::kMedianWastedBaseline) / budget};
    f.chart.series << rt << bl;
    f.chart.yLabel = QStringLiteral("percent");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 105;
    f.caption =
        QStringLiteral("Over %1 episodes at a budget of %2 steps: wasted steps are those spent in runs "
                       "later discarded (all steps of a failed episode).")
            .arg(QString::fromStdString(fig::param(d, keys::param::kEpisodes)))
            .arg(budget);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<EmbodiedActEngine>({
        {"trajectory", FigureKind::Chart, "Live trajectory with anomalies and actions", trajectory},
        {"output", FigureKind::Chart, "Output of the accepted run", output},
        {"step_size", FigureKind::Chart, "Step sizes", stepSize},
        {"agent_log", FigureKind::Heatmap, "Agent log", agentLog},
        {"success_waste", FigureKind::Chart, "Success and wasted steps", successWaste},
    });
    return def;
}

} // namespace pl::embodied
