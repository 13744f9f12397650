// The ftrl-potential-games panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "games/FtrlPotentialEngine.h"
#include "games/FtrlPotentialKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::ftrl {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

QString labelOr(const QString& s, const char* fallback) {
    return s.isEmpty() ? QString::fromUtf8(fallback) : s;
}

/// The 2x2x2 three-player game as a cube of mixed profiles: x, y, z = P(strategy 1) of players
/// 1, 2, 3. Corners are the pure profiles, coloured by the potential (matrices.potential, when the
/// engine provides it for N players) or else by player 1's payoff (matrices.payoff, columns =
/// the other players' profiles in Gambit order); the faces interpolate the corner colours; the
/// trajectory of the selected dynamics (series trajectory_x/_y/_z) is a tube coloured by time.
void cube3d(const ResultDocument& d, FigureSpec& f) {
    gui::SceneSpec& s = f.scene;
    // Two-player games (the paper defaults) have no third coordinate: the view explains that.
    const Series* tx = fig::findSeries(d, keys::series::kTrajectoryX);
    const Series* ty = fig::findSeries(d, keys::series::kTrajectoryY);
    const Series* tz = fig::findSeries(d, keys::series::kTrajectoryZ);
    const Matrix* pay = fig::matrix(d, keys::matrix::kPayoff);
    const std::vector<double>* x = fig::vector(d, keys::vector::kX);
    const std::vector<double>* y = fig::vector(d, keys::vector::kY);
    const std::vector<double>* z = fig::findVector(d, keys::vector::kStrategy3);
    if (!tz || !tx || !ty) {
        s.message = QStringLiteral("This 3D view needs a three-player game with two strategies per player "
                                   "(2×2×2). Load one as a .nfg file (for example an identical-interest "
                                   "game); the current game has two players.");
        return;
    }
    const bool twoByTwoByTwo = x && y && z && x->size() == 2 && y->size() == 2 && z->size() == 2 &&
                               !fig::findVector(d, keys::vector::kStrategy4);
    if (!twoByTwoByTwo) {
        s.message = QStringLiteral("This 3D view needs exactly three players with two strategies each "
                                   "(2×2×2); the loaded game has a different shape.");
        return;
    }
    // Corner values: the potential if the engine exports it, else player 1's payoff.
    const Matrix* pot = fig::findMatrix(d, keys::matrix::kPotential);
    const bool usePotential = pot && pot->rows == 2 && pot->cols == 4;
    const Matrix* m = usePotential ? pot : pay;
    if (!m || m->rows != 2 || m->cols != 4) {
        s.message = QStringLiteral("The result has no 2 × 4 payoff matrix (matrices.payoff) for the cube's "
                                   "corners.");
        return;
    }
    const QString valueName = usePotential ? QStringLiteral("potential") : QStringLiteral("payoff of P1");
    // Corner of pure profile (a, b, c) (0-based strategies) sits at P(strategy 1) = 1 - index.
    auto corner = [](int a, int b, int c) { return gui::Vec3(float(1 - a), float(1 - b), float(1 - c)); };
    gui::SphereSetSpec corners;
    corners.style.name = QStringLiteral("pure profiles");
    corners.radius = 0.045;
    gui::SurfaceSpec faces;
    faces.style.name = QStringLiteral("faces");
    faces.style.opacity = 0.3;
    int index[2][2][2];
    for (int c = 0; c < 2; ++c)
        for (int b = 0; b < 2; ++b)
            for (int a = 0; a < 2; ++a) {
                const double v = m->at(a, b + 2 * c);
                index[a][b][c] = int(faces.vertices.size());
                faces.vertices << corner(a, b, c);
                faces.values << v;
                corners.centers << corner(a, b, c);
                corners.values << v;
                corners.labels << QStringLiteral("(%1,%2,%3)").arg(a + 1).arg(b + 1).arg(c + 1);
                s.labels << gui::SceneLabelSpec{corner(a, b, c) + gui::Vec3(0, 0, 0.06f),
                                                QStringLiteral("(%1,%2,%3): %4")
                                                    .arg(a + 1)
                                                    .arg(b + 1)
                                                    .arg(c + 1)
                                                    .arg(QString::number(v, 'g', 4))};
            }
    // Six faces, two triangles each (fixed axis k at value 0 or 1).
    for (int k = 0; k < 3; ++k)
        for (int side = 0; side < 2; ++side) {
            int q[4];
            for (int j = 0; j < 4; ++j) {
                int idx[3];
                idx[k] = side;
                idx[(k + 1) % 3] = (j == 1 || j == 2) ? 1 : 0;
                idx[(k + 2) % 3] = j >= 2 ? 1 : 0;
                q[j] = index[idx[0]][idx[1]][idx[2]];
            }
            faces.triangles << q[0] << q[1] << q[2] << q[0] << q[2] << q[3];
        }
    s.surfaces << faces;
    s.spheres << corners;
    // Cube edges.
    for (int k = 0; k < 3; ++k)
        for (int u = 0; u < 2; ++u)
            for (int v = 0; v < 2; ++v) {
                gui::PolylineSpec e;
                e.style.name = QStringLiteral("cube edge");
                e.style.color = gui::Rgba(0x80, 0x80, 0x80);
                e.lineWidth = 1.0;
                gui::Vec3 p0, p1;
                p0[k] = 0;
                p1[k] = 1;
                p0[(k + 1) % 3] = p1[(k + 1) % 3] = float(u);
                p0[(k + 2) % 3] = p1[(k + 2) % 3] = float(v);
                e.points = {p0, p1};
                s.polylines << e;
            }
    // The trajectory, coloured by log time.
    const size_t n = std::min({tx->y.size(), ty->y.size(), tz->y.size()});
    const std::string dyn = fig::param(d, keys::param::kDynamics);
    gui::PolylineSpec traj;
    traj.style.name =
        QStringLiteral("trajectory (%1)").arg(QString::fromStdString(dyn.empty() ? "dynamics" : dyn));
    traj.style.colormap = QStringLiteral("viridis");
    traj.style.colorBarTitle = QStringLiteral("log10 time");
    traj.radius = 0.016;
    for (size_t i = 0; i < n; ++i) {
        const double px = tx->y[i], py = ty->y[i], pz = tz->y[i];
        if (!std::isfinite(px) || !std::isfinite(py) || !std::isfinite(pz))
            continue;
        traj.points << gui::Vec3(float(px), float(py), float(pz));
        const double step = i < tx->x.size() ? tx->x[i] : double(i);
        traj.values << std::log10(1.0 + std::max(0.0, step));
    }
    if (!traj.points.isEmpty()) {
        gui::SphereSetSpec ends;
        ends.style.name = QStringLiteral("start and end");
        ends.style.colorIndex = 5;
        ends.radius = 0.025;
        ends.centers = {traj.points.first(), traj.points.last()};
        ends.labels = {QStringLiteral("start"), QStringLiteral("end")};
        s.spheres << ends;
        s.polylines << traj;
    }
    // Axis names on the three edges from the all-strategy-2 corner (the origin).
    s.labels << gui::SceneLabelSpec{gui::Vec3(0.5f, -0.06f, -0.06f), QStringLiteral("player 1")}
             << gui::SceneLabelSpec{gui::Vec3(-0.06f, 0.5f, -0.06f), QStringLiteral("player 2")}
             << gui::SceneLabelSpec{gui::Vec3(-0.06f, -0.06f, 0.5f), QStringLiteral("player 3")};
    // Blue (low) to red (high): every corner stays visible on light and dark backgrounds.
    s.colormap = QStringLiteral("diverging");
    s.colorBarTitle = valueName;
    s.camera.azimuth = 35;
    s.camera.elevation = 22;
    s.camera.zoom = 0.8;
    f.caption =
        QStringLiteral("Each point of the cube is a mixed profile: the probability that players 1, 2 "
                       "and 3 play their strategy 1. "
                       "Corners: pure profiles coloured by %1%2. The tube is the iterate of the selected "
                       "dynamics, coloured by log time; long stays near a corner are its periods.")
            .arg(valueName, usePotential
                                ? QString()
                                : QStringLiteral(" (the engine exports no N-player potential matrix)"));
}

