// The negative-label-ood panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json) and one builder per figure. Builders read the result only through pl::fig lookups
// with the engine's key constants.
#include "embedgeo/NegLabelOodEngine.h"
#include "embedgeo/NegLabelOodKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <numeric>

namespace pl::negoodfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = embedgeo::negood::keys;

namespace {

const char* const kNames[] = {"NegLabel", "KL-DRO (exact)", "Renyi-DRO"};

QString auroc(const ResultDocument& d, const char* method) {
    return QString::number(fig::metric(d, K::key(K::metric::kAurocPrefix, method)), 'f', 3);
}

void scoreHistograms(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("energy margin S = tau log sum_k e^(s_k/tau) - Phi (high = ID)");
    f.chart.yLabel = QStringLiteral("density");
    f.chart.series << fig::series(d, K::key(K::series::kHistIdPrefix, "kl"), QStringLiteral("KL, ID images"),
                                  SeriesSpec::Style::Line, 1)
                   << fig::series(d, K::key(K::series::kHistOodPrefix, "kl"),
                                  QStringLiteral("KL, OOD images"), SeriesSpec::Style::Line, 1)
                   << fig::series(d, K::key(K::series::kHistIdPrefix, "renyi"),
                                  QStringLiteral("Renyi, ID images"), SeriesSpec::Style::Line, 2)
                   << fig::series(d, K::key(K::series::kHistOodPrefix, "renyi"),
                                  QStringLiteral("Renyi, OOD images"), SeriesSpec::Style::Line, 2);
    f.chart.series[1].dashed = true;
    f.chart.series[3].dashed = true;
    f.caption = QStringLiteral("Score densities of ID (solid) and OOD (dashed) images for the two DRO energy "
                               "margins at the panel's rho and alpha. AUROC: KL %1, Renyi %2 (NegLabel %3).")
                    .arg(auroc(d, "kl"), auroc(d, "renyi"), auroc(d, "neglabel"));
}

void roc(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, K::key(K::series::kRocPrefix, "renyi"));
    f.chart.yLabel = fig::ylabel(d, K::key(K::series::kRocPrefix, "renyi"));
    int i = 0;
    for (const char* m : K::kMethods) {
        f.chart.series << fig::series(d, K::key(K::series::kRocPrefix, m),
                                      QStringLiteral("%1 (AUROC %2)").arg(kNames[i]).arg(auroc(d, m)),
                                      SeriesSpec::Style::Line, i);
        ++i;
    }
    f.chart.fixedXRange = f.chart.fixedYRange = true;
    f.caption = QStringLiteral("ROC of ID (positive) against OOD images. FPR at 95% TPR: NegLabel %1, KL %2, "
                               "Renyi %3.")
                    .arg(fig::metric(d, K::key(K::metric::kFpr95Prefix, "neglabel")), 0, 'f', 3)
                    .arg(fig::metric(d, K::key(K::metric::kFpr95Prefix, "kl")), 0, 'f', 3)
                    .arg(fig::metric(d, K::key(K::metric::kFpr95Prefix, "renyi")), 0, 'f', 3);
}

void alphaRho(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, K::matrix::kAurocAlphaRho);
    f.heatmap.rowTitle = QStringLiteral("Renyi order alpha");
    f.heatmap.colTitle = QStringLiteral("ball radius rho (nats)");
    f.heatmap.unit = QStringLiteral("AUROC");
    f.heatmap.annotateCells = true;
    f.caption =
        QStringLiteral("Renyi-DRO AUROC over (alpha, rho) on a subsample of up to 150 ID + 150 OOD test "
                       "images. rho = 0 is the mean over the negatives, rho >= log M their maximum.");
}

