// The deepha-agent panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json), and one builder per figure. Builders read the result only through pl::fig lookups.
#include "core/Numeric.h"
#include "gridworld/DeephaAgentEngine.h"
#include "gridworld/DeephaAgentKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>
#include <map>

namespace pl::deepha {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

/// True when the run trained the agents; otherwise leaves a message saying how to get the figure.
bool trained(const ResultDocument& d, FigureSpec& f) {
    if (fig::param(d, keys::param::kStage) == "full")
        return true;
    f.message = QStringLiteral("stage = plan stops before training: set stage = full and run.");
    return false;
}

double attr(const GraphNode& n, const char* key) {
    const auto it = n.attrs.find(key);
    return it == n.attrs.end() ? 0.0 : it->second;
}

const QStringList kTileNames{QStringLiteral("grass"), QStringLiteral("tree"), QStringLiteral("stone"),
                             QStringLiteral("coal"),  QStringLiteral("iron"), QStringLiteral("diamond"),
                             QStringLiteral("water")};

void gridReplay(const ResultDocument& d, FigureSpec& f) {
    if (!trained(d, f))
        return;
    const Matrix* m = fig::findMatrix(d, keys::matrix::kReplayMap);
    const Series* path = fig::findSeries(d, keys::series::kReplayPath);
    if (!m || !path || path->x.empty()) {
        f.message = QStringLiteral("No feasible task on the held-out maps: nothing to replay.");
        return;
    }
    f.chart.xLabel = QStringLiteral("column (cells)");
    f.chart.yLabel = QStringLiteral("row (cells, north up)");
    static const int kColour[] = {-1, 2, 1, 6, 3, 5, 0}; // tree, stone, coal, iron, diamond, water
    for (int code = 1; code < kTileNames.size(); ++code) {
        SeriesSpec s;
        s.name = kTileNames[code];
        s.style = SeriesSpec::Style::Scatter;
        s.colorIndex = kColour[code];
        for (int64_t r = 0; r < m->rows; ++r)
            for (int64_t c = 0; c < m->cols; ++c)
                if (int(m->data[size_t(r * m->cols + c)]) == code) {
                    s.x << double(c);
                    s.y << double(m->rows - 1 - r);
                }
        if (!s.x.isEmpty())
            f.chart.series << s;
    }
    SeriesSpec p;
    p.name = QStringLiteral("agent path");
    p.style = SeriesSpec::Style::LineWithPoints;
    p.colorIndex = 4;
    p.lineWidth = 1.5;
    for (size_t k = 0; k < path->x.size(); ++k) {
        p.x << path->x[k];
        p.y << double(m->rows - 1) - path->y[k];
    }
    SeriesSpec start;
    start.name = QStringLiteral("start @");
    start.style = SeriesSpec::Style::Scatter;
    start.colorIndex = 7;
    start.x << p.x.front();
    start.y << p.y.front();
    f.chart.series << p << start;
    f.chart.fixedXRange = f.chart.fixedYRange = true;
    f.chart.xMin = f.chart.yMin = -0.5;
    f.chart.xMax = double(m->cols) - 0.5;
    f.chart.yMax = double(m->rows) - 0.5;
    f.caption =
        QStringLiteral("The CoA-greedy agent on a held-out map (%1 steps); tiles are never used up; only "
                       "grass is walkable. Its tokens per step are in the token timeline.")
            .arg(path->x.size());
}

void tokenTimeline(const ResultDocument& d, FigureSpec& f) {
    if (!trained(d, f))
        return;
    const Matrix* tok = fig::findMatrix(d, keys::matrix::kReplayTokens);
    const Matrix* vocab = fig::findMatrix(d, keys::matrix::kVocabulary);
    if (!tok || !vocab) {
        f.message = QStringLiteral("No feasible task on the held-out maps: nothing to replay.");
        return;
    }
    // A piano roll: one row per token used (grouped by level: L3, L2, L1), one column per step;
    // a cell holds the token's level (3, 2, 1) when it was emitted at that step, 0 otherwise.
    std::map<int, int> rowOf;
    for (size_t k = 0; k < tok->data.size(); ++k)
        if (std::isfinite(tok->data[k]) && tok->data[k] >= 0 &&
            size_t(tok->data[k]) < vocab->rowLabels.size())
            rowOf[int(tok->data[k])] = 0;
    int r = 0;
    for (auto& [id, row] : rowOf)
        row = r++;
    auto& h = f.heatmap;
    h.rows = int(rowOf.size());
    h.cols = int(tok->cols);
    h.values = QVector<double>(h.rows * h.cols, 0.0);
    for (const auto& [id, row] : rowOf)
        h.rowLabels << QString::fromStdString(vocab->rowLabels[size_t(id)]);
    for (int64_t c = 0; c < tok->cols; ++c)
        h.colLabels << QString::number(c);
    for (int64_t lane = 0; lane < tok->rows; ++lane)
        for (int64_t c = 0; c < tok->cols; ++c) {
            const double v = tok->data[size_t(lane * tok->cols + c)];
            if (std::isfinite(v) && rowOf.count(int(v)))
                h.values[rowOf.at(int(v)) * h.cols + int(c)] = double(3 - lane);
        }
    h.rowTitle = QStringLiteral("token (L3, L2, L1 groups)");
    h.colTitle = QStringLiteral("step of the replayed episode");
    h.unit = QStringLiteral("level emitted (0 = not emitted)");
    h.fixedRange = true;
    h.vMin = 0;
    h.vMax = 3;
    f.caption =
        QStringLiteral("The tokens the CoA-greedy policy emitted at each step of the replayed episode "
                       "(the grid replay's path): every step has one skill (L3), one grounding (L2) and "
                       "one motor token (L1), each conditioned on the tokens above it.");
}

void successBySubgoals(const ResultDocument& d, FigureSpec& f) {
    if (!trained(d, f))
        return;
    const Matrix& m = *fig::matrix(d, keys::matrix::kSuccessBySubgoals);
    f.chart.xLabel = QStringLiteral("subgoals of the task (items in its prerequisite closure)");
    f.chart.yLabel = QStringLiteral("success rate on held-out maps");
    for (int64_t c = 0; c < m.cols; ++c) {
        SeriesSpec s;
        s.name = QString::fromStdString(m.colLabels[size_t(c)]);
        s.style = SeriesSpec::Style::LineWithPoints;
        s.colorIndex = int(c);
        s.dashed = c == 4;
        for (int64_t r = 0; r < m.rows; ++r) {
            s.x << std::stod(m.rowLabels[size_t(r)]);
            s.y << m.data[size_t(r * m.cols + c)];
        }
        f.chart.series << s;
    }
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, 4, QStringLiteral("4 subgoals")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.05;
    f.caption =
        QStringLiteral("Fraction of (task, held-out map) episodes solved within the cap. Tasks with ≥ 4 "
                       "subgoals: CoA-greedy %1, Direct %2, HA-decoupled %3, CoA-eager %4.")
            .arg(fig::metric(d, keys::metric::kSuccessCoaGreedy4), 0, 'f', 2)
            .arg(fig::metric(d, keys::metric::kSuccessDirect4), 0, 'f', 2)
            .arg(fig::metric(d, keys::metric::kSuccessHa4), 0, 'f', 2)
            .arg(fig::metric(d, keys::metric::kSuccessCoaEager4), 0, 'f', 2);
}

void contextTokens(const ResultDocument& d, FigureSpec& f) {
    if (!trained(d, f))
        return;
    f.chart.xLabel = QStringLiteral("step");
    f.chart.yLabel = QStringLiteral("context tokens per decision");
    f.chart.series << fig::series(d, keys::series::kContextFull, QStringLiteral("full history"),
                                  SeriesSpec::Style::Line, 0)
                   << fig::series(d, keys::series::kContextCompressed, QStringLiteral("compressed history"),
                                  SeriesSpec::Style::Line, 1);
    f.caption =
        QStringLiteral("History H = %1 steps; compressed keeps the last m = %2 in full and only L3 tokens "
                       "and DONE markers before. Mean %3 vs %4 tokens (−%5%), success drop %6.")
            .arg(QString::fromStdString(fig::param(d, keys::param::kHistory)))
            .arg(QString::fromStdString(fig::param(d, keys::param::kFullWindow)))
            .arg(fig::metric(d, keys::metric::kMeanContextFull), 0, 'f', 1)
            .arg(fig::metric(d, keys::metric::kMeanContextCompressed), 0, 'f', 1)
            .arg(100 * fig::metric(d, keys::metric::kContextReduction), 0, 'f', 0)
            .arg(fig::metric(d, keys::metric::kCompressionDrop), 0, 'f', 3);
}

void skillConfusion(const ResultDocument& d, FigureSpec& f) {
    if (!trained(d, f))
        return;
    f.heatmap = fig::heatmap(d, keys::matrix::kSkillConfusion);
    f.heatmap.rowTitle = QStringLiteral("expert's skill (L3)");
    f.heatmap.colTitle = QStringLiteral("CoA-greedy's skill (L3)");
    f.heatmap.unit = QStringLiteral("fraction of the row");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.caption =
        QStringLiteral("At every step of the CoA-greedy episodes, the skill the policy chose against the "
                       "expert's next skill from the same state (rows sum to 1; grey: never needed).");
}

void techTree(const ResultDocument& d, FigureSpec& f) {
    const Graph& g = *fig::graph(d, keys::graph::kTechTree);
    auto& gs = f.graph;
    gs.layout = gui::GraphLayout::Given;
    gs.directed = true;
    for (const GraphNode& n : g.nodes) {
        gui::GraphNodeSpec ns;
        ns.id = QString::fromStdString(n.label);
        ns.label = ns.id;
        ns.x = attr(n, "depth");
        ns.y = -(2.0 * attr(n, "row") + double(int(attr(n, "depth")) % 3)); // staggered labels
        ns.category = attr(n, "completed") > 0 ? 2 : 0;
        ns.size = 1.0 + 0.15 * attr(n, "subgoals");
        ns.group = QStringLiteral("%1 subgoals").arg(attr(n, "subgoals"));
        gs.nodes << ns;
    }
    for (const GraphEdge& e : g.edges) {
        gui::GraphEdgeSpec es;
        es.source = int(e.source);
        es.target = int(e.target);
        es.weight = e.weight;
        es.dashed = e.attrs.count("kind") && e.attrs.at("kind") > 0;
        gs.edges << es;
    }
    gs.legend << gui::GraphLegendEntry{QStringLiteral("held during the replay"), 2, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("never held"), 0, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("consumed input"), -1, kNaN, true, false}
              << gui::GraphLegendEntry{QStringLiteral("tool or station (kept)"), -1, kNaN, true, true};
    f.caption =
        QStringLiteral("Recipe DAG, prerequisite → product, columns by depth; node area grows with the "
                       "subgoal count (closure size).");
}

void bcLoss(const ResultDocument& d, FigureSpec& f) {
    if (!trained(d, f))
        return;
    f.chart.xLabel = QStringLiteral("Adam step");
    f.chart.yLabel = QStringLiteral("minibatch cross-entropy (nats)");
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kLossDirect, QStringLiteral("Direct (L1)"),
                                  SeriesSpec::Style::Line, 0)
                   << fig::series(d, keys::series::kLossCoa, QStringLiteral("CoA (L3, L2, L1)"),
                                  SeriesSpec::Style::Line, 2)
                   << fig::series(d, keys::series::kLossCoaCompressed,
                                  QStringLiteral("CoA, compressed context"), SeriesSpec::Style::Line, 4)
                   << fig::series(d, keys::series::kLossHaHigh, QStringLiteral("HA high level (L3)"),
                                  SeriesSpec::Style::Line, 1)
                   << fig::series(d, keys::series::kLossHaLow, QStringLiteral("HA low level (L1 | L3)"),
                                  SeriesSpec::Style::Line, 3);
    f.caption = QStringLiteral("Behaviour-cloning loss of the five MLP policies on %1 expert steps.")
                    .arg(fig::metric(d, keys::metric::kDemoSteps));
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<DeephaAgentEngine>({
        {"grid_replay", FigureKind::Chart, "Grid replay of a CoA-greedy episode", gridReplay},
        {"token_timeline", FigureKind::Heatmap, "Token timeline: L3, L2 and L1 lanes", tokenTimeline},
        {"success_by_subgoals", FigureKind::Chart, "Success by subgoals and mode", successBySubgoals},
        {"context_tokens", FigureKind::Chart, "Context tokens per step, full and compressed", contextTokens},
        {"skill_confusion", FigureKind::Heatmap, "Skill confusion of CoA-greedy", skillConfusion},
        {"tech_tree", FigureKind::Graph, "Tech-tree DAG", techTree},
        {"bc_loss", FigureKind::Chart, "Behaviour-cloning loss", bcLoss},
    });
    return def;
}

} // namespace pl::deepha