void stepsVsN(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("n (strategies per player)");
    f.chart.yLabel = QStringLiteral("steps until the equilibrium profile is reached");
    f.chart.logY = true;
    if (fig::hasSeries(d, keys::series::kStepsVsNFp))
        f.chart.series << fig::series(d, keys::series::kStepsVsNFp, QStringLiteral("fictitious play (exact)"),
                                      SeriesSpec::Style::LineWithPoints, 0);
    if (fig::hasSeries(d, keys::series::kStepsVsNFtrl))
        f.chart.series << fig::series(d, keys::series::kStepsVsNFtrl,
                                      QStringLiteral("FTRL (selected dynamics)"),
                                      SeriesSpec::Style::LineWithPoints, 1);
    if (fig::hasSeries(d, keys::series::kStepsVsNBestResponse))
        f.chart.series << fig::series(d, keys::series::kStepsVsNBestResponse,
                                      QStringLiteral("alternating best response"),
                                      SeriesSpec::Style::LineWithPoints, 2);
    f.caption = QStringLiteral("On the built-in snake construction. A straight line on this log axis is "
                               "exponential growth; a line that bends upwards is faster than exponential.");
}

void nashGap(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = labelOr(fig::xlabel(d, keys::series::kNashGapVsIteration), "iteration");
    f.chart.yLabel = QStringLiteral("Nash gap (largest gain from a unilateral deviation)");
    f.chart.logX = true;
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kNashGapVsIteration, QStringLiteral("Nash gap"),
                                  SeriesSpec::Style::Line, 0);
    f.caption = QStringLiteral("Plateaus are periods during which the iterate sits near one pure profile.");
}

