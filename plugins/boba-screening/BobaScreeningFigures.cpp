// The boba-screening panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json) and one builder per figure. Builders read the result only through pl::fig lookups
// with the engine's key constants.
#include "bandits/BobaScreeningEngine.h"
#include "bandits/BobaScreeningKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::bobafig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = bandits::boba::keys;

namespace {

const char* const kNames[] = {"BOBA", "full-library BO", "random screening", "BOBA, random partitions",
                              "BOBA, greedy"};

void armPulls(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, K::matrix::kArmPulls);
    f.heatmap.rowTitle = QStringLiteral("partition (by true mean, best first)");
    f.heatmap.colTitle = QStringLiteral("round");
    f.heatmap.colormap = QStringLiteral("magma");
    f.heatmap.unit = QStringLiteral("pulled");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    if (f.heatmap.rows > 60)
        f.heatmap.rowLabels.clear();
    f.caption = QStringLiteral("Partitions BOBA pulled in rounds 1..R-1 (%1 arms); partitions sorted by the "
                               "mean score of their compounds, best at the top.")
                    .arg(fig::metric(d, K::metric::kArms), 0, 'f', 0);
}

void recallCurves(const ResultDocument& d, FigureSpec& f, const char* prefix, bool logX) {
    f.chart.yLabel =
        QStringLiteral("recall of the top %1%")
            .arg(100 * fig::metric(d, K::metric::kTopSize) / fig::metric(d, K::metric::kLibrarySize), 0, 'g',
                 3);
    f.chart.logX = logX;
    int i = 0;
    for (const char* m : K::kMethods) {
        const std::string key = K::key(prefix, m);
        if (logX && std::string(m) == "random") { // no inferences: nothing on a log axis
            ++i;
            continue;
        }
        f.chart.series << fig::series(d, key, QString::fromLatin1(kNames[i]),
                                      SeriesSpec::Style::LineWithPoints, i);
        ++i;
    }
}

void recallVsEvals(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("oracle evaluations");
    recallCurves(d, f, K::series::kRecallVsEvalsPrefix, false);
    f.caption = QStringLiteral("Share of the true top set found, after each round. Final recall: BOBA %1, "
                               "full %2, random %3.")
                    .arg(fig::metric(d, K::key(K::metric::kRecallPrefix, "boba")), 0, 'f', 3)
                    .arg(fig::metric(d, K::key(K::metric::kRecallPrefix, "full")), 0, 'f', 3)
                    .arg(fig::metric(d, K::key(K::metric::kRecallPrefix, "random")), 0, 'f', 3);
}

void recallVsInferences(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("surrogate inferences (cumulative)");
    recallCurves(d, f, K::series::kRecallVsInferencesPrefix, true);
    const double b = fig::metric(d, K::key(K::metric::kInferencesPrefix, "boba"));
    const double full = fig::metric(d, K::key(K::metric::kInferencesPrefix, "full"));
    f.caption =
        QStringLiteral("The cost trade-off: BOBA used %1 inferences, full-library BO %2 (%3%). Random "
                       "screening uses none and is not drawn on the log axis.")
            .arg(b, 0, 'f', 0)
            .arg(full, 0, 'f', 0)
            .arg(full > 0 ? 100 * b / full : 0.0, 0, 'f', 1);
}

void scoreMap(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, K::matrix::kScoreMap);
    const Matrix* ev = fig::matrix(d, K::matrix::kEvaluatedMap);
    int marked = 0;
    if (ev && ev->rows == f.heatmap.rows && ev->cols == f.heatmap.cols)
        for (int i = 0; i < f.heatmap.values.size(); ++i)
            if (ev->data[size_t(i)] > 0) {
                f.heatmap.values[i] = std::nan("");
                ++marked;
            }
    f.heatmap.rowTitle = QStringLiteral("partition (by true mean, best first)");
    f.heatmap.colTitle = QStringLiteral("block of the partition's compounds");
    f.heatmap.unit = QStringLiteral("best score in block");
    if (f.heatmap.rows > 60)
        f.heatmap.rowLabels.clear();
    f.heatmap.colLabels.clear();
    f.caption =
        QStringLiteral("Each cell: the best score among a block of one partition's compounds. The %1 "
                       "blocks where BOBA evaluated compounds are drawn in the NaN colour: they gather "
                       "in the good partitions.")
            .arg(marked);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<bandits::BobaScreeningEngine>({
        {"arm_pulls", FigureKind::Heatmap, "Arm pulls over rounds", armPulls},
        {"recall_vs_evals", FigureKind::Chart, "Top-q recall vs evaluations", recallVsEvals},
        {"recall_vs_inferences", FigureKind::Chart, "Top-q recall vs surrogate inferences",
         recallVsInferences},
        {"score_map", FigureKind::Heatmap, "Evaluated compounds on the score map", scoreMap},
    });
    return def;
}

} // namespace pl::bobafig
