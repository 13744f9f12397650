// The inslen-hallucination panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "hiddenstate/InsLenEngine.h"
#include "hiddenstate/InsLenKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::inslenfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = hiddenstate::inslen::keys;

namespace {

const char* const kNames[] = {"InsLen", "calibrated local", "context consistency", "mean prob", "GLSIM",
                              "SVAR"};

void roc(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("false-positive rate (hallucinated scored as real)");
    f.chart.yLabel = QStringLiteral("true-positive rate (real objects)");
    SeriesSpec diag;
    diag.name = QStringLiteral("chance");
    diag.x = {0.0, 1.0};
    diag.y = {0.0, 1.0};
    diag.dashed = true;
    diag.colorIndex = 7;
    f.chart.series << diag;
    for (int i = 0; i < 6; ++i) {
        const std::string key = keys::series::kRocPrefix + std::string(keys::kDetectors[i]);
        if (fig::findSeries(d, key))
            f.chart.series << fig::series(d, key, QString::fromLatin1(kNames[i]), SeriesSpec::Style::Line, i);
    }
    f.chart.fixedXRange = f.chart.fixedYRange = true;
    f.chart.xMin = f.chart.yMin = 0;
    f.chart.xMax = f.chart.yMax = 1;
    f.caption = QStringLiteral("ROC per detector, real = positive. AUROC: InsLen %1, GLSIM %2, mean prob %3, "
                               "SVAR %4; AUPR(InsLen) %5, FPR@95 %6.")
                    .arg(fig::metric(d, keys::metric::kAurocInslen), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocGlsim), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocMeanProb), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAurocSvar), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kAuprInslen), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kFpr95Inslen), 0, 'f', 3);
}

void densities(const ResultDocument& d, FigureSpec& f, int det) {
    f.chart.xLabel = QString::fromLatin1(kNames[det]) + QStringLiteral(" score");
    f.chart.yLabel = QStringLiteral("density (Gaussian KDE)");
    const std::string id(keys::kDetectors[det]);
    if (fig::findSeries(d, keys::series::kDensityRealPrefix + id))
        f.chart.series << fig::series(d, keys::series::kDensityRealPrefix + id,
                                      QStringLiteral("real objects"), SeriesSpec::Style::Line, 2);
    if (fig::findSeries(d, keys::series::kDensityHallPrefix + id))
        f.chart.series << fig::series(d, keys::series::kDensityHallPrefix + id,
                                      QStringLiteral("hallucinated objects"), SeriesSpec::Style::Line, 1);
    f.caption = QStringLiteral("Score densities of real vs hallucinated objects (%1 scored, %2 skipped).")
                    .arg(fig::metric(d, keys::metric::kObjectsScored), 0, 'f', 0)
                    .arg(fig::metric(d, keys::metric::kObjectsSkipped), 0, 'f', 0);
}

void densityInslen(const ResultDocument& d, FigureSpec& f) {
    densities(d, f, 0);
}
void densityGlsim(const ResultDocument& d, FigureSpec& f) {
    densities(d, f, 4);
}
void densityMeanProb(const ResultDocument& d, FigureSpec& f) {
    densities(d, f, 3);
}

void layers(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kAurocLayers);
    f.heatmap.rowTitle = QStringLiteral("image layer (image lens, patch states)");
    f.heatmap.colTitle = QStringLiteral("text layer (object token state)");
    f.heatmap.unit = QStringLiteral("AUROC of InsLen");
    f.heatmap.annotateCells = true;
    f.caption = QStringLiteral("AUROC of InsLen for every (image layer, text layer); the instruction layer "
                               "stays at its parameter. Layer 0 = embeddings.");
}

void patchGrid(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kPatchGrid);
    f.heatmap.rowTitle = QStringLiteral("patch row");
    f.heatmap.colTitle = QStringLiteral("patch column");
    f.heatmap.unit = QStringLiteral("image-lens probability");
    f.heatmap.colormap = QStringLiteral("magma");
    QStringList top;
    if (const Matrix* m = fig::findMatrix(d, keys::matrix::kTopPatchGrid))
        for (size_t i = 0; i < m->data.size(); ++i)
            if (m->data[i] > 0)
                top << QString::number(i + 1);
    f.caption =
        QStringLiteral("First scored object of the first caption: image-lens probability of its token "
                       "on each patch (row-major). Top-k patches used by the local score: %1.")
            .arg(top.join(QStringLiteral(", ")));
}

void trainingLoss(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("training step");
    f.chart.yLabel = QStringLiteral("next-token cross-entropy (nats)");
    if (!fig::findSeries(d, keys::series::kTrainLoss)) {
        f.caption = QStringLiteral("States from files: no training in this run.");
        return;
    }
    f.chart.series << fig::series(d, keys::series::kTrainLoss, QStringLiteral("toy model"),
                                  SeriesSpec::Style::Line, 0);
    f.caption = QStringLiteral("Stand-in only: training loss of the tiny multimodal transformer.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<hiddenstate::InsLenEngine>({
        {"roc", FigureKind::Chart, "ROC per detector", roc},
        {"density_inslen", FigureKind::Chart, "InsLen score densities", densityInslen},
        {"density_glsim", FigureKind::Chart, "GLSIM score densities", densityGlsim},
        {"density_mean_prob", FigureKind::Chart, "Mean-prob score densities", densityMeanProb},
        {"auroc_layers", FigureKind::Heatmap, "AUROC over layers", layers},
        {"patch_grid", FigureKind::Heatmap, "Patch grid and top-k patches", patchGrid},
        {"training_loss", FigureKind::Chart, "Toy model training loss", trainingLoss},
    });
    return def;
}

} // namespace pl::inslenfig
