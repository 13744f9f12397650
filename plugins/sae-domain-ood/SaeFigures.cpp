// The sae-domain-ood panel: its engine and figure table (ids, kinds and titles as in paper.json),
// and the figure builders. Pure functions of the result (thread-safe).
#include "hiddenstate/SaeDomainEngine.h"
#include "hiddenstate/SaeDomainKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::saefig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = hiddenstate::sae::keys;

namespace {

void aurocVsK(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("k (active SAE latents per layer)");
    f.chart.yLabel = QStringLiteral("AUROC, in-domain vs rest (test split)");
    f.chart.series << fig::series(d, keys::series::kAurocVsK, QStringLiteral("Markov transitions"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.chart.logX = true;
    f.caption =
        QStringLiteral("Markov-transition AUROC against the sparsity k (the paper expects a peak near 10).");
}

void methods(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("0 Markov, 1 GRU, 2 naive Bayes, 3 Mahalanobis, 4 kNN (best layers)");
    f.chart.yLabel = QStringLiteral("AUROC (test split)");
    if (const std::vector<double>* v = fig::vector(d, keys::vector::kAurocMethods))
        f.chart.series << fig::bars(*v, QStringLiteral("AUROC"), 0);
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral("AUROC per method: Markov %1, GRU %2, naive Bayes %3, Mahalanobis %4, kNN %5; "
                               "far-OOD (Markov) %6.")
                    .arg(fig::metric(d, keys::metric::kAurocMarkov), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocGru), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocNaiveBayes), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocMahalanobis), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocKnn), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocFarOod), 0, 'f', 3);
}

void transition(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kTransition);
    f.heatmap.rowTitle = QStringLiteral("feature i at layer 1");
    f.heatmap.colTitle = QStringLiteral("feature j at layer 2");
    f.heatmap.unit = QStringLiteral("P_1(j | i)");
    f.heatmap.colormap = QStringLiteral("magma");
    f.caption =
        QStringLiteral("Transition probabilities from layer 1 to layer 2 on the 16 features most used "
                       "by in-domain train texts at each layer.");
}

void raster(const ResultDocument& d, FigureSpec& f, bool ood) {
    f.heatmap = fig::heatmap(d, ood ? keys::matrix::kRasterOod : keys::matrix::kRasterId);
    f.heatmap.rowTitle = QStringLiteral("layer");
    f.heatmap.colTitle = QStringLiteral("SAE feature (active in either text)");
    f.heatmap.unit = QStringLiteral("code weight w");
    f.caption =
        ood ? QStringLiteral("Active features of the first out-of-domain test text, per layer.")
            : QStringLiteral("Active features of the first in-domain test text, per layer (same columns "
                             "as the out-of-domain raster).");
}
void rasterId(const ResultDocument& d, FigureSpec& f) {
    raster(d, f, false);
}
void rasterOod(const ResultDocument& d, FigureSpec& f) {
    raster(d, f, true);
}

void fvu(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("layer (0 = first block)");
    f.chart.yLabel = QStringLiteral("fraction (0..1)");
    if (const std::vector<double>* v = fig::vector(d, keys::vector::kFvu))
        f.chart.series << fig::bars(*v, QStringLiteral("fraction of variance unexplained"), 0);
    if (const std::vector<double>* v = fig::vector(d, keys::vector::kDead))
        f.chart.series << fig::bars(*v, QStringLiteral("dead latents"), 1);
    f.caption = QStringLiteral("SAE diagnostics per layer at the chosen k.");
}

void densities(const ResultDocument& d, FigureSpec& f) {
    const std::string b = fig::param(d, keys::param::kBackend);
    f.chart.xLabel = QString::fromStdString(b) + QStringLiteral(" score (high = in-domain)");
    f.chart.yLabel = QStringLiteral("density (Gaussian KDE)");
    if (fig::findSeries(d, keys::series::kDensityIdPrefix + b))
        f.chart.series << fig::series(d, keys::series::kDensityIdPrefix + b, QStringLiteral("in-domain"),
                                      SeriesSpec::Style::Line, 2);
    if (fig::findSeries(d, keys::series::kDensityOodPrefix + b))
        f.chart.series << fig::series(d, keys::series::kDensityOodPrefix + b, QStringLiteral("out-of-domain"),
                                      SeriesSpec::Style::Line, 1);
    f.caption = QStringLiteral("Score densities on the test split. FPR at 95 %% TPR (Markov): %1.")
                    .arg(fig::metric(d, keys::metric::kFpr95Markov), 0, 'f', 3);
}

void layerAuroc(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kLayerAuroc);
    f.heatmap.rowTitle = QStringLiteral("layer");
    f.heatmap.colTitle = QStringLiteral("single-layer baseline");
    f.heatmap.unit = QStringLiteral("AUROC");
    f.heatmap.annotateCells = true;
    f.caption =
        QStringLiteral("AUROC of each single-layer baseline at each layer; the panel reports the best "
                       "layer (chosen on the test split, in the baselines' favour).");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<hiddenstate::SaeDomainEngine>({
        {"auroc_vs_k", FigureKind::Chart, "AUROC against k", aurocVsK},
        {"methods", FigureKind::Chart, "AUROC by method", methods},
        {"transition", FigureKind::Heatmap, "Layer transition P(j|i)", transition},
        {"raster_in_domain", FigureKind::Heatmap, "Active features, in-domain text", rasterId},
        {"raster_ood", FigureKind::Heatmap, "Active features, out-of-domain text", rasterOod},
        {"fvu", FigureKind::Chart, "SAE diagnostics per layer", fvu},
        {"densities", FigureKind::Chart, "Score densities", densities},
        {"layer_auroc", FigureKind::Heatmap, "Single-layer AUROC", layerAuroc},
    });
    return def;
}

} // namespace pl::saefig
