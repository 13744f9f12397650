// The bottleneck-keypoints panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "core/Numeric.h"
#include "keypoints/KeypointsEngine.h"
#include "keypoints/KeypointsKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::keypointsfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = keypoints::keys;

namespace {

struct MethodInfo {
    const char* key;
    const char* name;
    int color;
};
const MethodInfo kMethods[] = {{"kp", "keypoints", 0},
                               {"flat", "flat", 1},
                               {"time_subgoals", "time subgoals", 2},
                               {"value_subgoals", "value subgoals", 3}};

/// The maze grid and the row-major list of its free cells.
struct Grid {
    int rows = 0, cols = 0;
    std::vector<int> wall;
    std::vector<int> freeCells;
    bool valid() const { return rows > 0 && cols > 0; }
};

Grid grid(const ResultDocument& d) {
    Grid g;
    const Matrix* maze = fig::matrix(d, keys::matrix::kMaze);
    if (!maze)
        return g;
    g.rows = int(maze->rows);
    g.cols = int(maze->cols);
    for (int c = 0; c < g.rows * g.cols; ++c) {
        g.wall.push_back(maze->data[size_t(c)] != 0 ? 1 : 0);
        if (!g.wall.back())
            g.freeCells.push_back(c);
    }
    return g;
}

/// A heatmap over the maze from a per-free-cell vector (walls NaN).
gui::HeatmapSpec mazeHeatmap(const Grid& g, const std::vector<double>& perFree) {
    gui::HeatmapSpec h;
    h.rows = g.rows;
    h.cols = g.cols;
    h.values.fill(kNaN, g.rows * g.cols);
    for (size_t i = 0; i < g.freeCells.size() && i < perFree.size(); ++i)
        h.values[g.freeCells[i]] = perFree[i];
    h.rowTitle = QStringLiteral("row");
    h.colTitle = QStringLiteral("column");
    return h;
}

std::vector<double> labelsAsDouble(const ResultDocument& d, const char* key, bool negativeIsNaN) {
    std::vector<double> v;
    const std::vector<int64_t>* l = fig::labels(d, key);
    if (!l)
        return v;
    for (int64_t x : *l)
        v.push_back(negativeIsNaN && x < 0 ? kNaN : double(x));
    return v;
}

/// Graph figure with one node per wall cell (neutral squares of the maze) at its grid position.
void addWalls(gui::GraphSpec& gs, const Grid& g) {
    for (int c = 0; c < g.rows * g.cols; ++c)
        if (g.wall[size_t(c)]) {
            gui::GraphNodeSpec n;
            n.x = c % g.cols;
            n.y = c / g.cols;
            n.size = 1.2;
            n.group = QStringLiteral("wall");
            gs.nodes << n;
        }
}

int addNode(gui::GraphSpec& gs, int cell, const Grid& g, double size, int category, const QString& label,
            const QString& group, double value = kNaN) {
    gui::GraphNodeSpec n;
    n.x = cell % g.cols;
    n.y = cell / g.cols;
    n.size = size;
    n.category = category;
    n.value = value;
    n.label = label;
    n.group = group;
    n.id = QStringLiteral("(%1, %2)").arg(cell / g.cols).arg(cell % g.cols);
    gs.nodes << n;
    return int(gs.nodes.size()) - 1;
}

void keypointMap(const ResultDocument& d, FigureSpec& f) {
    const Grid g = grid(d);
    auto& gs = f.graph;
    gs.layout = gui::GraphLayout::Given;
    gs.directed = true;
    gs.nodeRadius = std::max(2.0, 220.0 / std::max(g.rows, g.cols));
    gs.showLabels = true;
    addWalls(gs, g);
    const std::vector<int64_t>* clusters = fig::labels(d, keys::label::kCluster);
    const std::vector<int64_t>* candidates = fig::labels(d, keys::label::kCandidate);
    const auto cl = clusters ? *clusters : std::vector<int64_t>{};
    const auto cand = candidates ? *candidates : std::vector<int64_t>{};
    for (size_t i = 0; i < g.freeCells.size(); ++i) {
        const int c = i < cl.size() ? int(cl[i]) : -1;
        const bool isCand = i < cand.size() && cand[i] != 0;
        addNode(gs, g.freeCells[i], g, isCand ? 0.9 : 0.45, c >= 0 ? c % 8 : -1, {},
                c >= 0 ? QStringLiteral("cluster %1%2")
                             .arg(c)
                             .arg(isCand ? QStringLiteral(", candidate") : QString())
                       : QStringLiteral("not in the dataset graph"));
    }
    if (const Graph* kp = fig::graph(d, keys::graph::kKpGraph)) {
        const int base = int(gs.nodes.size());
        for (const auto& n : kp->nodes) {
            const int cell = int(n.attrs.at(keys::attr::kRow)) * g.cols + int(n.attrs.at(keys::attr::kCol));
            addNode(gs, cell, g, 2.2, -1, QString::fromStdString(n.label), QStringLiteral("keypoint"), 1.0);
        }
        double maxInv = 0;
        for (const auto& e : kp->edges)
            maxInv = std::max(maxInv, 1.0 / std::max(1.0, e.weight));
        for (const auto& e : kp->edges) {
            gui::GraphEdgeSpec es;
            es.source = base + int(e.source);
            es.target = base + int(e.target);
            es.weight = 1.0 / std::max(1.0, e.weight); // width ∝ 1 / hop cost
            es.directed = true;
            gs.edges << es;
        }
    }
    gs.colormap = QStringLiteral("gray");
    gs.fixedRange = true;
    gs.vMin = 0;
    gs.vMax = 1;
    gs.edgeWidth = 5.0;
    gs.legend << gui::GraphLegendEntry{QStringLiteral("keypoint"), -1, 1.0, false, false}
              << gui::GraphLegendEntry{QStringLiteral("cell (cluster)"), 1, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("keypoint edge"), -1, kNaN, true, false};
    f.caption = QStringLiteral(
                    "Free cells coloured by spectral cluster (%1 clusters); larger dots are states on "
                    "logged boundary crossings, white discs the k-medoid keypoints, arrows the directed "
                    "keypoint graph estimated from the dataset (width ∝ 1/hop cost). Dark discs are walls.")
                    .arg(fig::metric(d, keys::metric::kClusters));
}

void rollout(const ResultDocument& d, FigureSpec& f) {
    const Grid g = grid(d);
    auto& gs = f.graph;
    gs.layout = gui::GraphLayout::Given;
    gs.nodeRadius = std::max(2.0, 220.0 / std::max(g.rows, g.cols));
    addWalls(gs, g);
    // Keypoints (small), the planned ones (large).
    const Graph* kp = fig::graph(d, keys::graph::kKpGraph);
    const std::vector<double>* planned = fig::vector(d, keys::vector::kRolloutPlan);
    const std::vector<double> plan = planned ? *planned : std::vector<double>{};
    if (kp)
        for (const auto& n : kp->nodes) {
            const int cell = int(n.attrs.at(keys::attr::kRow)) * g.cols + int(n.attrs.at(keys::attr::kCol));
            const bool planned = std::find(plan.begin(), plan.end(), double(cell)) != plan.end();
            addNode(gs, cell, g, planned ? 2.5 : 1.2, planned ? 1 : 5,
                    planned ? QString::fromStdString(n.label) : QString(),
                    planned ? QStringLiteral("planned keypoint") : QStringLiteral("keypoint"));
        }
    const int shownStep = std::max(0, int(fig::metric(d, keys::metric::kRolloutStep)));
    auto path = [&](const char* key, bool dashed) {
        const auto* p = fig::vector(d, key);
        if (!p || p->empty())
            return;
        // One node per visit, edges coloured by step; with a chosen step, only the path so far.
        const size_t last = shownStep > 0 ? std::min(p->size(), size_t(shownStep) + 1) : p->size();
        int prev = -1;
        for (size_t t = 0; t < last; ++t) {
            const int cell = int((*p)[t]);
            if (t > 0 && cell == int((*p)[t - 1]))
                continue;
            const int node = addNode(gs, cell, g, 0.05, -1, {}, QString::fromLatin1(key));
            if (prev >= 0) {
                gui::GraphEdgeSpec e;
                e.source = prev;
                e.target = node;
                e.value = dashed ? kNaN : double(t);
                e.dashed = dashed;
                gs.edges << e;
            }
            prev = node;
        }
    };
    path(keys::vector::kRolloutFlat, true);
    path(keys::vector::kRolloutKp, false);
    const int s = int(fig::metric(d, keys::metric::kRolloutStart)),
              goal = int(fig::metric(d, keys::metric::kRolloutGoal));
    if (s >= 0 && goal >= 0) {
        addNode(gs, s, g, 3.0, 2, QStringLiteral("start"), QStringLiteral("start"));
        addNode(gs, goal, g, 3.0, 3, QStringLiteral("goal"), QStringLiteral("goal"));
    }
    const auto* kpPath = fig::vector(d, keys::vector::kRolloutKp);
    const auto* target = fig::vector(d, keys::vector::kRolloutTargetKp);
    if (shownStep > 0 && kpPath && !kpPath->empty()) {
        const size_t t = std::min(kpPath->size() - 1, size_t(shownStep));
        if (target && !target->empty()) {
            const int sub = int((*target)[std::min(target->size() - 1, t)]);
            addNode(gs, sub, g, 1.0, 6, QStringLiteral("subgoal"), QStringLiteral("current subgoal"));
        }
        addNode(gs, int((*kpPath)[t]), g, 2.2, 4, QStringLiteral("agent, step %1").arg(t),
                QStringLiteral("agent"));
    }
    gs.colormap = QStringLiteral("viridis");
    gs.colorTitle = QStringLiteral("step");
    gs.edgeWidth = 5.0;
    gs.legend << gui::GraphLegendEntry{QStringLiteral("keypoint path"), -1, 0.5, true, false}
              << gui::GraphLegendEntry{QStringLiteral("flat path"), -1, kNaN, true, true}
              << gui::GraphLegendEntry{QStringLiteral("planned keypoint"), 1, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("other keypoint"), 5, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("start"), 2, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("goal"), 3, kNaN, false, false};
    if (shownStep > 0)
        gs.legend << gui::GraphLegendEntry{QStringLiteral("agent"), 4, kNaN, false, false}
                  << gui::GraphLegendEntry{QStringLiteral("current subgoal"), 6, kNaN, false, false};
    auto ok = [&](const char* k) {
        return fig::metric(d, k) > 0.5 ? QStringLiteral("reached") : QStringLiteral("failed");
    };
    f.caption =
        QStringLiteral(
            "One rollout from start to goal (true distance %1 steps): keypoint planner %2 in %3 "
            "steps, flat controller %4. The keypoint path's colour runs from the first step (dark) "
            "to the last (yellow). Set \"Rollout step shown\" (or play the rollout tour) to step through it.")
            .arg(fig::metric(d, keys::metric::kRolloutDistance))
            .arg(ok(keys::metric::kRolloutSuccessKp))
            .arg(fig::vector(d, keys::vector::kRolloutKp)
                     ? int(fig::vector(d, keys::vector::kRolloutKp)->size()) - 1
                     : 0)
            .arg(ok(keys::metric::kRolloutSuccessFlat));
}

/// Linked selection (issue 34): the maze heatmaps share one grid, so a cell picked in one is
/// marked (its row and column) in the others.
void linkMazeCells(FigureSpec& f) {
    f.selection.heatmapRows = QStringLiteral("maze row");
    f.selection.heatmapCols = QStringLiteral("maze column");
}

void clusters(const ResultDocument& d, FigureSpec& f) {
    linkMazeCells(f);
    const Grid g = grid(d);
    std::vector<double> v = labelsAsDouble(d, keys::label::kCluster, true);
    for (double& x : v)
        if (std::isfinite(x))
            x = std::fmod(x, 8.0);
    f.heatmap = mazeHeatmap(g, v);
    f.heatmap.colormap = QStringLiteral("okabe-ito");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = -0.5;
    f.heatmap.vMax = 7.5;
    f.heatmap.unit = QStringLiteral("cluster (mod 8)");
    f.caption =
        QStringLiteral("k-means on the row-normalised first %1 eigenvectors of the normalised Laplacian "
                       "of the dataset graph. Walls and cells the dataset never reached are blank.")
            .arg(fig::metric(d, keys::metric::kClusters));
}

void spectrum(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("index i");
    f.chart.yLabel = QStringLiteral("eigenvalue λ_i of L_sym");
    SeriesSpec s = fig::series(d, keys::series::kSpectrum, QStringLiteral("λ_i"), SeriesSpec::Style::Bars, 0);
    f.chart.series << s;
    const double k = fig::metric(d, keys::metric::kClusters);
    if (std::isfinite(k))
        f.chart.markers << gui::MarkerSpec{
            gui::MarkerSpec::Axis::X, k - 0.5,
            QStringLiteral("k = %1 (gap %2)").arg(k).arg(fig::metric(d, keys::metric::kEigengap), 0, 'g', 3)};
    f.caption =
        QStringLiteral("Smallest eigenvalues of L_sym = I − D^{-1/2} W D^{-1/2} (Spectra shift-invert "
                       "Lanczos). Nearly-zero eigenvalues count weakly connected rooms; the marker shows "
                       "the number of clusters used and the gap after it.");
}

void eigenvector(const ResultDocument& d, FigureSpec& f, int i) {
    linkMazeCells(f);
    const Grid g = grid(d);
    const auto* v = fig::vector(d, keys::vector::kEigvecPrefix + std::to_string(i));
    f.heatmap = mazeHeatmap(g, v ? *v : std::vector<double>{});
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.centreZero = true;
    f.heatmap.unit = QStringLiteral("u_%1").arg(i);
    f.caption =
        QStringLiteral("Random-walk eigenvector D^{-1/2}u_%1 (scaled to max |.| = 1) at every cell of "
                       "the dataset graph. Low-order "
                       "eigenvectors are nearly constant within a room and change sign across doors.")
            .arg(i);
}

void successVsDistance(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("start-goal distance (steps, bin centre)");
    f.chart.yLabel = QStringLiteral("success rate");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.02;
    for (const auto& m : kMethods) {
        const std::string key = std::string(keys::series::kSuccessVsDistancePrefix) + m.key;
        if (fig::hasSeries(d, key))
            f.chart.series << fig::series(
                d, key,
                QStringLiteral("%1 (%2)")
                    .arg(QString::fromLatin1(m.name))
                    .arg(fig::metric(d, std::string(keys::metric::kSuccessRatePrefix) + m.key), 0, 'f', 2),
                SeriesSpec::Style::LineWithPoints, m.color);
    }
    f.caption =
        QStringLiteral("Fraction of evaluation episodes that reach the goal within the step budget, per "
                       "bin of true shortest-path distance; overall rates in the legend.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<keypoints::KeypointsEngine>({
        {"clusters", FigureKind::Heatmap, "Maze coloured by spectral cluster", clusters},
        {"keypoint_map", FigureKind::Graph, "Candidates, keypoints and keypoint graph", keypointMap},
        {"spectrum", FigureKind::Chart, "Laplacian spectrum and eigengap", spectrum},
        {"eigvec_1", FigureKind::Heatmap, "Eigenvector 1 (Fiedler)",
         [](const ResultDocument& d, FigureSpec& f) { eigenvector(d, f, 1); }},
        {"eigvec_2", FigureKind::Heatmap, "Eigenvector 2",
         [](const ResultDocument& d, FigureSpec& f) { eigenvector(d, f, 2); }},
        {"eigvec_3", FigureKind::Heatmap, "Eigenvector 3",
         [](const ResultDocument& d, FigureSpec& f) { eigenvector(d, f, 3); }},
        {"success_vs_distance", FigureKind::Chart, "Success rate vs start-goal distance", successVsDistance},
        {"rollout", FigureKind::Graph, "Rollout of one start-goal pair", rollout},
    });
    return def;
}

} // namespace pl::keypointsfig
