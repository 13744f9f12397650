// The olaf-world panel: its engine and figure table (ids, kinds and titles exactly as in paper.json),
// and one builder per figure. Builders read the result only through pl::fig lookups.
#include "core/Numeric.h"
#include "gridworld/OlafWorldEngine.h"
#include "gridworld/OlafWorldKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <cmath>

namespace pl::olaf {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

const QStringList kActions{QStringLiteral("right"), QStringLiteral("left"), QStringLiteral("up"),
                           QStringLiteral("down"), QStringLiteral("stay")};

/// Actions and contexts per latent row, or a message when the run had no actions.
bool labelled(const ResultDocument& d, FigureSpec& f, const std::vector<int64_t>*& act,
              const std::vector<int64_t>*& ctx) {
    act = fig::findLabels(d, keys::label::kAction);
    ctx = fig::findLabels(d, keys::label::kContext);
    if (act && ctx)
        return true;
    f.message =
        QStringLiteral("The clips have no actions (actions.csv): latents cannot be coloured by action.");
    f.scene.message = f.message;
    return false;
}

/// Latents side by side per context: context c's cloud is shifted right by c·(span + gap).
void latentScatter(const ResultDocument& d, FigureSpec& f, const char* key, const QString& model) {
    const std::vector<int64_t>*act, *ctx;
    if (!labelled(d, f, act, ctx))
        return;
    const Matrix& z = *fig::matrix(d, key);
    double lo = 0, hi = 0;
    for (int64_t r = 0; r < z.rows; ++r) {
        lo = std::min(lo, z.at(r, 0));
        hi = std::max(hi, z.at(r, 0));
    }
    const double step = 1.25 * std::max(1e-9, hi - lo);
    const int contexts = int(fig::metric(d, keys::metric::kContextCount));
    for (int a = 0; a < kActions.size(); ++a) {
        SeriesSpec s;
        s.name = kActions[a];
        s.style = SeriesSpec::Style::Scatter;
        s.colorIndex = a;
        for (int64_t r = 0; r < z.rows && size_t(r) < act->size(); ++r)
            if ((*act)[size_t(r)] == a && r % 3 == 0) { // every third transition keeps the plot light
                s.x << z.at(r, 0) - lo + step * double((*ctx)[size_t(r)]);
                s.y << (z.cols > 1 ? z.at(r, 1) : 0.02 * double(r % 17));
            }
        f.chart.series << s;
    }
    for (int c = 1; c < contexts; ++c)
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, step * c - 0.1 * step,
                                           QStringLiteral("context %1 →").arg(c + 1)};
    f.chart.xLabel = QStringLiteral("z₁ (each context in its own block, left to right)");
    f.chart.yLabel = z.cols > 1 ? QStringLiteral("z₂") : QStringLiteral("(spread only)");
    f.caption =
        QStringLiteral("%1: posterior means of every third transition, one block per context, coloured by "
                       "the hidden action. Aligned latents put each move in the same place in every block. "
                       "Cross-context cosine %2.")
            .arg(model)
            .arg(fig::metricOr(d,
                               key == std::string(keys::matrix::kLatentBaseline)
                                   ? keys::metric::kCosineBaseline
                                   : keys::metric::kCosineAligned,
                               kNaN),
                 0, 'f', 2);
}

void latentsBaseline(const ResultDocument& d, FigureSpec& f) {
    latentScatter(d, f, keys::matrix::kLatentBaseline, QStringLiteral("Baseline (λ = 0)"));
}

void latentsAligned(const ResultDocument& d, FigureSpec& f) {
    latentScatter(d, f, keys::matrix::kLatentAligned, QStringLiteral("SeqΔ-REPA"));
}

