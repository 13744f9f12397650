// The specexit-decoding panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "tinylm/ReasoningTraces.h"
#include "tinylm/SpecExitEngine.h"
#include "tinylm/SpecExitKeys.h"

#include <algorithm>

namespace pl::specexitfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::MarkerSpec;
using gui::SeriesSpec;
namespace keys = tinylm::specexit::keys;

namespace {

const char* kMethodNames[] = {"AR", "SD", "probe exit", "SD + probe", "SpecExit"};

std::string m(const char* prefix, const char* method) {
    return std::string(prefix) + method;
}

void tokenStream(const ResultDocument& d, FigureSpec& f) {
    const std::vector<int64_t>* tok = fig::labels(d, keys::label::kStreamTokens);
    const std::vector<int64_t>* src = fig::labels(d, keys::label::kStreamSource);
    const std::vector<int64_t>* rej = fig::labels(d, keys::label::kStreamRejected);
    if (!tok || !src || !rej || tok->empty())
        return;
    const int n = int(tok->size());
    f.heatmap.rows = 2;
    f.heatmap.cols = n;
    for (int i = 0; i < n; ++i)
        f.heatmap.values << double((*src)[size_t(i)]);
    for (int i = 0; i < n; ++i)
        f.heatmap.values << double((*rej)[size_t(i)]);
    f.heatmap.rowLabels = {QStringLiteral("source: 0 target, 1 draft, 2 exit"),
                           QStringLiteral("drafts rejected")};
    for (int i = 0; i < n; ++i)
        f.heatmap.colLabels << QString::fromStdString(tinylm::traces::tokenName(int((*tok)[size_t(i)])));
    f.heatmap.rowTitle = QStringLiteral("stream");
    f.heatmap.colTitle = QStringLiteral("generated token, first problem");
    f.heatmap.colormap = QStringLiteral("viridis");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = std::max(2.0, double(std::atoi(fig::param(d, keys::param::kGamma).c_str())));
    f.heatmap.unit = QStringLiteral("source code / count");
    const double at = fig::metricOr(d, keys::metric::kStreamExitAt, -1);
    f.caption =
        at >= 0 ? QStringLiteral("SpecExit on the first problem: tokens from accepted drafts (1), from the "
                                 "target's correction or bonus (0), and the forced exit `A ans` (2) from "
                                 "token %1 on; second row: drafts rejected just before each target token.")
                      .arg(int(at))
                : QStringLiteral("Speculative decoding of the first problem (no exit): accepted drafts (1) "
                                 "and target tokens (0); second row: drafts rejected before each.");
}

void signalChart(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("generated tokens (0 = end of the prompt)");
    f.chart.yLabel = QStringLiteral("signal (0..1; remaining as a share of its maximum)");
    f.chart.series << fig::series(d, keys::series::kConf, QStringLiteral("confidence"),
                                  SeriesSpec::Style::Line, 0);
    f.chart.series << fig::series(d, keys::series::kEwma, QStringLiteral("EWMA of confidence"),
                                  SeriesSpec::Style::Line, 1);
    f.chart.series << fig::series(d, keys::series::kProg, QStringLiteral("progress"), SeriesSpec::Style::Line,
                                  2);
    SeriesSpec rem = fig::series(d, keys::series::kRem, QStringLiteral("remaining length / max"),
                                 SeriesSpec::Style::Line, 3);
    double mx = 1e-12;
    for (double v : rem.y)
        mx = std::max(mx, v);
    for (double& v : rem.y)
        v /= mx;
    rem.dashed = true;
    f.chart.series << rem;
    if (const std::vector<double>* b = fig::vector(d, keys::vector::kBoundaries)) {
        SeriesSpec pts;
        pts.name = QStringLiteral("boundary `;`");
        pts.style = SeriesSpec::Style::Scatter;
        pts.colorIndex = 5;
        for (double x : *b) {
            pts.x << x;
            pts.y << 0.0;
        }
        f.chart.series << pts;
    }
    const double theta = std::atof(fig::param(d, keys::param::kThetaExit).c_str());
    f.chart.markers << MarkerSpec{MarkerSpec::Axis::Y, theta, QStringLiteral("theta_exit")};
    if (fig::hasMetric(d, keys::metric::kStreamDetermined))
        f.chart.markers << MarkerSpec{MarkerSpec::Axis::X,
                                      fig::metricOr(d, keys::metric::kStreamDetermined, 0),
                                      QStringLiteral("answer determined")};
    f.chart.fixedYRange = true;
    f.chart.yMin = -0.05;
    f.chart.yMax = 1.05;
    f.caption =
        QStringLiteral("The draft's signals along the first problem's SD output (teacher-forced, true target "
                       "features). SpecExit exits at the first boundary where the EWMA exceeds theta_exit.");
}

void acceptLengths(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("drafts accepted per verification");
    f.chart.yLabel = QStringLiteral("verifications");
    SeriesSpec s =
        fig::series(d, keys::series::kAcceptHist, QStringLiteral("SD"), SeriesSpec::Style::Bars, 0);
    for (double x : s.x)
        f.chart.categories << QString::number(int(x));
    for (int i = 0; i < s.x.size(); ++i)
        s.x[i] = i;
    f.chart.series << s;
    f.caption = QStringLiteral("Speculative decoding (gamma = %1): acceptance rate %2 %.")
                    .arg(QString::fromStdString(fig::param(d, keys::param::kGamma)))
                    .arg(100 * fig::metric(d, keys::metric::kAcceptanceRate), 0, 'f', 1);
}

void methodBars(const ResultDocument& d, FigureSpec& f, const char* prefix, const QString& y,
                const QString& what) {
    std::vector<double> v;
    for (int i = 0; i < 5; ++i) {
        const std::string key = m(prefix, keys::kMethods[i]);
        if (i < 2 || fig::hasMetric(d, key)) {
            v.push_back(i < 2 ? fig::metric(d, key) : fig::metricOr(d, key, 0));
            f.chart.categories << QString::fromLatin1(kMethodNames[i]);
        }
    }
    f.chart.series << fig::bars(v, what, 0);
    f.chart.xLabel = QStringLiteral("method");
    f.chart.yLabel = y;
}

void lengthBars(const ResultDocument& d, FigureSpec& f) {
    methodBars(d, f, keys::metric::kMeanLengthPrefix, QStringLiteral("mean generated length (tokens)"),
               QStringLiteral("mean length"));
    f.caption = fig::hasMetric(d, keys::metric::kLengthReductionVsSd)
                    ? QStringLiteral("SpecExit is %1 % shorter than SD (an oracle exit: %2 %).")
                          .arg(100 * fig::metricOr(d, keys::metric::kLengthReductionVsSd, 0), 0, 'f', 1)
                          .arg(100 * fig::metricOr(d, keys::metric::kLengthReductionOracle, 0), 0, 'f', 1)
                    : QStringLiteral("Exit off: AR and SD only.");
}

void accuracyBars(const ResultDocument& d, FigureSpec& f) {
    std::vector<double> v;
    for (int i = 0; i < 5; ++i) {
        const std::string key = m(keys::metric::kAccuracyPrefix, keys::kMethods[i]);
        if (fig::hasMetric(d, key)) {
            v.push_back(100 * fig::metricOr(d, key, 0));
            f.chart.categories << QString::fromLatin1(kMethodNames[i]);
        }
    }
    f.chart.series << fig::bars(v, QStringLiteral("accuracy"), 1);
    f.chart.xLabel = QStringLiteral("method");
    f.chart.yLabel = QStringLiteral("accuracy (% correct answers)");
    f.caption = v.empty() ? QStringLiteral("No ground truth (a user target).")
                          : QStringLiteral("Share of problems whose answer after `A` equals the true sum.");
}

void latencyBars(const ResultDocument& d, FigureSpec& f) {
    methodBars(d, f, keys::metric::kLatencyPrefix, QStringLiteral("modelled latency (target-call units)"),
               QStringLiteral("modelled latency"));
    f.caption =
        QStringLiteral("Cost model: a target call 1, a verification 1 + kappa gamma (kappa %1), a draft step "
                       "%2. Wall times are in the run's notes.")
            .arg(QString::fromStdString(fig::param(d, keys::param::kKappa)))
            .arg(QString::fromStdString(fig::param(d, keys::param::kCostDraft)));
}

void pareto(const ResultDocument& d, FigureSpec& f, bool latency) {
    f.chart.xLabel = QStringLiteral("length reduction vs SD (share)");
    f.chart.yLabel =
        latency ? QStringLiteral("modelled latency (target-call units)") : QStringLiteral("accuracy");
    const char* ms[] = {"probe", "sdprobe", "specexit"};
    const char* names[] = {"probe exit", "SD + probe", "SpecExit"};
    for (int i = 0; i < 3; ++i) {
        const std::string key =
            m(latency ? keys::series::kLatencyPrefix : keys::series::kParetoPrefix, ms[i]);
        if (fig::hasSeries(d, key))
            f.chart.series << fig::series(d, key, QString::fromLatin1(names[i]),
                                          SeriesSpec::Style::LineWithPoints, i + 2);
    }
    f.caption =
        f.chart.series.isEmpty()
            ? QStringLiteral("No sweep (exit off, a user target, or sweep = false).")
            : QStringLiteral("theta_exit from 0.5 to 0.99 (one point each); higher theta exits later (less "
                             "reduction).");
}

void paretoAccuracy(const ResultDocument& d, FigureSpec& f) {
    pareto(d, f, false);
}
void paretoLatency(const ResultDocument& d, FigureSpec& f) {
    pareto(d, f, true);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<tinylm::SpecExitEngine>({
        {"token_stream", FigureKind::Heatmap, "Token stream", tokenStream},
        {"signals", FigureKind::Chart, "Signals vs position", signalChart},
        {"accept_lengths", FigureKind::Chart, "Accepted lengths", acceptLengths},
        {"method_length", FigureKind::Chart, "Length per method", lengthBars},
        {"method_accuracy", FigureKind::Chart, "Accuracy per method", accuracyBars},
        {"method_latency", FigureKind::Chart, "Modelled latency per method", latencyBars},
        {"theta_pareto", FigureKind::Chart, "theta_exit Pareto: accuracy", paretoAccuracy},
        {"theta_latency", FigureKind::Chart, "theta_exit sweep: latency", paretoLatency},
    });
    return def;
}

} // namespace pl::specexitfig