void potential(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = labelOr(fig::xlabel(d, keys::series::kPotentialVsIteration), "iteration");
    f.chart.yLabel = QStringLiteral("potential Φ(x, y)");
    f.chart.logX = true;
    f.chart.series << fig::series(d, keys::series::kPotentialVsIteration, QStringLiteral("potential"),
                                  SeriesSpec::Style::Line, 2);
    f.caption =
        QStringLiteral("The potential climbs the improvement path step by step, one period at a time.");
}

void trajectory(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = labelOr(fig::xlabel(d, keys::series::kTrajectoryXy), "row player") +
                     QStringLiteral(": 1 − E[index]/(n−1)");
    f.chart.yLabel = labelOr(fig::ylabel(d, keys::series::kTrajectoryXy), "column player") +
                     QStringLiteral(": 1 − E[index]/(n−1)");
    f.chart.series << fig::series(d, keys::series::kTrajectoryXy, QStringLiteral("iterate"),
                                  SeriesSpec::Style::LineWithPoints, 4);
    f.chart.fixedYRange = true;
    f.chart.yMin = -0.02;
    f.chart.yMax = 1.02;
    f.caption =
        QStringLiteral("Each point is a recorded iterate (log-spaced in time). Each axis maps a mixed "
                       "strategy to 1 − E[index]/(n−1): 1 is the first strategy, 0 the last; for 2×2 "
                       "games this is the probability of the first strategy.");
}

void periods(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("period (profile on the improvement path)");
    f.chart.yLabel = QStringLiteral("period length (plays)");
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kFpPeriodLength, QStringLiteral("exact fictitious play"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.caption = QStringLiteral("Each period has to outlast the whole history before it: the lengths grow "
                               "geometrically or faster along the improvement path of the snake.");
}

void etaSweep(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("learning rate η (1/payoff)");
    f.chart.yLabel = QStringLiteral("steps until ≥ 0.99 mass on (n, n)");
    f.chart.logX = true;
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kFtrlStepsVsEtaN3, QStringLiteral("n = 3"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.chart.series << fig::series(d, keys::series::kFtrlStepsVsEtaN4, QStringLiteral("n = 4"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.caption =
        QStringLiteral("The paper's lower bound holds for every learning rate on its construction. On "
                       "our snake small η mixes enough to escape quickly: compare the curves at small "
                       "and large η.");
}

void payoff(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kPayoff);
    f.heatmap.colormap = QStringLiteral("viridis");
    f.heatmap.unit = QStringLiteral("payoff");
    f.heatmap.rowTitle = QStringLiteral("row strategy");
    f.heatmap.colTitle = QStringLiteral("column strategy");
    if (const auto* xs = fig::vector(d, keys::vector::kX))
        f.heatmap.highlightRows = fig::support(*xs, 0.01);
    if (const auto* ys = fig::vector(d, keys::vector::kY))
        f.heatmap.highlightCols = fig::support(*ys, 0.01);
    f.caption = QStringLiteral("Outlined: strategies holding at least 1% of the final mixed strategies.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<games::FtrlPotentialEngine>({
        {"steps_vs_n", FigureKind::Chart, "Steps to equilibrium vs n", stepsVsN},
        {"nash_gap", FigureKind::Chart, "Nash gap vs iteration", nashGap},
        {"potential", FigureKind::Chart, "Potential vs iteration", potential},
        {"trajectory", FigureKind::Chart, "Trajectory of the iterates", trajectory},
        {"periods", FigureKind::Chart, "Fictitious play period lengths", periods},
        {"eta_sweep", FigureKind::Chart, "FTRL steps vs learning rate", etaSweep},
        {"payoff", FigureKind::Heatmap, "Payoff matrix", payoff},
        {"cube3d", FigureKind::Scene3D, "Mixed profiles of a 2x2x2 game (3D)", cube3d},
    });
    return def;
}

} // namespace pl::ftrl
