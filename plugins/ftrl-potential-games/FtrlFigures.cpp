#include "FtrlFigures.h"

#include "sdk/FigureHelpers.h"

#include <QFile>
#include <cmath>
#include <stdexcept>

namespace pl::ftrl {

using gui::FigureKind;
using gui::SeriesSpec;


namespace {

QString labelOr(const QString& s, const char* fallback) { return s.isEmpty() ? QString::fromUtf8(fallback) : s; }

std::string paramText(const ResultDocument& d, const char* key) {
    for (const auto& [k, v] : d.params)
        if (k == key)
            return toString(v);
    return {};
}

/// The 2x2x2 three-player game as a cube of mixed profiles: x, y, z = P(strategy 1) of players
/// 1, 2, 3. Corners are the pure profiles, coloured by the potential (matrices.potential, when the
/// engine provides it for N players) or else by player 1's payoff (matrices.payoff, columns =
/// the other players' profiles in Gambit order); the faces interpolate the corner colours; the
/// trajectory of the selected dynamics (series trajectory_x/_y/_z) is a tube coloured by time.
gui::FigureSpec cubeFigure(const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = QStringLiteral("cube3d");
    f.title = QStringLiteral("Mixed profiles of the 2×2×2 game");
    f.kind = FigureKind::Scene3D;
    gui::SceneSpec& s = f.scene;
    const auto tx = d.series.find("trajectory_x"), ty = d.series.find("trajectory_y"),
               tz = d.series.find("trajectory_z");
    const auto pay = d.matrices.find("payoff");
    const auto x = d.vectors.find("x"), y = d.vectors.find("y"), z = d.vectors.find("strategy_3");
    if (tz == d.series.end() || tx == d.series.end() || ty == d.series.end()) {
        s.message = QStringLiteral("This 3D view needs a three-player game with two strategies per player "
                                   "(2×2×2). Load one as a .nfg file (for example an identical-interest "
                                   "game); the current game has two players.");
        return f;
    }
    const bool twoByTwoByTwo = x != d.vectors.end() && y != d.vectors.end() && z != d.vectors.end() &&
                               x->second.size() == 2 && y->second.size() == 2 && z->second.size() == 2 &&
                               d.vectors.count("strategy_4") == 0;
    if (!twoByTwoByTwo) {
        s.message = QStringLiteral("This 3D view needs exactly three players with two strategies each "
                                   "(2×2×2); the loaded game has a different shape.");
        return f;
    }
    // Corner values: the potential if the engine exports it, else player 1's payoff.
    const auto pot = d.matrices.find("potential");
    const bool usePotential = pot != d.matrices.end() && pot->second.rows == 2 && pot->second.cols == 4;
    const Matrix* m = usePotential ? &pot->second : (pay != d.matrices.end() ? &pay->second : nullptr);
    if (!m || m->rows != 2 || m->cols != 4) {
        s.message = QStringLiteral("The result has no 2 × 4 payoff matrix (matrices.payoff) for the cube's "
                                   "corners.");
        return f;
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
    const size_t n = std::min({tx->second.y.size(), ty->second.y.size(), tz->second.y.size()});
    const std::string dyn = paramText(d, "dynamics");
    gui::PolylineSpec traj;
    traj.style.name = QStringLiteral("trajectory (%1)").arg(QString::fromStdString(dyn.empty() ? "dynamics" : dyn));
    traj.style.colormap = QStringLiteral("viridis");
    traj.style.colorBarTitle = QStringLiteral("log10 time");
    traj.radius = 0.016;
    for (size_t i = 0; i < n; ++i) {
        const double px = tx->second.y[i], py = ty->second.y[i], pz = tz->second.y[i];
        if (!std::isfinite(px) || !std::isfinite(py) || !std::isfinite(pz))
            continue;
        traj.points << gui::Vec3(float(px), float(py), float(pz));
        const double step = i < tx->second.x.size() ? tx->second.x[i] : double(i);
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
    f.caption = QStringLiteral("Each point of the cube is a mixed profile: the probability that players 1, 2 "
                               "and 3 play their strategy 1. "
                               "Corners: pure profiles coloured by %1%2. The tube is the iterate of the selected "
                               "dynamics, coloured by log time; long stays near a corner are its periods.")
                    .arg(valueName,
                         usePotential ? QString()
                                      : QStringLiteral(" (the engine exports no N-player potential matrix)"));
    return f;
}

} // namespace

gui::FigureSpec buildFigure(const QString& id, const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = id;
    f.kind = FigureKind::Chart;
    if (id == QLatin1String("steps_vs_n")) {
        f.title = QStringLiteral("Steps to equilibrium vs number of strategies n");
        f.chart.xLabel = QStringLiteral("n (strategies per player)");
        f.chart.yLabel = QStringLiteral("steps until the equilibrium profile is reached");
        f.chart.logY = true;
        if (fig::hasSeries(d, "steps_vs_n_fp"))
            f.chart.series << fig::series(d, "steps_vs_n_fp", QStringLiteral("fictitious play (exact)"),
                                          SeriesSpec::Style::LineWithPoints, 0);
        if (fig::hasSeries(d, "steps_vs_n_ftrl"))
            f.chart.series << fig::series(d, "steps_vs_n_ftrl", QStringLiteral("FTRL (selected dynamics)"),
                                          SeriesSpec::Style::LineWithPoints, 1);
        if (fig::hasSeries(d, "steps_vs_n_best_response"))
            f.chart.series << fig::series(d, "steps_vs_n_best_response", QStringLiteral("alternating best response"),
                                          SeriesSpec::Style::LineWithPoints, 2);
        f.caption = QStringLiteral("On the built-in snake construction. A straight line on this log axis is "
                                   "exponential growth; a line that bends upwards is faster than exponential.");
    } else if (id == QLatin1String("nash_gap")) {
        f.title = QStringLiteral("Nash gap of the iterate");
        f.chart.xLabel = labelOr(fig::xlabel(d, "nash_gap_vs_iteration"), "iteration");
        f.chart.yLabel = QStringLiteral("Nash gap (largest gain from a unilateral deviation)");
        f.chart.logX = true;
        f.chart.logY = true;
        f.chart.series << fig::series(d, "nash_gap_vs_iteration", QStringLiteral("Nash gap"), SeriesSpec::Style::Line, 0);
        f.caption = QStringLiteral("Plateaus are periods during which the iterate sits near one pure profile.");
    } else if (id == QLatin1String("potential")) {
        f.title = QStringLiteral("Potential of the iterate");
        f.chart.xLabel = labelOr(fig::xlabel(d, "potential_vs_iteration"), "iteration");
        f.chart.yLabel = QStringLiteral("potential Φ(x, y)");
        f.chart.logX = true;
        f.chart.series << fig::series(d, "potential_vs_iteration", QStringLiteral("potential"), SeriesSpec::Style::Line, 2);
        f.caption = QStringLiteral("The potential climbs the improvement path step by step, one period at a time.");
    } else if (id == QLatin1String("trajectory")) {
        f.title = QStringLiteral("Trajectory of the iterates");
        f.chart.xLabel = labelOr(fig::xlabel(d, "trajectory_xy"), "row player") +
                         QStringLiteral(": 1 − E[index]/(n−1)");
        f.chart.yLabel = labelOr(fig::ylabel(d, "trajectory_xy"), "column player") +
                         QStringLiteral(": 1 − E[index]/(n−1)");
        f.chart.series << fig::series(d, "trajectory_xy", QStringLiteral("iterate"), SeriesSpec::Style::LineWithPoints, 4);
        f.chart.fixedYRange = true;
        f.chart.yMin = -0.02;
        f.chart.yMax = 1.02;
        f.caption = QStringLiteral("Each point is a recorded iterate (log-spaced in time). Each axis maps a mixed "
                                   "strategy to 1 − E[index]/(n−1): 1 is the first strategy, 0 the last; for 2×2 "
                                   "games this is the probability of the first strategy.");
    } else if (id == QLatin1String("periods")) {
        f.title = QStringLiteral("Fictitious play: length of each period");
        f.chart.xLabel = QStringLiteral("period (profile on the improvement path)");
        f.chart.yLabel = QStringLiteral("period length (plays)");
        f.chart.logY = true;
        f.chart.series << fig::series(d, "fp_period_length", QStringLiteral("exact fictitious play"),
                                      SeriesSpec::Style::LineWithPoints, 0);
        f.caption = QStringLiteral("Each period has to outlast the whole history before it: the lengths grow "
                                   "geometrically or faster along the improvement path of the snake.");
    } else if (id == QLatin1String("eta_sweep")) {
        f.title = QStringLiteral("Entropic FTRL: steps to the equilibrium vs learning rate");
        f.chart.xLabel = QStringLiteral("learning rate η (1/payoff)");
        f.chart.yLabel = QStringLiteral("steps until ≥ 0.99 mass on (n, n)");
        f.chart.logX = true;
        f.chart.logY = true;
        f.chart.series << fig::series(d, "ftrl_steps_vs_eta_n3", QStringLiteral("n = 3"), SeriesSpec::Style::LineWithPoints, 0);
        f.chart.series << fig::series(d, "ftrl_steps_vs_eta_n4", QStringLiteral("n = 4"), SeriesSpec::Style::LineWithPoints, 1);
        f.caption = QStringLiteral("The paper's lower bound holds for every learning rate on its construction. On "
                                   "our snake small η mixes enough to escape quickly: compare the curves at small "
                                   "and large η.");
    } else if (id == QLatin1String("payoff")) {
        f.title = QStringLiteral("Payoff matrix of the row player");
        f.kind = FigureKind::Heatmap;
        f.heatmap = fig::heatmap(d, "payoff");
        f.heatmap.colormap = QStringLiteral("viridis");
        f.heatmap.unit = QStringLiteral("payoff");
        f.heatmap.rowTitle = QStringLiteral("row strategy");
        f.heatmap.colTitle = QStringLiteral("column strategy");
        if (auto xs = d.vectors.find("x"); xs != d.vectors.end())
            f.heatmap.highlightRows = fig::support(xs->second, 0.01);
        if (auto ys = d.vectors.find("y"); ys != d.vectors.end())
            f.heatmap.highlightCols = fig::support(ys->second, 0.01);
        f.caption = QStringLiteral("Outlined: strategies holding at least 1% of the final mixed strategies.");
    } else if (id == QLatin1String("cube3d")) {
        return cubeFigure(d);
    } else {
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    }
    return f;
}

QString helpMarkdown() {
    QFile f(QStringLiteral(":/ftrl-potential-games/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("# ftrl-potential-games\n");
}

} // namespace pl::ftrl