void latents3d(const ResultDocument& d, FigureSpec& f) {
    const std::vector<int64_t>*act, *ctx;
    if (!labelled(d, f, act, ctx))
        return;
    const Matrix& b = *fig::matrix(d, keys::matrix::kLatentBaseline);
    const Matrix& a = *fig::matrix(d, keys::matrix::kLatentAligned);
    if (a.cols != 3) {
        f.scene.message =
            QStringLiteral("The 3D view needs d_z = 3 (this run has d_z = %1): set dz = 3.").arg(a.cols);
        return;
    }
    double span = 1e-9;
    for (double v : a.data)
        span = std::max(span, std::fabs(v));
    for (double v : b.data)
        span = std::max(span, std::fabs(v));
    // one sphere set per model; baseline shifted left, aligned right; colour = action
    for (int m = 0; m < 2; ++m) {
        const Matrix& z = m == 0 ? b : a;
        gui::SphereSetSpec s;
        s.style.name = m == 0 ? QStringLiteral("baseline") : QStringLiteral("SeqΔ-REPA");
        s.radius = 0.025;
        for (int64_t r = 0; r < z.rows && size_t(r) < act->size(); r += 4) {
            if ((*act)[size_t(r)] < 0)
                continue;
            s.centers << gui::Vec3(float(z.at(r, 0) / span + (m == 0 ? -1.3 : 1.3)), float(z.at(r, 1) / span),
                                   float(z.at(r, 2) / span));
            s.values << double((*act)[size_t(r)]);
            s.labels << QStringLiteral("%1, context %2")
                            .arg(kActions[int((*act)[size_t(r)])])
                            .arg((*ctx)[size_t(r)] + 1);
        }
        f.scene.spheres << s;
    }
    f.scene.labels << gui::SceneLabelSpec{gui::Vec3(-1.3f, 0, 1.3f), QStringLiteral("baseline")}
                   << gui::SceneLabelSpec{gui::Vec3(1.3f, 0, 1.3f), QStringLiteral("SeqΔ-REPA")};
    f.scene.colormap = QStringLiteral("okabe-ito");
    f.scene.fixedRange = true;
    f.scene.vMin = 0;
    f.scene.vMax = 4;
    f.scene.colorBarTitle = QStringLiteral("action (0 right, 1 left, 2 up, 3 down, 4 stay)");
    f.caption = QStringLiteral(
        "Posterior means (every fourth transition, all contexts) in 3D, coloured by the hidden "
        "action: baseline left, SeqΔ-REPA right. Pick a sphere to see its context.");
}

void crossContextCosine(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::findMatrix(d, keys::matrix::kPairCosine);
    if (!m) {
        f.message = QStringLiteral("Needs actions (actions.csv) and at least two contexts.");
        return;
    }
    f.heatmap = fig::heatmap(*m);
    f.heatmap.rowTitle = QStringLiteral("context");
    f.heatmap.colTitle = QStringLiteral("context (baseline | SeqΔ-REPA)");
    f.heatmap.unit = QStringLiteral("cosine of per-move mean latents");
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = -1;
    f.heatmap.vMax = 1;
    f.heatmap.annotateCells = true;
    f.caption = QStringLiteral("Per context pair, the mean over the four moves of the cosine between the two "
                               "contexts' mean latents. Mean off the diagonal: baseline %1, SeqΔ-REPA %2.")
                    .arg(fig::metric(d, keys::metric::kCosineBaseline), 0, 'f', 2)
                    .arg(fig::metric(d, keys::metric::kCosineAligned), 0, 'f', 2);
}

void rolloutStrip(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::findMatrix(d, keys::matrix::kRollout);
    if (!m) {
        f.message = QStringLiteral(
            "Needs actions (actions.csv): the rollout applies context A's mean latent of 'right'.");
        return;
    }
    f.heatmap = fig::heatmap(*m);
    f.heatmap.colormap = QStringLiteral("gray");
    f.heatmap.rowTitle = QStringLiteral("top: baseline, bottom: SeqΔ-REPA");
    f.heatmap.colTitle = QStringLiteral("rollout step 0 … 6 (px)");
    f.heatmap.unit = QStringLiteral("intensity");
    f.caption =
        QStringLiteral("The decoder as world model: from a frame of context 2, six steps of D(o, z) with z = "
                       "context 1's mean latent of 'right'. Sprite drift: baseline %1 px/step, SeqΔ-REPA %2 "
                       "px/step (+1 = a faithful move right).")
            .arg(fig::metric(d, keys::metric::kRolloutBaseline), 0, 'f', 2)
            .arg(fig::metric(d, keys::metric::kRolloutAligned), 0, 'f', 2);
}

void probeBars(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasMetric(d, keys::metric::kProbeAligned)) {
        f.message = QStringLiteral("Needs actions (actions.csv).");
        return;
    }
    f.chart.categories = {QStringLiteral("cosine"), QStringLiteral("probe A→B"), QStringLiteral("Procrustes"),
                          QStringLiteral("adapter err.")};
    const std::vector<double> b{
        fig::metric(d, keys::metric::kCosineBaseline), fig::metric(d, keys::metric::kProbeBaseline),
        fig::metric(d, keys::metric::kProcrustesBaseline), fig::metric(d, keys::metric::kAdapterBaseline)};
    const std::vector<double> a{
        fig::metric(d, keys::metric::kCosineAligned), fig::metric(d, keys::metric::kProbeAligned),
        fig::metric(d, keys::metric::kProcrustesAligned), fig::metric(d, keys::metric::kAdapterAligned)};
    SeriesSpec sb = fig::bars(b, QStringLiteral("baseline (λ = 0)"), 0);
    SeriesSpec sa = fig::bars(a, QStringLiteral("SeqΔ-REPA"), 1);
    for (auto& x : sb.x)
        x -= 0.2;
    for (auto& x : sa.x)
        x += 0.2;
    f.chart.series << sb << sa;
    f.chart.yLabel = QStringLiteral("value (cosine, accuracy or ratio)");
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.7, QStringLiteral("claim: cosine ≥ 0.7")};
    f.caption =
        QStringLiteral(
            "Higher is better for cosine and probe transfer (nearest class mean on %1 labels of A, "
            "tested on B; chance 0.2); lower is better for the Procrustes residual (after the best "
            "rotation) and the adapter's prediction error in a new context (D(o, A(a)) against copying o_t).")
            .arg(QString::fromStdString(fig::param(d, keys::param::kProbeLabels)));
}

