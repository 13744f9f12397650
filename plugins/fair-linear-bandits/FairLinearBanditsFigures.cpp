// The fair-linear-bandits panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json) and one builder per figure. Builders read the result only through pl::fig lookups
// with the engine's key constants.
#include "bandits/FairLinearBanditsEngine.h"
#include "bandits/FairLinearBanditsKeys.h"
#include "bandits/LinearBandits.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::fairfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = bandits::fair::keys;
using bandits::LinearAlgorithm;

namespace {

QString name(LinearAlgorithm a) {
    return QString::fromStdString(bandits::algorithmName(a));
}

std::string algKey(LinearAlgorithm a) {
    return bandits::algorithmKey(a);
}

void regretVsT(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("horizon T (rounds)");
    f.chart.yLabel =
        QStringLiteral("p-mean regret R_p (p = %1)").arg(QString::fromStdString(fig::param(d, K::param::kP)));
    f.chart.logX = f.chart.logY = true;
    QString slopes;
    int colour = 0;
    for (LinearAlgorithm a : bandits::allLinearAlgorithms()) {
        if (a == LinearAlgorithm::Oracle) {
            ++colour;
            continue;
        }
        const std::string key = K::key(K::series::kRegretVsTPrefix, algKey(a));
        f.chart.series << fig::series(d, key, name(a), SeriesSpec::Style::LineWithPoints, colour++);
        const Series* s = fig::seriesData(d, key);
        if (s && s->x.size() >= 2 && s->y.front() > 0 && s->y.back() > 0) {
            const double sl = std::log(s->y.back() / s->y.front()) / std::log(s->x.back() / s->x.front());
            slopes += QStringLiteral("%1 %2, ").arg(name(a)).arg(sl, 0, 'f', 2);
        }
    }
    f.caption = QStringLiteral("Regret at horizons T/16 ... T, each a fresh set of runs; a slope below 1 "
                               "is sublinear. Slopes (first to last point): %1the oracle has zero regret.")
                    .arg(slopes);
}

void regretVsP(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("p");
    f.chart.yLabel = QStringLiteral("p-mean regret R_p at T");
    int colour = 0;
    for (LinearAlgorithm a : bandits::allLinearAlgorithms()) {
        if (a == LinearAlgorithm::Oracle) {
            ++colour;
            continue;
        }
        f.chart.series << fig::series(d, K::key(K::series::kRegretVsPPrefix, algKey(a)), name(a),
                                      SeriesSpec::Style::LineWithPoints, colour++);
    }
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, 0, QStringLiteral("Nash (p = 0)")};
    f.caption = QStringLiteral("R_p = mu* - M_p of the expected rewards, p = 1: average regret, p = 0: Nash "
                               "regret, p below 0: more egalitarian. mu* = %1.")
                    .arg(fig::metric(d, K::metric::kMuStar), 0, 'g', 4);
}

void expectedReward(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("round t");
    f.chart.yLabel = QStringLiteral("expected reward E[mu(x_t)]");
    f.chart.logX = true;
    int colour = 0;
    for (LinearAlgorithm a : bandits::allLinearAlgorithms())
        f.chart.series << fig::series(d, K::key(K::series::kExpectedRewardPrefix, algKey(a)), name(a),
                                      SeriesSpec::Style::Line, colour++);
    for (auto& s : f.chart.series)
        s.lineWidth = 1.2;
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, fig::metric(d, K::metric::kPhase1Length),
                                       QStringLiteral("end of fair phase")};
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, fig::metric(d, K::metric::kFairFloor),
                                       QStringLiteral("floor t*")};
    f.caption = QStringLiteral("Mean of mu(x_t) over the paired runs (log t). The fair phase (to the "
                               "marker) keeps every round's expected reward above the floor design's level; "
                               "LinUCB's early exploration dips below it.");
}

void pulls(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* mu = fig::vector(d, K::vector::kArmMu);
    f.chart.xLabel = QStringLiteral("arm rank by mean (1 = best)");
    f.chart.yLabel = QStringLiteral("mean pulls per run");
    f.chart.logY = true;
    if (!mu)
        return;
    std::vector<int> order(mu->size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return (*mu)[size_t(a)] > (*mu)[size_t(b)]; });
    int colour = 0;
    for (LinearAlgorithm a : bandits::allLinearAlgorithms()) {
        const int c = colour++;
        if (a == LinearAlgorithm::Oracle || a == LinearAlgorithm::Uniform)
            continue;
        const std::vector<double>* p = fig::vector(d, K::key(K::vector::kPullsPrefix, algKey(a)));
        if (!p || p->size() != mu->size())
            continue;
        SeriesSpec s;
        s.name = name(a);
        s.style = SeriesSpec::Style::Line;
        s.colorIndex = c;
        s.lineWidth = 1.5;
        for (size_t i = 0; i < order.size(); ++i) {
            s.x << double(i + 1);
            s.y << (*p)[size_t(order[i])];
        }
        f.chart.series << s;
    }
    f.caption = QStringLiteral("How often each arm was pulled, arms sorted by their true mean: good learners "
                               "concentrate on the first ranks; the fair phase spreads pulls over the "
                               "design's support.");
}

