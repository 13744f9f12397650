// The protovar-distillation panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "distill/ProtovarEngine.h"
#include "distill/ProtovarKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::protovarfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = distill::protovar::keys;

namespace {

/// Short enough for the category axis; the caption spells them out.
const char* const kMethodNames[] = {"ProtoVAR", "rand.real", "sel.real", "VAR b=0", "guid.rand", "sel. b=0"};

void imageGrid(const ResultDocument& d, FigureSpec& f, const char* key, const QString& rows,
               const QString& cols) {
    f.heatmap = fig::heatmap(d, key);
    f.heatmap.rowLabels.clear();
    f.heatmap.colLabels.clear();
    f.heatmap.colormap = QStringLiteral("gray");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.unit = QStringLiteral("grey level (0-1)");
    f.heatmap.rowTitle = rows;
    f.heatmap.colTitle = cols;
}

void realFig(const ResultDocument& d, FigureSpec& f) {
    imageGrid(d, f, K::matrix::kRealGrid, QStringLiteral("class (one row each, class order)"),
              QStringLiteral("first 8 training images"));
    f.caption = QStringLiteral("The real training images (for the procedural glyphs: circle, ring, square, "
                               "triangle, cross, X, h-bar, v-bar, diamond, L from top to bottom).");
}

void ladderFig(const ResultDocument& d, FigureSpec& f) {
    imageGrid(d, f, K::matrix::kPrototypeLadder, QStringLiteral("class"),
              QStringLiteral("prototype 1, 2, 3 ... each from the coarsest to the finest scale"));
    f.caption = QStringLiteral("Prototypes P_{c,k,m}: k-means++ centres of each class's cumulative "
                               "reconstructions f_hat_<=k, decoded to pixels. Each block of K tiles is one "
                               "prototype, coarse (left) to fine (right).");
}

void poolFig(const ResultDocument& d, FigureSpec& f) {
    imageGrid(d, f, K::matrix::kPoolGrid, QStringLiteral("class"),
              QStringLiteral("pool images (ProtoVAR's picks framed in white)"));
    f.caption =
        QStringLiteral("The guided pool at the run's IPC: the images ProtoVAR kept (filter then selector) "
                       "have a white frame; the other pool images fill the row up to 20 tiles, in "
                       "sampling order. Filter pass rate %1.")
            .arg(fig::metric(d, K::metric::kFilterPassRate), 0, 'f', 2);
}

void partialFig(const ResultDocument& d, FigureSpec& f) {
    imageGrid(d, f, K::matrix::kPartialReconstructions, QStringLiteral("class (one test image each)"),
              QStringLiteral("f_hat after scale 1, 2, ..., K; then the original"));
    f.caption = QStringLiteral("The tokeniser coarse to fine: each tile adds one scale of residual tokens. "
                               "Reconstruction MSE per pixel on the test images: %1.")
                    .arg(fig::metric(d, K::metric::kReconstructionMse), 0, 'g', 3);
}

void pcaFig(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("PC 1 of phi (classifier features)");
    f.chart.yLabel = QStringLiteral("PC 2 of phi");
    f.chart.series << fig::series(d, K::series::kPcaReal, QStringLiteral("real (30 per class)"),
                                  SeriesSpec::Style::Scatter, 7)
                   << fig::series(d, K::series::kPcaPool, QStringLiteral("pool, not selected"),
                                  SeriesSpec::Style::Scatter, 0)
                   << fig::series(d, K::series::kPcaSelected, QStringLiteral("selected (ProtoVAR)"),
                                  SeriesSpec::Style::Scatter, 1);
    f.caption = QStringLiteral("Principal components fitted on the real training images' phi; every class "
                               "together. Selected images should sit near the real class clusters.");
}

void accuracyFig(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* ipcs = fig::vector(d, K::vector::kIpcValues);
    for (int k = 0; k < K::kMethodCount; ++k)
        f.chart.categories << QString::fromLatin1(kMethodNames[k]);
    for (size_t j = 0; ipcs && j < ipcs->size(); ++j) {
        SeriesSpec s;
        s.name = QStringLiteral("IPC %1").arg(int((*ipcs)[j]));
        s.style = SeriesSpec::Style::Bars;
        s.colorIndex = int(j);
        for (int k = 0; k < K::kMethodCount; ++k) {
            const Series* sr = fig::seriesData(d, std::string(K::series::kAccVsIpcPrefix) + K::kMethods[k]);
            s.x << k;
            s.y << (sr && j < sr->y.size() ? sr->y[j] : 0.0);
        }
        f.chart.series << s;
    }
    f.chart.xLabel = QStringLiteral("method");
    f.chart.yLabel = QStringLiteral("test accuracy (mean over inits)");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("A fresh student trained only on each distilled set, scored on the real test set. "
                       "rand.real: random real subset; sel.real: the selector on the real images; "
                       "VAR b=0: unguided pool, random picks; guid.rand: guided pool, random picks; "
                       "sel. b=0: unguided pool, filter and selector. The real-data classifier (all "
                       "training images) reaches %1.")
            .arg(fig::metric(d, K::metric::kClassifierAcc), 0, 'f', 3);
}

void entropyFig(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("scale k (coarse to fine)");
    f.chart.yLabel = QStringLiteral("mean entropy of the token distribution (bits)");
    f.chart.series << fig::series(d, K::series::kTokenEntropyVsScale,
                                  QStringLiteral("guided (beta_1 = run's beta)"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    SeriesSpec u = fig::series(d, K::series::kTokenEntropyUnguided, QStringLiteral("unguided (beta = 0)"),
                               SeriesSpec::Style::LineWithPoints, 3);
    u.dashed = true;
    f.chart.series << u;
    f.caption = QStringLiteral("A diversity diagnostic: the prototype bias sharpens the coarse scales most "
                               "(beta_k halves with each scale).");
}

void varianceFig(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("beta_1");
    f.chart.yLabel = QStringLiteral("mean intra-class variance of phi in the pool");
    f.chart.series << fig::series(d, K::series::kPoolVarianceVsBeta, QStringLiteral("pool variance"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.caption = QStringLiteral("The same random numbers for every beta: only the prototype pull changes. "
                               "Representativeness (low variance) against diversity.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<distill::ProtovarEngine>({
        {"real_images", FigureKind::Heatmap, "Real images", realFig},
        {"prototype_ladder", FigureKind::Heatmap, "Prototype ladder", ladderFig},
        {"pool_selection", FigureKind::Heatmap, "Generated pool and selection", poolFig},
        {"partial_reconstructions", FigureKind::Heatmap, "Partial reconstructions by scale", partialFig},
        {"phi_pca", FigureKind::Chart, "PCA of classifier features", pcaFig},
        {"method_accuracy", FigureKind::Chart, "Student accuracy by method and IPC", accuracyFig},
        {"token_entropy", FigureKind::Chart, "Token entropy by scale", entropyFig},
        {"variance_vs_beta", FigureKind::Chart, "Pool variance vs beta", varianceFig},
    });
    return def;
}

} // namespace pl::protovarfig
