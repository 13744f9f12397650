// The dwp-cim-robustness panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "robusttrain/DwpEngine.h"
#include "robusttrain/DwpKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::dwpfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = robusttrain::dwp::keys;

namespace {

struct MethodName {
    const char* key;
    const char* name;
};
constexpr MethodName kMethods[] = {{"standard", "standard"},
                                   {"noise_injection", "noise injection"},
                                   {"r_average", "R-average"},
                                   {"dwp", "DWP"},
                                   {"user", "user MLP"}};

bool present(const ResultDocument& d, const char* m) {
    return fig::hasMetric(d, keys::metric::kAccCleanPrefix + std::string(m));
}

void accVsSigma(const ResultDocument& d, FigureSpec& f) {
    f.chart.yLabel = QStringLiteral("test accuracy (mean over draws)");
    int colour = 0;
    for (const auto& m : kMethods) {
        if (!present(d, m.key))
            continue;
        const std::string k = m.key;
        SeriesSpec mean = fig::series(d, keys::series::kAccVsSigmaPrefix + k, QString::fromLatin1(m.name),
                                      SeriesSpec::Style::LineWithPoints, colour);
        const Series* sd = fig::seriesData(d, keys::series::kAccSdVsSigmaPrefix + k);
        f.chart.xLabel = fig::xlabel(d, keys::series::kAccVsSigmaPrefix + k);
        if (sd && sd->y.size() == size_t(mean.y.size()))
            for (int sign : {1, -1}) {
                SeriesSpec band;
                // unnamed: the +-1 sd lines stay out of the legend
                band.x = mean.x;
                for (int i = 0; i < mean.y.size(); ++i)
                    band.y << mean.y[i] + sign * sd->y[size_t(i)];
                band.dashed = true;
                band.lineWidth = 0.8;
                band.colorIndex = colour;
                f.chart.series << band;
            }
        f.chart.series << mean;
        ++colour;
    }
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, 0.6, QStringLiteral("claim: sigma = 0.6")};
    f.caption =
        QStringLiteral("Dashed: +-1 sd over draws. Each weight matrix perturbed once per draw (biases "
                       "digital). At sigma = 0.6: "
                       "standard %1, DWP %2.")
            .arg(fig::metricOr(d, std::string(keys::metric::kAccAtClaimPrefix) + "standard", NAN), 0, 'f', 3)
            .arg(fig::metricOr(d, std::string(keys::metric::kAccAtClaimPrefix) + "dwp", NAN), 0, 'f', 3);
}

void accVsTime(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("time after programming (s, log scale)");
    f.chart.yLabel = QStringLiteral("test accuracy under PCM");
    f.chart.logX = true;
    const bool on = fig::param(d, keys::param::kDriftCompensation) == "on";
    int colour = 0;
    for (const auto& m : kMethods) {
        if (!present(d, m.key))
            continue;
        const std::string k = m.key;
        SeriesSpec a =
            fig::series(d, keys::series::kAccVsTimePrefix + k,
                        QStringLiteral("%1, %2").arg(QString::fromLatin1(m.name), on ? "comp." : "raw"),
                        SeriesSpec::Style::LineWithPoints, colour);
        SeriesSpec b =
            fig::series(d, keys::series::kAccVsTimeOtherPrefix + k,
                        QStringLiteral("%1, %2").arg(QString::fromLatin1(m.name), on ? "raw" : "comp."),
                        SeriesSpec::Style::LineWithPoints, colour);
        b.dashed = true;
        b.lineWidth = 1.2;
        f.chart.series << a << b;
        ++colour;
    }
    f.caption =
        QStringLiteral("aihwkit's PCM statistics: programming noise, drift (t/t0)^-nu, read noise; solid = "
                       "drift compensation %1. DWP's range over the year: %2.")
            .arg(on ? "on" : "off")
            .arg(fig::metricOr(d, std::string(keys::metric::kDriftRangePrefix) + "dwp", NAN), 0, 'f', 3);
}

void disagreement(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::findMatrix(d, keys::matrix::kDisagreement);
    if (!m) {
        f.message = QStringLiteral("No DWP training in this run (a user's MLP, or R = 1).");
        return;
    }
    f.heatmap = fig::heatmap(*m);
    f.heatmap.rowTitle = QStringLiteral("epoch");
    f.heatmap.colTitle = QStringLiteral("disagreement D_i (1 - top vote share of R draws)");
    f.heatmap.unit = QStringLiteral("fraction of training rows");
    f.caption =
        QStringLiteral("DWP training: how often the R noisy realisations disagree on a row, per epoch.");
}

void decisions(const ResultDocument& d, FigureSpec& f, const char* m) {
    const Matrix* x = fig::findMatrix(d, keys::matrix::kDecisionsPrefix + std::string(m));
    if (!x)
        x = fig::findMatrix(d, std::string(keys::matrix::kDecisionsPrefix) + "user");
    if (!x) {
        f.message = QStringLiteral("No decisions recorded in this run.");
        return;
    }
    f.heatmap = fig::heatmap(*x);
    f.heatmap.colormap = QStringLiteral("okabe-ito");
    f.heatmap.rowTitle = QStringLiteral("weight draw (sigma = 0.6)");
    f.heatmap.colTitle = QStringLiteral("test row");
    f.heatmap.unit = QStringLiteral("predicted class");
    f.caption = QStringLiteral(
        "Predicted class of the first test rows under eight multiplicative weight draws: "
        "the first row is the true label; columns that change colour are rows the draws disagree on.");
}

void decisionsStandard(const ResultDocument& d, FigureSpec& f) {
    decisions(d, f, "standard");
}
void decisionsDwp(const ResultDocument& d, FigureSpec& f) {
    decisions(d, f, "dwp");
}

void trainingLoss(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("epoch");
    f.chart.yLabel = QStringLiteral("mean training loss (weighted cross-entropy)");
    int colour = 0;
    for (const auto& m : kMethods) {
        const std::string k = keys::series::kTrainLossPrefix + std::string(m.key);
        if (fig::hasSeries(d, k))
            f.chart.series << fig::series(d, k, QString::fromLatin1(m.name), SeriesSpec::Style::Line, colour);
        ++colour;
    }
    if (f.chart.series.isEmpty())
        f.message = QStringLiteral("A user's MLP: no training in this run.");
    else
        f.caption = QStringLiteral("Loss of each method on its own (noisy) forward passes.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<robusttrain::DwpEngine>({
        {"acc_vs_sigma", FigureKind::Chart, "Accuracy vs weight noise", accVsSigma},
        {"acc_vs_time", FigureKind::Chart, "Accuracy vs PCM drift time", accVsTime},
        {"disagreement", FigureKind::Heatmap, "Disagreement histograms", disagreement},
        {"decisions_standard", FigureKind::Heatmap, "Decisions under draws: standard", decisionsStandard},
        {"decisions_dwp", FigureKind::Heatmap, "Decisions under draws: DWP", decisionsDwp},
        {"training_loss", FigureKind::Chart, "Training loss", trainingLoss},
    });
    return def;
}

} // namespace pl::dwpfig
