// The repa-physics panel: its engine and figure table (ids, kinds and titles as in paper.json), and
// the figure builders. Pure functions of the result (thread-safe).
#include "convimg/RepaEngine.h"
#include "convimg/RepaKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::repafig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = convimg::repa::keys;

namespace {

void field(const ResultDocument& d, FigureSpec& f, const char* key, const QString& unit, const char* cmap) {
    f.heatmap = fig::heatmap(d, key);
    f.heatmap.colormap = QString::fromLatin1(cmap);
    f.heatmap.unit = unit;
    f.heatmap.rowTitle = QStringLiteral("cell row (y index)");
    f.heatmap.colTitle = QStringLiteral("cell column (x index)");
}

QString gText(const ResultDocument& d) {
    return fig::param(d, keys::param::kTask) == "joint"
               ? QStringLiteral("zero flux on every side")
               : QStringLiteral("p = g = %1 on the left, 0 on the right")
                     .arg(QString::fromStdString(fig::param(d, keys::param::kGShow)));
}

void kField(const ResultDocument& d, FigureSpec& f) {
    field(d, f, keys::matrix::kKField, QStringLiteral("K (dimensionless)"), "viridis");
    f.caption = QStringLiteral("Permeability of the shown field (grid %1 x %1).")
                    .arg(fig::metric(d, keys::metric::kGrid));
}

void pTrue(const ResultDocument& d, FigureSpec& f) {
    field(d, f, keys::matrix::kPTrue, QStringLiteral("p (dimensionless)"), "magma");
    f.caption =
        QStringLiteral("Finite-volume solution (CG, %1 iterations), %2; sources +/-10 in opposite corners.")
            .arg(fig::metric(d, keys::metric::kSolverIterations))
            .arg(gText(d));
}

void pGenerated(const ResultDocument& d, FigureSpec& f) {
    field(d, f, keys::matrix::kPGenerated, QStringLiteral("p (dimensionless)"), "magma");
    f.caption = QStringLiteral(
                    "One DDPM sample of the REPA-P model (heads removed) for the shown K, %1. RMSE over the "
                    "evaluation set: %2 (baseline %3).")
                    .arg(gText(d))
                    .arg(fig::metric(d, keys::metric::kErrorGenRepa), 0, 'g', 3)
                    .arg(fig::metric(d, keys::metric::kErrorGenBaseline), 0, 'g', 3);
}

void pGeneratedBase(const ResultDocument& d, FigureSpec& f) {
    field(d, f, keys::matrix::kPGeneratedBaseline, QStringLiteral("p (dimensionless)"), "magma");
    f.caption =
        QStringLiteral("The same sample from the baseline model (same initialisation, batches and noise).");
}

void residualGen(const ResultDocument& d, FigureSpec& f) {
    field(d, f, keys::matrix::kResidualGen, QStringLiteral("|R| (units of f)"), "viridis");
    f.caption =
        QStringLiteral("|R| of the REPA-P sample, R = (A p - b) / h^2 (residual = %1). Mean R^2 over the "
                       "evaluation set: REPA-P %2, baseline %3, solver %4.")
            .arg(QString::fromStdString(fig::param(d, keys::param::kResidual)))
            .arg(fig::metric(d, keys::metric::kResidualGenRepa), 0, 'g', 3)
            .arg(fig::metric(d, keys::metric::kResidualGenBaseline), 0, 'g', 3)
            .arg(fig::metric(d, keys::metric::kResidualTrue), 0, 'g', 3);
}

void residualTrue(const ResultDocument& d, FigureSpec& f) {
    field(d, f, keys::matrix::kResidualTrue, QStringLiteral("R (units of f)"), "diverging");
    f.heatmap.centreZero = true;
    f.caption = QStringLiteral(
        "Residual of the solver's own field: ~0 with residual = fv (round-off of CG to 1e-10); "
        "the finite differences (fd) do not vanish on it.");
}

void head(const ResultDocument& d, FigureSpec& f, int h) {
    const std::string key = keys::matrix::kHeadPrefix + std::to_string(h);
    const std::vector<double>* blocks = fig::vector(d, keys::vector::kHeadBlocks);
    if (!fig::findMatrix(d, key) || !blocks || int(blocks->size()) < h) {
        f.message = QStringLiteral("No head %1 in this run.").arg(h);
        return;
    }
    field(d, f, key.c_str(), QStringLiteral("decoded p (dimensionless)"), "magma");
    f.caption = QStringLiteral(
                    "What block %1 'believes' p is: its 1x1 head decoding the shown field noised to t = T/5 "
                    "(training-only; removed at inference).")
                    .arg((*blocks)[size_t(h - 1)]);
}

void head1(const ResultDocument& d, FigureSpec& f) {
    head(d, f, 1);
}
void head2(const ResultDocument& d, FigureSpec& f) {
    head(d, f, 2);
}

void headResidual(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* r = fig::vector(d, keys::vector::kHeadResidual);
    const std::vector<double>* blocks = fig::vector(d, keys::vector::kHeadBlocks);
    SeriesSpec s = fig::bars(*r, QStringLiteral("mean R^2"), 2);
    f.chart.categories.clear();
    for (double b : *blocks)
        f.chart.categories << QStringLiteral("head, block %1").arg(b);
    f.chart.categories << QStringLiteral("output");
    f.chart.series << s;
    f.chart.xLabel = QStringLiteral("decoding");
    f.chart.yLabel = QStringLiteral("mean R^2 on the shown field");
    f.chart.logY = true;
    f.caption =
        QStringLiteral("Residual per layer: the heads' decodings and the output x0_hat of the REPA-P model.");
}

void curves(const ResultDocument& d, FigureSpec& f, const char* prefix, const QString& y, bool heads) {
    f.chart.xLabel = QStringLiteral("iteration");
    f.chart.yLabel = y;
    f.chart.logY = true;
    f.chart.series << fig::series(d, prefix + std::string(keys::kBaseline), QStringLiteral("baseline"),
                                  SeriesSpec::Style::Line, 0);
    f.chart.series << fig::series(d, prefix + std::string(keys::kRepa), QStringLiteral("REPA-P"),
                                  SeriesSpec::Style::Line, 1);
    if (heads) {
        SeriesSpec h = fig::series(d, keys::series::kHeadResidual, QStringLiteral("REPA-P heads"),
                                   SeriesSpec::Style::Line, 2);
        h.dashed = true;
        f.chart.series << h;
    }
    for (auto& s : f.chart.series)
        s.lineWidth = 1.2;
}

void dataLoss(const ResultDocument& d, FigureSpec& f) {
    curves(d, f, keys::series::kDataLossPrefix, QStringLiteral("data loss (normalised MSE of x0_hat)"),
           false);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, fig::metric(d, keys::metric::kTargetLoss),
                                       QStringLiteral("target")};
    f.caption =
        QStringLiteral(
            "Per-iteration data loss. Target (the baseline's final smoothed loss) reached at iteration "
            "%1 (baseline) and %2 (REPA-P; nan = not reached).")
            .arg(fig::metric(d, keys::metric::kItersBaseline))
            .arg(fig::metric(d, keys::metric::kItersRepa));
}