void armCloud(const ResultDocument& d, FigureSpec& f) {
    gui::SceneSpec& s = f.scene;
    const Matrix* c = fig::matrix(d, K::matrix::kArmCoords);
    const std::vector<double>* w = fig::vector(d, K::vector::kDesignWeights);
    const std::vector<double>* mu = fig::vector(d, K::vector::kArmMu);
    const Matrix* fc = fig::matrix(d, K::matrix::kFloorCoords);
    if (!c || !w || !mu || c->cols != 3 || size_t(c->rows) != w->size() || w->size() != mu->size()) {
        s.message = QStringLiteral("The result has no arm coordinates with design weights.");
        return;
    }
    double span = 1e-9;
    for (double v : c->data)
        span = std::max(span, std::fabs(v));
    const double wmax = std::max(1e-12, *std::max_element(w->begin(), w->end()));
    gui::SphereSetSpec arms;
    arms.style.name = QStringLiteral("arms (size: G-optimal design weight)");
    for (int64_t i = 0; i < c->rows; ++i) {
        const gui::Vec3 p(float(c->at(i, 0) / span), float(c->at(i, 1) / span), float(c->at(i, 2) / span));
        arms.centers << p;
        arms.radii << 0.015 + 0.07 * std::sqrt((*w)[size_t(i)] / wmax);
        arms.values << (*mu)[size_t(i)];
        arms.labels << QStringLiteral("arm %1: mu %2, weight %3")
                           .arg(i + 1)
                           .arg((*mu)[size_t(i)], 0, 'g', 3)
                           .arg((*w)[size_t(i)], 0, 'g', 3);
    }
    s.spheres << arms;
    if (fc && fc->rows == 1 && fc->cols == 3) {
        gui::SphereSetSpec floor;
        floor.style.name = QStringLiteral("floor design mean arm");
        floor.style.color = gui::Rgba(230, 60, 40);
        const gui::Vec3 p(float(fc->at(0, 0) / span), float(fc->at(0, 1) / span), float(fc->at(0, 2) / span));
        floor.centers << p;
        floor.radius = 0.06;
        s.spheres << floor;
        s.labels << gui::SceneLabelSpec{p + gui::Vec3(0, 0, 0.1f), QStringLiteral("floor centre")};
    }
    s.colorBarTitle = QStringLiteral("mean mu");
    f.caption =
        QStringLiteral("Arms in their first three principal components, coloured by mean reward; sphere "
                       "size is the G-optimal design weight (g_max = %1). Red: the floor design's mean "
                       "arm (floor t* = %2).")
            .arg(fig::metric(d, K::metric::kDesignGmax), 0, 'g', 4)
            .arg(fig::metric(d, K::metric::kFairFloor), 0, 'g', 3);
}

void designConvergence(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("Frank-Wolfe iteration");
    f.chart.yLabel = QStringLiteral("g / d - 1");
    f.chart.logY = true;
    f.chart.series << fig::series(d, K::series::kDesignConvergence, QStringLiteral("g_max / d - 1"));
    const double eps = std::stod(fig::param(d, K::param::kDesignEps));
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, eps, QStringLiteral("eps (stop)")};
    f.caption = QStringLiteral("Fedorov-Wynn steps towards the Kiefer-Wolfowitz optimum g = d; stopped at "
                               "g ≤ d(1 + eps) after %1 steps.")
                    .arg(fig::metric(d, K::metric::kDesignIterations), 0, 'f', 0);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<bandits::FairLinearBanditsEngine>({
        {"regret_vs_T", FigureKind::Chart, "p-mean regret vs horizon (log-log)", regretVsT},
        {"regret_vs_p", FigureKind::Chart, "p-mean regret vs p", regretVsP},
        {"expected_reward", FigureKind::Chart, "Expected reward per round", expectedReward},
        {"pulls", FigureKind::Chart, "Arm pulls", pulls},
        {"arm_cloud", FigureKind::Scene3D, "Arm cloud with design weights (3D)", armCloud},
        {"design_convergence", FigureKind::Chart, "Frank-Wolfe convergence (g/d)", designConvergence},
    });
    return def;
}

} // namespace pl::fairfig
