// The prefetch-rag panel: its engine and figure table (ids, kinds and titles as in paper.json), and
// the figure builders. Pure functions of the result (thread-safe).
#include "prefetchrag/PrefetchRagEngine.h"
#include "prefetchrag/PrefetchRagKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <string>

namespace pl::prefetchragfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::MarkerSpec;
using gui::SeriesSpec;
namespace keys = prefetchrag::keys;

namespace {

const char* kNames[] = {"NoRAG", "sync", "fixed", "stale", "predictive", "oracle"};

std::string pk(const char* prefix, int i) {
    return std::string(prefix) + keys::kPolicyNames[i];
}

void gantt(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kGantt);
    f.heatmap.rowLabels.clear();
    for (const char* n : kNames)
        f.heatmap.rowLabels << QString::fromLatin1(n);
    const double w = fig::metric(d, keys::metric::kGanttBinMs);
    f.heatmap.colLabels.clear();
    for (int c = 0; c < f.heatmap.cols; ++c)
        f.heatmap.colLabels << QString::number(c * w, 'f', 0);
    f.heatmap.rowTitle = QStringLiteral("policy");
    f.heatmap.colTitle = QStringLiteral("time since the question (ms), first question");
    f.heatmap.colormap = QStringLiteral("okabe-ito");
    f.heatmap.fixedRange = true; // one Okabe-Ito colour per state code (8 colours over -0.5..7.5)
    f.heatmap.vMin = -0.5;
    f.heatmap.vMax = 7.5;
    f.heatmap.unit = QStringLiteral("state (0-4, see caption)");
    f.caption = QStringLiteral("One lane per policy for the first question: 0 done, 1 decoding, 2 decoding "
                               "while a retrieval is in flight (hidden), 3 stalled on a retrieval, 4 prefill "
                               "of prompt and inserted documents. Bins of %1 ms.")
                    .arg(w, 0, 'f', 1);
}

void entropy(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("position in the first answer (tokens)");
    f.chart.yLabel = QStringLiteral("entropy (nats) / probability");
    f.chart.series << fig::series(d, keys::series::kEntropy, QStringLiteral("entropy H_t"),
                                  SeriesSpec::Style::Line, 0);
    f.chart.series << fig::series(d, keys::series::kPredictorP, QStringLiteral("predictor p_t"),
                                  SeriesSpec::Style::Line, 1);
    auto points = [&](const char* key, const QString& name, double y, int colour) {
        SeriesSpec s;
        s.name = name;
        s.style = SeriesSpec::Style::Scatter;
        s.colorIndex = colour;
        for (double x : *fig::vector(d, key)) {
            s.x << x;
            s.y << y;
        }
        f.chart.series << s;
    };
    points(keys::vector::kEventsQ0, QStringLiteral("slot, document missing"), 0.0, 5);
    points(keys::vector::kFiresQ0, QStringLiteral("prefetch"), -0.1, 2);
    f.chart.markers << MarkerSpec{MarkerSpec::Axis::Y, std::atof(fig::param(d, keys::param::kThetaP).c_str()),
                                  QStringLiteral("theta_p")};
    f.caption =
        QStringLiteral("The generator's entropy rises at value slots; the predictor reads the cue words "
                       "8-16 tokens earlier and fires (p_t above theta_p) before the slot.");
}