void worstCaseWeights(const ResultDocument& d, FigureSpec& f) {
    const auto* s = fig::vector(d, K::vector::kPickNegSim);
    const auto* qk = fig::vector(d, K::vector::kWeightsKl);
    const auto* qr = fig::vector(d, K::vector::kWeightsRenyi);
    std::vector<size_t> o(s ? s->size() : 0);
    std::iota(o.begin(), o.end(), size_t(0));
    if (s)
        std::stable_sort(o.begin(), o.end(), [&](size_t a, size_t b) { return (*s)[a] > (*s)[b]; });
    o.resize(std::min<size_t>(o.size(), 8));
    SeriesSpec a, b;
    a.name = QStringLiteral("KL worst case (ESS %1)").arg(fig::metric(d, K::metric::kEssPickKl), 0, 'f', 1);
    b.name =
        QStringLiteral("Renyi worst case (ESS %1)").arg(fig::metric(d, K::metric::kEssPickRenyi), 0, 'f', 1);
    a.style = b.style = SeriesSpec::Style::Bars;
    a.colorIndex = 1;
    b.colorIndex = 2;
    for (size_t r = 0; r < o.size() && qk && qr; ++r) {
        a.x << double(r);
        b.x << double(r);
        a.y << (*qk)[o[r]];
        b.y << (*qr)[o[r]];
        f.chart.categories << QString::number((*s)[o[r]], 'f', 2);
    }
    f.chart.series << a << b;
    f.chart.xLabel = QStringLiteral("negatives of the picked image, by cosine s~ (largest 8)");
    f.chart.yLabel = QStringLiteral("worst-case weight q_j");
    f.caption =
        QStringLiteral("Worst-case distributions over the negatives for image %1 (%2): KL tilts "
                       "exponentially toward the most similar negatives, Renyi weights grow "
                       "polynomially with bounded density ratio.")
            .arg(QString::fromStdString(fig::param(d, K::param::kPick)))
            .arg(fig::metric(d, K::metric::kPickIsId) > 0 ? QStringLiteral("ID") : QStringLiteral("OOD"));
}

void outlierSensitivity(const ResultDocument& d, FigureSpec& f) {
    const auto key = K::key(K::series::kDeltaVsOutliersPrefix, "renyi");
    f.chart.xLabel = fig::xlabel(d, key);
    f.chart.yLabel = fig::ylabel(d, key);
    int i = 0;
    for (const char* m : K::kMethods) {
        f.chart.series << fig::series(d, K::key(K::series::kDeltaVsOutliersPrefix, m),
                                      QString::fromLatin1(kNames[i]), SeriesSpec::Style::LineWithPoints, i);
        ++i;
    }
    f.caption = QStringLiteral(
                    "AUROC lost when near-synonyms of ID labels join the negatives (rho tuned on clean "
                    "validation data: KL %1, Renyi %2). Drop at 10 outliers: NegLabel %3, KL %4, Renyi %5.")
                    .arg(fig::metric(d, K::metric::kRhoKlTuned), 0, 'g', 3)
                    .arg(fig::metric(d, K::metric::kRhoRenyiTuned), 0, 'g', 3)
                    .arg(fig::metric(d, K::key(K::metric::kDeltaPrefix, "neglabel")), 0, 'f', 3)
                    .arg(fig::metric(d, K::key(K::metric::kDeltaPrefix, "kl")), 0, 'f', 3)
                    .arg(fig::metric(d, K::key(K::metric::kDeltaPrefix, "renyi")), 0, 'f', 3);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<embedgeo::NegLabelOodEngine>({
        {"score_histograms", FigureKind::Chart, "Score densities, ID vs OOD", scoreHistograms},
        {"roc", FigureKind::Chart, "ROC curves", roc},
        {"auroc_alpha_rho", FigureKind::Heatmap, "Renyi AUROC over (alpha, rho)", alphaRho},
        {"worst_case_weights", FigureKind::Chart, "Worst-case weights, KL vs Renyi", worstCaseWeights},
        {"outlier_sensitivity", FigureKind::Chart, "AUROC drop vs synonym outliers", outlierSensitivity},
    });
    return def;
}

} // namespace pl::negoodfig
