// The equivariant-covariance panel definition: its engine and figure table (ids, kinds and titles
// exactly as in paper.json), and one builder per figure. Builders only place result data (read
// through pl::fig lookups with the engine's key constants); the ellipsoids come from the engine as
// a centre and an axes matrix, the builder only maps a unit-sphere mesh through them.
#include "equicov/EquivariantCovarianceEngine.h"
#include "equicov/EquivariantCovarianceKeys.h"

#include "core/Numeric.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <cmath>

namespace pl::equicov {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace M = keys::metric;
namespace S = keys::series;
namespace V = keys::vector;
namespace X = keys::matrix;

namespace {

QString num(double v, int digits = 3) {
    return std::isfinite(v) ? QString::number(v, 'g', digits) : QStringLiteral("n/a");
}

/// A UV sphere mapped through centre + A u (row \a r of the ellipsoid matrix), shifted by \a dx.
gui::SurfaceSpec ellipsoid(const Matrix& e, int64_t r, double dx, int colorIndex, double opacity,
                           const QString& name) {
    gui::SurfaceSpec s;
    s.style.name = name;
    s.style.colorIndex = colorIndex;
    s.style.opacity = opacity;
    const int nu = 24, nv = 12;
    for (int i = 0; i <= nv; ++i)
        for (int j = 0; j < nu; ++j) {
            const double th = M_PI * i / nv, ph = 2 * M_PI * j / nu;
            const double u[3] = {std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)};
            double p[3];
            for (int a = 0; a < 3; ++a) {
                p[a] = e.at(r, a) + (a == 0 ? dx : 0.0);
                for (int b = 0; b < 3; ++b)
                    p[a] += e.at(r, 3 + a * 3 + b) * u[b];
            }
            s.vertices << gui::Vec3(float(p[0]), float(p[1]), float(p[2]));
        }
    for (int i = 0; i < nv; ++i)
        for (int j = 0; j < nu; ++j) {
            const int a = i * nu + j, b = i * nu + (j + 1) % nu, c = a + nu, d = b + nu;
            s.triangles << a << c << b << b << c << d;
        }
    return s;
}

void scene3d(const ResultDocument& d, FigureSpec& f) {
    const Matrix* pts = fig::matrix(d, X::kScenePoints);
    const Matrix* ell = fig::matrix(d, X::kSceneEllipsoids);
    gui::SceneSpec& s = f.scene;
    if (!pts || !ell || ell->rows < 2 || pts->rows == 0) {
        s.message = QStringLiteral("No cloud to show.");
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t i = 0; i < pts->rows; ++i) {
        lo = std::min(lo, pts->at(i, 0));
        hi = std::max(hi, pts->at(i, 0));
    }
    const double dx = 1.6 * (hi - lo) + 1.0; // the baseline copy beside the model
    for (const double off : {0.0, dx}) {
        gui::PointCloudSpec c;
        c.style.name =
            off == 0 ? QStringLiteral("input cloud") : QStringLiteral("input cloud (baseline view)");
        c.style.color = gui::Rgba(90, 90, 90);
        c.pointSize = 5;
        for (int64_t i = 0; i < pts->rows; ++i)
            c.points << gui::Vec3(float(pts->at(i, 0) + off), float(pts->at(i, 1)), float(pts->at(i, 2)));
        s.pointClouds << c;
    }
    s.surfaces << ellipsoid(*ell, 0, 0, 0, 0.35, QStringLiteral("predicted mean (equivariant)"));
    for (int64_t r = 2; r < ell->rows; ++r)
        s.surfaces << ellipsoid(*ell, r, 0, 0, 0.10, QStringLiteral("sample from N(μ, Σ)"));
    s.surfaces << ellipsoid(*ell, 1, dx, 1, 0.35, QStringLiteral("augmented-MLP baseline mean"));
    s.labels << gui::SceneLabelSpec{
        gui::Vec3(float(ell->at(0, 0)), float(ell->at(0, 1)), float(ell->at(0, 2) + 0.6 * (hi - lo))),
        QStringLiteral("equivariant")};
    s.labels << gui::SceneLabelSpec{
        gui::Vec3(float(ell->at(1, 0) + dx), float(ell->at(1, 1)), float(ell->at(1, 2) + 0.6 * (hi - lo))),
        QStringLiteral("baseline")};
    f.caption =
        QStringLiteral("Cloud %1 rotated by %2° (parameter \"rotate input\"): the equivariant mean tensor "
                       "(left, with 8 tensors sampled from N(μ, Σ)) turns with it; the augmented MLP's mean "
                       "(right) does not follow exactly. Ellipsoid semi-axes √(5λ) of each tensor.")
            .arg(fig::metric(d, M::kShown))
            .arg(QString::fromStdString(fig::param(d, keys::param::kRotateInput)));
}

void trainingCurves(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("epoch");
    f.chart.yLabel = QStringLiteral("mean training loss");
    f.chart.series << fig::series(d, S::kTrainLoss, QStringLiteral("equivariant, selected score"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    if (fig::hasSeries(d, S::kTrainLossGauss))
        f.chart.series << fig::series(d, S::kTrainLossGauss, QStringLiteral("equivariant, Gaussian NLL"),
                                      SeriesSpec::Style::LineWithPoints, 2);
    f.chart.series << fig::series(d, S::kTrainLossBaseline, QStringLiteral("augmented MLP (scaled units)"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.caption =
        QStringLiteral("Losses without their constants, per epoch. Test RMSE of the mean (vs the noise-free "
                       "tensors): model %1, Gaussian NLL %2, isotropic %3, augmented MLP %4.")
            .arg(num(fig::metric(d, M::kRmseModel)), num(fig::metric(d, M::kRmseGauss)),
                 num(fig::metric(d, M::kRmseIsotropic)), num(fig::metric(d, M::kRmseBaseline)));
}

void coverage(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, S::kCoverage);
    f.chart.yLabel = fig::ylabel(d, S::kCoverage);
    f.chart.series << fig::series(d, S::kCoverage, QStringLiteral("observed"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    SeriesSpec ideal;
    ideal.name = QStringLiteral("ideal");
    ideal.x = {0, 1};
    ideal.y = {0, 1};
    ideal.dashed = true;
    ideal.colorIndex = 7;
    f.chart.series << ideal;
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral(
                    "Share of test targets inside the predicted Mahalanobis ellipsoid of each nominal level "
                    "(quantiles of q under the selected family). At 90 %: %1.")
                    .arg(num(fig::metric(d, M::kCoverage90)));
}

void irrepPower(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* p = fig::vector(d, V::kIrrepPowerMean);
    f.chart.yLabel = QStringLiteral("mean ‖P_l S‖²_F over the rows");
    f.chart.logY = true;
    if (p)
        f.chart.series << fig::bars(*p, QStringLiteral("irrep power of S"), 0);
    f.chart.categories = {QStringLiteral("l = 0 (dim %1)").arg(fig::metric(d, M::kIrrepDim0)),
                          QStringLiteral("l = 2 (dim %1)").arg(fig::metric(d, M::kIrrepDim2)),
                          QStringLiteral("l = 4 (dim %1)").arg(fig::metric(d, M::kIrrepDim4))};
    f.caption =
        QStringLiteral("How much of the predicted log-covariance lies in each irreducible part of sym(6) "
                       "(Casimir eigenspaces). Smallest eigenvalue of Σ over the rows: %1.")
            .arg(num(fig::metric(d, M::kMinEigenvalue)));
}

SeriesSpec histogram(const std::vector<double>& v, const QString& name, int color, double lo, double hi,
                     int bins) {
    SeriesSpec s;
    s.name = name;
    s.style = SeriesSpec::Style::Step;
    s.colorIndex = color;
    QVector<double> counts(bins, 0);
    for (double x : v) {
        const int b = std::clamp(int((x - lo) / (hi - lo) * bins), 0, bins - 1);
        counts[b] += 1;
    }
    for (int b = 0; b < bins; ++b) {
        s.x << lo + (hi - lo) * b / bins;
        s.y << counts[b];
    }
    return s;
}

void equivarianceErrors(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* e = fig::vector(d, V::kEquivarianceErrors);
    const std::vector<double>* b = fig::vector(d, V::kBaselineEquivarianceErrors);
    f.chart.xLabel = QStringLiteral("log10 relative error");
    f.chart.yLabel = QStringLiteral("trials");
    auto logs = [](const std::vector<double>* v) {
        std::vector<double> l;
        if (v)
            for (double x : *v)
                l.push_back(std::log10(std::max(x, 1e-17)));
        return l;
    };
    f.chart.series << histogram(logs(e), QStringLiteral("equivariant model"), 0, -17, 1, 36)
                   << histogram(logs(b), QStringLiteral("augmented MLP"), 1, -17, 1, 36);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, -10, QStringLiteral("1e-10")};
    f.caption =
        QStringLiteral("100 random rotations, reflections and translations of test clouds: largest error %1 "
                       "(model) vs %2 (baseline).")
            .arg(num(fig::metric(d, M::kEquivarianceError)),
                 num(fig::metric(d, M::kBaselineEquivarianceError)));
}

void logdetOod(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* a = fig::vector(d, V::kLogdetId);
    const std::vector<double>* b = fig::vector(d, V::kLogdetOod);
    f.chart.xLabel = QStringLiteral("log det Σ = tr S");
    f.chart.yLabel = QStringLiteral("test clouds");
    if (a && b && !a->empty() && !b->empty()) {
        const double lo =
            std::min(*std::min_element(a->begin(), a->end()), *std::min_element(b->begin(), b->end()));
        const double hi =
            std::max(*std::max_element(a->begin(), a->end()), *std::max_element(b->begin(), b->end()));
        f.chart.series << histogram(*a, QStringLiteral("in distribution"), 0, lo, hi + 1e-9, 30)
                       << histogram(*b, QStringLiteral("out of distribution (larger shapes)"), 1, lo,
                                    hi + 1e-9, 30);
    }
    f.caption = QStringLiteral("The predicted uncertainty as an OOD score: AUROC %1.")
                    .arg(num(fig::metric(d, M::kOodAuroc)));
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<EquivariantCovarianceEngine>({
        {"scene3d", FigureKind::Scene3D, "Cloud, mean and sampled ellipsoids (3D)", scene3d},
        {"training_curves", FigureKind::Chart, "Training curves", trainingCurves},
        {"coverage", FigureKind::Chart, "Coverage vs nominal", coverage},
        {"irrep_power", FigureKind::Chart, "Irrep power of S", irrepPower},
        {"equivariance_errors", FigureKind::Chart, "Equivariance errors", equivarianceErrors},
        {"logdet_ood", FigureKind::Chart, "log det Sigma, ID vs OOD", logdetOod},
    });
    return def;
}

} // namespace pl::equicov
