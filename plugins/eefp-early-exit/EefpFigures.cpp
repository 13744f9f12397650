// The eefp-early-exit panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "smallnets/EarlyExitEngine.h"
#include "smallnets/EarlyExitKeys.h"

#include <cmath>

namespace pl::eefpfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = smallnets::eefp::keys;

namespace {

int exitCount(const ResultDocument& d) {
    const std::vector<double>* a = fig::vector(d, keys::vector::kAccuracy);
    return a ? int(a->size()) : 0;
}

void accVsFlops(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("mean FLOPs / last exit's FLOPs");
    f.chart.yLabel = QStringLiteral("accuracy (evaluation rows)");
    const char* names[] = {"raw confidence", "temperature scaled", "EEFP exit models", "oracle ranking"};
    const char* ids[] = {"raw", "ts", "eefp", "oracle"};
    for (int p = 0; p < 4; ++p) {
        SeriesSpec s = fig::series(d, keys::series::kAccVsFlopsPrefix + std::string(ids[p]),
                                   QString::fromLatin1(names[p]), SeriesSpec::Style::Line, p);
        s.dashed = p == 3;
        s.lineWidth = 1.5;
        f.chart.series << s;
    }
    const double budget = std::atof(fig::param(d, keys::param::kBudget).c_str());
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, budget, QStringLiteral("budget")};
    f.caption =
        QStringLiteral("Threshold sweep: exit at the first exit whose score reaches t. Accuracy at the "
                       "budget: raw %1, temperature %2, EEFP %3.")
            .arg(fig::metric(d, std::string(keys::metric::kAccAtBudgetPrefix) + "raw"), 0, 'f', 3)
            .arg(fig::metric(d, std::string(keys::metric::kAccAtBudgetPrefix) + "ts"), 0, 'f', 3)
            .arg(fig::metric(d, std::string(keys::metric::kAccAtBudgetPrefix) + "eefp"), 0, 'f', 3);
}

void exitTable(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kExitTable);
    f.heatmap.annotateCells = true;
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.unit = QStringLiteral("value (0..1)");
    f.heatmap.rowTitle = QStringLiteral("exit");
    f.heatmap.colTitle = QStringLiteral("metric");
    f.caption =
        QStringLiteral("Per exit on the evaluation rows: accuracy, ECE of the max-prob before and after "
                       "temperature scaling, failure-prediction AUROC and EEFP (no EEFP at the last exit). "
                       "FLOPs-weighted EEFP = %1.")
            .arg(fig::metric(d, keys::metric::kEefp), 0, 'f', 3);
}

void scatter(const ResultDocument& d, FigureSpec& f, bool eefp) {
    const std::vector<double>* x =
        fig::vector(d, eefp ? keys::vector::kPerturbEefp : keys::vector::kPerturbEce);
    const std::vector<double>* y = fig::vector(d, keys::vector::kPerturbArea);
    f.chart.xLabel = eefp ? QStringLiteral("EEFP (FLOPs-weighted)") : QStringLiteral("ECE (mean over exits)");
    f.chart.yLabel = QStringLiteral("area under accuracy-FLOPs curve (normalised)");
    if (!x || !y)
        return;
    SeriesSpec s;
    s.name = QStringLiteral("perturbed confidence");
    s.style = SeriesSpec::Style::Scatter;
    s.colorIndex = eefp ? 2 : 0;
    for (size_t i = 0; i < x->size() && i < y->size(); ++i) {
        s.x << (*x)[i];
        s.y << (*y)[i];
    }
    f.chart.series << s;
    f.caption =
        eefp ? QStringLiteral("Each point: one perturbed confidence (1 - l) p^g + l u. Spearman rho = %1.")
                   .arg(fig::metric(d, keys::metric::kSpearmanEefpArea), 0, 'f', 3)
             : QStringLiteral("Same confidences against their ECE. Spearman rho(-ECE, area) = %1.")
                   .arg(fig::metric(d, keys::metric::kSpearmanEceArea), 0, 'f', 3);
}

void eceScatter(const ResultDocument& d, FigureSpec& f) {
    scatter(d, f, false);
}
void eefpScatter(const ResultDocument& d, FigureSpec& f) {
    scatter(d, f, true);
}

void reliabilityFig(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("mean max-prob in bin");
    f.chart.yLabel = QStringLiteral("accuracy in bin");
    SeriesSpec diag;
    diag.name = QStringLiteral("perfect calibration");
    diag.x = {0.0, 1.0};
    diag.y = {0.0, 1.0};
    diag.dashed = true;
    diag.lineWidth = 1.0;
    diag.colorIndex = 7;
    f.chart.series << diag;
    const int K = exitCount(d);
    for (int k = 1; k <= K; ++k)
        f.chart.series << fig::series(d, keys::series::kReliabilityPrefix + std::to_string(k),
                                      QStringLiteral("exit %1").arg(k), SeriesSpec::Style::LineWithPoints,
                                      k - 1);
    f.chart.fixedXRange = f.chart.fixedYRange = true;
    f.chart.xMin = f.chart.yMin = 0;
    f.chart.xMax = f.chart.yMax = 1;
    f.caption =
        QStringLiteral("Reliability diagrams of the raw max-prob per exit (empty bins left out); below the "
                       "diagonal = over-confident.");
}

void reliabilityTsFig(const ResultDocument& d, FigureSpec& f) {
    reliabilityFig(d, f);
    f.chart.series.resize(1);
    const int K = exitCount(d);
    for (int k = 1; k <= K; ++k)
        f.chart.series << fig::series(d, keys::series::kReliabilityTsPrefix + std::to_string(k),
                                      QStringLiteral("exit %1").arg(k), SeriesSpec::Style::LineWithPoints,
                                      k - 1);
    f.caption = QStringLiteral("The same after temperature scaling fitted per exit on the calibration rows.");
}

void trainingLoss(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("epoch");
    f.chart.yLabel = QStringLiteral("joint loss (sum of the exits' cross-entropies)");
    if (!fig::findSeries(d, keys::series::kTrainLoss)) {
        f.caption = QStringLiteral("Logits from a file: no training in this run.");
        return;
    }
    f.chart.series << fig::series(d, keys::series::kTrainLoss, QStringLiteral("training"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.caption = QStringLiteral("Mean joint loss per epoch of the early-exit MLP (Adam, batch 256).");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<smallnets::EarlyExitEngine>({
        {"acc_vs_flops", FigureKind::Chart, "Accuracy vs FLOPs", accVsFlops},
        {"exit_table", FigureKind::Heatmap, "Per-exit metrics", exitTable},
        {"ece_vs_area", FigureKind::Chart, "ECE vs accuracy-FLOPs area", eceScatter},
        {"eefp_vs_area", FigureKind::Chart, "EEFP vs accuracy-FLOPs area", eefpScatter},
        {"reliability", FigureKind::Chart, "Reliability diagrams", reliabilityFig},
        {"reliability_ts", FigureKind::Chart, "Reliability after temperature scaling", reliabilityTsFig},
        {"training_loss", FigureKind::Chart, "Training loss", trainingLoss},
    });
    return def;
}

} // namespace pl::eefpfig