void labelEfficiency(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kLabelCurveAligned)) {
        f.message = QStringLiteral("Needs actions (actions.csv).");
        return;
    }
    f.chart.series << fig::series(d, keys::series::kLabelCurveBaseline, QStringLiteral("baseline (λ = 0)"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kLabelCurveAligned, QStringLiteral("SeqΔ-REPA"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.9, QStringLiteral("90 %")};
    f.chart.xLabel = QStringLiteral("labelled transitions of the new context (plus the others' labels)");
    f.chart.yLabel = QStringLiteral("probe accuracy in the new context");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral(
                    "Each context in turn is new: a nearest-class-mean probe on the other contexts' labels "
                    "plus n of its own. Labels to 90 %: baseline %1, SeqΔ-REPA %2 (320 = not reached).")
                    .arg(fig::metric(d, keys::metric::kLabels90Baseline))
                    .arg(fig::metric(d, keys::metric::kLabels90Aligned));
}

void losses(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("Adam step");
    f.chart.yLabel = QStringLiteral("loss per transition or window");
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kReconBaseline, QStringLiteral("recon, base"),
                                  SeriesSpec::Style::Line, 0)
                   << fig::series(d, keys::series::kReconAligned, QStringLiteral("recon, REPA"),
                                  SeriesSpec::Style::Line, 1)
                   << fig::series(d, keys::series::kKlBaseline, QStringLiteral("KL, base"),
                                  SeriesSpec::Style::Line, 2)
                   << fig::series(d, keys::series::kKlAligned, QStringLiteral("KL, REPA"),
                                  SeriesSpec::Style::Line, 3)
                   << fig::series(d, keys::series::kAlignAligned, QStringLiteral("align, REPA"),
                                  SeriesSpec::Style::Line, 4);
    for (int i = 2; i < 4; ++i)
        f.chart.series[i].dashed = true;
    f.caption = QStringLiteral(
        "Minibatch means every 20 steps: ‖ô − o‖² summed over pixels, KL(q ‖ N(0, I)) in nats, "
        "and the alignment loss 1 − cos(h(Z), Δφ) of SeqΔ-REPA (the baseline does not train it). base = "
        "baseline "
        "(λ = 0), REPA = SeqΔ-REPA.");
}

void contextFrames(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kContextFrames);
    f.heatmap.colormap = QStringLiteral("gray");
    f.heatmap.rowTitle = QStringLiteral("y (px)");
    f.heatmap.colTitle = QStringLiteral("one first frame per context, left to right (px)");
    f.heatmap.unit = QStringLiteral("intensity");
    f.caption = QStringLiteral(
        "The visual contexts: background texture and contrast, sprite size and brightness, and "
        "distractors differ; the sprite is always brighter than its background.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<OlafWorldEngine>({
        {"context_frames", FigureKind::Heatmap, "Frames of each context", contextFrames},
        {"latents_baseline", FigureKind::Chart, "Latents per context: baseline", latentsBaseline},
        {"latents_aligned", FigureKind::Chart, "Latents per context: SeqΔ-REPA", latentsAligned},
        {"latents_3d", FigureKind::Scene3D, "Latents in 3D (d_z = 3)", latents3d},
        {"cross_context_cosine", FigureKind::Heatmap, "Cross-context cosine of mean latents",
         crossContextCosine},
        {"rollout_strip", FigureKind::Heatmap, "Rollout: A's 'right' applied in B", rolloutStrip},
        {"probe_bars", FigureKind::Chart, "Probe transfer and Procrustes residual", probeBars},
        {"label_efficiency", FigureKind::Chart, "Labels needed in a new context", labelEfficiency},
        {"losses", FigureKind::Chart, "Training losses", losses},
    });
    return def;
}

} // namespace pl::olaf