void residualCurves(const ResultDocument& d, FigureSpec& f) {
    curves(d, f, keys::series::kOutResidualPrefix, QStringLiteral("mean R^2 of the training batch"), true);
    f.caption = QStringLiteral("Output residual of x0_hat for both models and the heads' residual (REPA-P).");
}

void errorVsG(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("Dirichlet value g (left side)");
    f.chart.yLabel = QStringLiteral("RMSE of generated p vs solver");
    if (!fig::findSeries(d, keys::series::kErrorVsGPrefix + std::string(keys::kBaseline))) {
        f.message = QStringLiteral("No g sweep with task = joint (there is no boundary value to vary).");
        return;
    }
    f.chart.series << fig::series(d, keys::series::kErrorVsGPrefix + std::string(keys::kBaseline),
                                  QStringLiteral("baseline"), SeriesSpec::Style::LineWithPoints, 0);
    f.chart.series << fig::series(d, keys::series::kErrorVsGPrefix + std::string(keys::kRepa),
                                  QStringLiteral("REPA-P"), SeriesSpec::Style::LineWithPoints, 1);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, 1.0,
                                       QStringLiteral("end of training range")};
    f.caption =
        QStringLiteral("One K field, g swept over [0, 2]; training saw g in [0, 1] (left of the marker): "
                       "g > 1 is out of distribution (illustrative).");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<convimg::RepaEngine>({
        {"k_field", FigureKind::Heatmap, "Permeability K", kField},
        {"p_true", FigureKind::Heatmap, "Pressure (solver)", pTrue},
        {"p_generated", FigureKind::Heatmap, "Generated pressure (REPA-P)", pGenerated},
        {"p_generated_baseline", FigureKind::Heatmap, "Generated pressure (baseline)", pGeneratedBase},
        {"residual_gen", FigureKind::Heatmap, "PDE residual of the generated field", residualGen},
        {"residual_true", FigureKind::Heatmap, "PDE residual of the solver field", residualTrue},
        {"head_1", FigureKind::Heatmap, "Head decoding, first head", head1},
        {"head_2", FigureKind::Heatmap, "Head decoding, second head", head2},
        {"head_residual", FigureKind::Chart, "Residual per layer", headResidual},
        {"data_loss", FigureKind::Chart, "Training data loss", dataLoss},
        {"residual_curves", FigureKind::Chart, "Training residuals", residualCurves},
        {"error_vs_g", FigureKind::Chart, "Error vs boundary value g", errorVsG},
    });
    return def;
}

} // namespace pl::repafig