void leadTimes(const ResultDocument& d, FigureSpec& f) {
    SeriesSpec s = fig::series(d, keys::series::kLeadHist, QStringLiteral("slots served by a prefetch"),
                               SeriesSpec::Style::Bars, 4);
    SeriesSpec pairs = s; // bins of two tokens (labelled by their first); the last holds 32 and more
    pairs.x.clear();
    pairs.y.clear();
    for (int i = 0; i < s.x.size(); i += 2) {
        const bool last = i + 1 >= s.x.size();
        f.chart.categories << QString::number(int(s.x[i]));
        pairs.x << double(pairs.x.size());
        pairs.y << s.y[i] + (last ? 0.0 : s.y[i + 1]);
    }
    s = pairs;
    f.chart.series << s;
    f.chart.xLabel = fig::xlabel(d, keys::series::kLeadHist) + QStringLiteral(", bins of 2");
    f.chart.yLabel = fig::ylabel(d, keys::series::kLeadHist);
    const double lead = fig::metricOr(d, keys::metric::kLeadMean, 0);
    f.caption =
        QStringLiteral(
            "Predictive policy, every question: how many tokens before its slot the prefetch "
            "that supplied the document fired (mean %1 tokens = %2 ms); the last bin holds 32 and more.")
            .arg(lead, 0, 'f', 1)
            .arg(lead * std::atof(fig::param(d, keys::param::kTokenMs).c_str()), 0, 'f', 0);
}

void pareto(const ResultDocument& d, FigureSpec& f) {
    for (int i = 0; i < 6; ++i) {
        SeriesSpec s;
        s.name = QString::fromLatin1(kNames[i]);
        s.style = SeriesSpec::Style::Scatter;
        s.colorIndex = i;
        s.x << fig::metric(d, pk(keys::metric::kLatencyMeanPrefix, i));
        s.y << 100 * fig::metric(d, pk(keys::metric::kSlotAccuracyPrefix, i));
        f.chart.series << s;
    }
    f.chart.xLabel = QStringLiteral("mean end-to-end latency (ms)");
    f.chart.yLabel = QStringLiteral("slot accuracy (%)");
    f.caption = QStringLiteral("Each policy on the same questions and latency draws: up and left is better. "
                               "Predictive cuts latency by %1 % vs sync.")
                    .arg(100 * fig::metric(d, keys::metric::kLatencyCut), 0, 'f', 1);
}

void ttft(const ResultDocument& d, FigureSpec& f) {
    std::vector<double> v;
    for (int i = 0; i < 6; ++i) {
        v.push_back(fig::metric(d, pk(keys::metric::kTtftMeanPrefix, i)));
        f.chart.categories << QString::fromLatin1(kNames[i]);
    }
    f.chart.series << fig::bars(v, QStringLiteral("mean TTFT"), 0);
    f.chart.xLabel = QStringLiteral("policy");
    f.chart.yLabel = QStringLiteral("time to first token (ms)");
    f.caption =
        QStringLiteral("Sync retrieves before the first token; the asynchronous policies start decoding "
                       "at once (TTFT cut %1 % for predictive).")
            .arg(100 * fig::metric(d, keys::metric::kTtftCut), 0, 'f', 1);
}

void triggers(const ResultDocument& d, FigureSpec& f) {
    f.chart.series << fig::series(d, keys::series::kPrecisionVsHorizon, QStringLiteral("precision"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.chart.series << fig::series(d, keys::series::kRecallVsHorizon, QStringLiteral("recall"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.chart.xLabel = fig::xlabel(d, keys::series::kPrecisionVsHorizon);
    f.chart.yLabel = QStringLiteral("share");
    f.chart.markers << MarkerSpec{MarkerSpec::Axis::X,
                                  std::atof(fig::param(d, keys::param::kHorizonB).c_str()),
                                  QStringLiteral("trained horizon b")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.05;
    f.caption =
        QStringLiteral("A trigger (p_t > theta_p) is correct when a slot with a missing document follows "
                       "within [a, b] tokens; recall counts such slots with a trigger in that window.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<prefetchrag::PrefetchRagEngine>({
        {"gantt", FigureKind::Heatmap, "Gantt: a lane per policy", gantt},
        {"entropy", FigureKind::Chart, "Entropy, p_t and events", entropy},
        {"lead_times", FigureKind::Chart, "Lead times", leadTimes},
        {"pareto", FigureKind::Chart, "Latency vs slot accuracy", pareto},
        {"ttft", FigureKind::Chart, "Time to first token", ttft},
        {"triggers", FigureKind::Chart, "Trigger precision/recall vs horizon", triggers},
    });
    return def;
}

} // namespace pl::prefetchragfig
