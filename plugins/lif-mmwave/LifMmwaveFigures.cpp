// The lif-mmwave panel definition: its engine and figure table (ids, kinds and titles exactly as in
// paper.json), and one builder per figure. Builders only place result data (read through pl::fig
// lookups with the engine's key constants); every number is computed by the engine.
#include "core/Numeric.h"
#include "lifsnn/LifMmwaveEngine.h"
#include "lifsnn/LifMmwaveKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <cmath>

namespace pl::lifsnn {

using gui::FigureKind;
using gui::FigureSpec;
using gui::MarkerSpec;
using gui::SeriesSpec;

namespace {
namespace M = keys::metric;
namespace S = keys::series;

QString num(double v, int digits = 3) {
    return std::isfinite(v) ? QString::number(v, 'f', digits) : QStringLiteral("n/a");
}

MarkerSpec marker(MarkerSpec::Axis axis, double value, const QString& label) {
    MarkerSpec m;
    m.axis = axis;
    m.value = value;
    m.label = label;
    return m;
}

void bode(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("ω (rad/sample)");
    f.chart.yLabel = QStringLiteral("relative power (scaled to the largest)");
    const int classes = int(fig::metric(d, M::kClasses));
    for (int c = 0; c < classes; ++c) {
        SeriesSpec s = fig::series(d, std::string(S::kClassSpectrumPrefix) + std::to_string(c),
                                   QStringLiteral("class %1").arg(c), SeriesSpec::Style::Line, 2 + c % 6);
        s.lineWidth = 1.0;
        f.chart.series << s;
    }
    SeriesSpec fisher =
        fig::series(d, S::kFisherCurve, QStringLiteral("Fisher ratio"), SeriesSpec::Style::LineWithPoints, 1);
    fisher.dashed = true;
    SeriesSpec lif =
        fig::series(d, S::kLifResponse, QStringLiteral("LIF filter"), SeriesSpec::Style::Line, 0);
    lif.lineWidth = 3.0;
    f.chart.series << fisher << lif;
    f.chart.fixedXRange = true;
    f.chart.xMin = 0;
    f.chart.xMax = M_PI;
    f.chart.markers << marker(MarkerSpec::Axis::X, fig::metric(d, M::kOmegaD), QStringLiteral("ω_d"))
                    << marker(MarkerSpec::Axis::Y, 0.5, QStringLiteral("half power"));
    f.caption =
        QStringLiteral("The matching picture: class-mean Welch spectra (thin), their Fisher ratio (dashed) "
                       "and the LIF filter at β = %1 (thick). ω_d = %2 rad/sample holds the band quantile "
                       "of the Fisher-weighted energy; β* = %3 puts the cut-off (%4 rad/sample) there.")
            .arg(num(fig::metric(d, M::kBetaUsed)), num(fig::metric(d, M::kOmegaD)),
                 num(fig::metric(d, M::kBetaStar)), num(fig::metric(d, M::kCutoffOmega)));
}

void accVsBeta(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("β (LIF decay)");
    f.chart.yLabel = QStringLiteral("SNN test accuracy");
    if (!fig::hasSeries(d, S::kAccVsBeta)) {
        f.caption = QStringLiteral("Turn on \"sweep beta\" to train the SNN at every β of the grid.");
        return;
    }
    f.chart.series << fig::series(d, S::kAccVsBeta, QStringLiteral("SNN, fixed β"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    const double star = fig::metric(d, M::kBetaStar);
    f.chart.markers << marker(MarkerSpec::Axis::X, std::clamp(star, 0.5, 0.99),
                              QStringLiteral("β* (clipped)"))
                    << marker(MarkerSpec::Axis::Y, fig::metric(d, M::kAccAnnMlp), QStringLiteral("raw MLP"));
    f.caption = QStringLiteral("Each point is an SNN trained with that fixed β (same data, seed, epochs). "
                               "β* = %1 from the data's band; best grid β = %2.")
                    .arg(num(star), num(fig::metricOr(d, M::kBestGridBeta, kNaN), 2));
}

void raster(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kRaster);
    f.heatmap.rowTitle = QStringLiteral("hidden LIF neuron");
    f.heatmap.colTitle = QStringLiteral("time step");
    f.heatmap.colormap = QStringLiteral("gray");
    f.heatmap.unit = QStringLiteral("spike");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.caption = QStringLiteral("Spikes of the trained SNN for test sequence %1 (white = spike). Mean firing "
                               "probability per neuron and step over the test set: %2.")
                    .arg(fig::metric(d, M::kShownSample))
                    .arg(num(fig::metric(d, M::kSpikeRate)));
}

void membrane(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, S::kMembrane);
    f.chart.yLabel = fig::ylabel(d, S::kMembrane);
    f.chart.series << fig::series(d, S::kMembrane, QStringLiteral("u_t, most active neuron"),
                                  SeriesSpec::Style::Line, 0);
    f.chart.markers << marker(MarkerSpec::Axis::Y, 1.0, QStringLiteral("threshold"));
    f.caption = QStringLiteral(
        "Membrane potential of the most active hidden neuron for the shown test sequence: "
        "it integrates with decay β, fires on crossing 1 and drops by 1 (reset by subtraction).");
}

void accuracy(const ResultDocument& d, FigureSpec& f) {
    f.chart.yLabel = QStringLiteral("test accuracy");
    f.chart.categories = {QStringLiteral("SNN (β used)"), QStringLiteral("raw MLP"),
                          QStringLiteral("1-D CNN"), QStringLiteral("low-passed MLP")};
    f.chart.series << fig::bars({fig::metric(d, M::kAccSnn), fig::metric(d, M::kAccAnnMlp),
                                 fig::metric(d, M::kAccAnnCnn), fig::metric(d, M::kAccAnnLowpass)},
                                QStringLiteral("this data"), 0);
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral("Test split (the last rows). Chance = 1/classes = %1.")
                    .arg(num(1.0 / std::max(1.0, fig::metric(d, M::kClasses))));
}

void bandSwitch(const ResultDocument& d, FigureSpec& f) {
    f.chart.yLabel = QStringLiteral("test accuracy");
    if (!fig::hasMetric(d, M::kAccSnnHigh)) {
        f.caption = QStringLiteral("Needs the generator, β = star and the band-switch check.");
        return;
    }
    f.chart.categories = {QStringLiteral("low band"), QStringLiteral("high band")};
    f.chart.series << fig::bars({fig::metric(d, M::kAccSnnLow), fig::metric(d, M::kAccSnnHigh)},
                                QStringLiteral("SNN (β*)"), 0)
                   << fig::bars({fig::metric(d, M::kAccAnnMlpLow), fig::metric(d, M::kAccAnnMlpHigh)},
                                QStringLiteral("raw MLP"), 1);
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("The same task with the spectrum mirrored (f → 0.5 − f): the raw MLP cannot tell the "
                       "difference, the LIF low-pass can. β* on the high band: %1 (clipped to 0.5).")
            .arg(num(fig::metric(d, M::kBetaStarHigh)));
}

void energy(const ResultDocument& d, FigureSpec& f) {
    f.chart.yLabel = QStringLiteral("energy per sequence (pJ, op counts)");
    f.chart.categories = {QStringLiteral("SNN"), QStringLiteral("raw MLP")};
    f.chart.series << fig::bars({fig::metric(d, M::kEnergySnnPj), fig::metric(d, M::kEnergyAnnPj)},
                                QStringLiteral("45 nm estimate"), 0);
    f.caption = QStringLiteral(
                    "E_MAC = 4.6 pJ, E_AC = 0.9 pJ: the SNN's input layer multiplies analogue frames "
                    "(MACs), its spikes only add (ACs). Ratio MLP / SNN = %1 (paper: 3.64 on its networks).")
                    .arg(num(fig::metric(d, M::kEnergyRatio), 2));
}

void trainingLoss(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, S::kTrainLossSnn);
    f.chart.yLabel = fig::ylabel(d, S::kTrainLossSnn);
    f.chart.series << fig::series(d, S::kTrainLossSnn, QStringLiteral("SNN (surrogate BPTT)"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.caption = QStringLiteral("Mean training cross-entropy per epoch of the SNN at β = %1.")
                    .arg(num(fig::metric(d, M::kBetaUsed)));
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<LifMmwaveEngine>({
        {"bode", FigureKind::Chart, "LIF filter over class spectra and Fisher ratio", bode},
        {"acc_vs_beta", FigureKind::Chart, "Accuracy vs beta", accVsBeta},
        {"spike_raster", FigureKind::Heatmap, "Spike raster", raster},
        {"membrane", FigureKind::Chart, "Membrane potential", membrane},
        {"accuracy", FigureKind::Chart, "SNN vs ANN baselines", accuracy},
        {"band_switch", FigureKind::Chart, "SNN vs MLP: low vs high band", bandSwitch},
        {"energy", FigureKind::Chart, "Energy from op counts", energy},
        {"training_loss", FigureKind::Chart, "SNN training loss", trainingLoss},
    });
    return def;
}

} // namespace pl::lifsnn
