// The behavioral-abstraction panel: its engine and figure table (ids, kinds and titles exactly as
// in paper.json), and one builder per figure. Builders read the result only through pl::fig
// lookups with the engine's key constants; they sort and colour, and compute nothing else.
#include "core/Numeric.h"
#include "mdp/BehavioralAbstractionEngine.h"
#include "mdp/BehavioralAbstractionKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <numeric>

namespace pl::mdp {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

double attrOf(const GraphNode& n, const char* key) {
    auto it = n.attrs.find(key);
    return it == n.attrs.end() ? 0.0 : it->second;
}

/// A graph figure of a result graph, nodes coloured by block, invariant states drawn larger.
void blockGraph(const Graph& g, FigureSpec& f, const QString& what) {
    auto& gs = f.graph;
    gs.layout = gui::GraphLayout::Force;
    gs.directed = true;
    int blocks = 0;
    for (const GraphNode& n : g.nodes)
        blocks = std::max(blocks, int(attrOf(n, keys::attr::kBlock)) + 1);
    const bool categorical = blocks <= 8;
    for (const GraphNode& n : g.nodes) {
        gui::GraphNodeSpec ns;
        ns.id = QString::fromStdString(n.label);
        ns.label = ns.id + (attrOf(n, keys::attr::kGoal) > 0 ? QStringLiteral("★") : QString());
        const int b = int(attrOf(n, keys::attr::kBlock));
        if (categorical)
            ns.category = b;
        else
            ns.value = b;
        ns.size = attrOf(n, keys::attr::kInvariant) > 0 ? 2.0 : 1.0;
        ns.group = QStringLiteral("block %1").arg(b);
        gs.nodes << ns;
    }
    for (const GraphEdge& e : g.edges) {
        gui::GraphEdgeSpec es;
        es.source = int(e.source);
        es.target = int(e.target);
        es.weight = e.weight;
        gs.edges << es;
    }
    if (!categorical)
        gs.colorTitle = QStringLiteral("block");
    gs.showLabels = g.nodes.size() <= 60;
    gs.legend << gui::GraphLegendEntry{QStringLiteral("large disc: in the controllable invariant"), -1, kNaN,
                                       false, false}
              << gui::GraphLegendEntry{QStringLiteral("★: goal label"), -1, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("edge width: mean P over actions"), -1, kNaN, true,
                                       false};
    f.caption = what;
}

void mdpGraph(const ResultDocument& d, FigureSpec& f) {
    blockGraph(
        *fig::graph(d, keys::graph::kMdp), f,
        QStringLiteral("Concrete MDP: one colour per block of the coarsest bisimulation (%1 blocks for %2 "
                       "states). States of one colour have equal rewards and equal mass into every block.")
            .arg(fig::metric(d, keys::metric::kBlocks))
            .arg(fig::metric(d, keys::metric::kStates)));
}

void quotientGraph(const ResultDocument& d, FigureSpec& f) {
    blockGraph(*fig::graph(d, keys::graph::kQuotient), f,
               QStringLiteral("Quotient by the coarsest bisimulation: one node per block. Commuting-square "
                              "violation %1 (an exact homomorphism has 0).")
                   .arg(fig::metric(d, keys::metric::kHomomorphismViolation), 0, 'g', 3));
}

/// State order by (block, state).
std::vector<int> blockOrder(const std::vector<int64_t>& block) {
    std::vector<int> order(block.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return block[size_t(a)] < block[size_t(b)]; });
    return order;
}

void metricHeatmap(const ResultDocument& d, FigureSpec& f) {
    const Matrix& m = *fig::matrix(d, keys::matrix::kBisimMetric);
    const std::vector<int> order = blockOrder(*fig::labels(d, keys::label::kBlock));
    auto& h = f.heatmap;
    h.rows = h.cols = int(m.rows);
    for (int r : order)
        for (int c : order)
            h.values << m.at(r, c);
    for (int r : order) {
        h.rowLabels << QString::fromStdString(m.rowLabels[size_t(r)]);
        h.colLabels << QString::fromStdString(m.colLabels[size_t(r)]);
    }
    h.rowTitle = QStringLiteral("state (sorted by block)");
    h.colTitle = QStringLiteral("state (sorted by block)");
    h.colormap = QStringLiteral("magma");
    h.unit = QStringLiteral("d(s,t)");
    f.caption =
        QStringLiteral("Ferns bisimulation metric (c_T = γ) after %1 sweeps, W1 by network simplex. Dark "
                       "squares on the diagonal are bisimulation blocks (d = 0); near-dark ones are "
                       "almost bisimilar states.")
            .arg(fig::metric(d, keys::metric::kMetricIterations));
}

/// Scatter of a series against the metric with the diagonal y = x.
void scatterWithDiagonal(const ResultDocument& d, const char* key, const QString& name, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("d(s,t)");
    f.chart.yLabel = fig::ylabel(d, key);
    f.chart.series << fig::series(d, key, name, SeriesSpec::Style::Scatter, 0);
    const double top = std::max(1e-12, fig::metric(d, keys::metric::kMaxMetric));
    SeriesSpec diag;
    diag.name = QStringLiteral("diagonal y = d");
    diag.x = {0.0, top};
    diag.y = {0.0, top};
    diag.colorIndex = 5;
    diag.dashed = true;
    f.chart.series << diag;
}

void valueGap(const ResultDocument& d, FigureSpec& f) {
    scatterWithDiagonal(d, keys::series::kValueGap, QStringLiteral("state pairs"), f);
    f.caption =
        QStringLiteral("Every pair of states under the diagonal: |V*(s) − V*(t)| ≤ d(s,t). Largest excess "
                       "%1 (≤ 1e-9 to hold).")
            .arg(fig::metric(d, keys::metric::kBoundViolation), 0, 'g', 3);
}

void formulaGap(const ResultDocument& d, FigureSpec& f) {
    scatterWithDiagonal(d, keys::series::kFormulaGap, QStringLiteral("sup over sampled formulas"), f);
    f.caption =
        QStringLiteral("For each pair, the largest |f(s) − f(t)| over the sampled modal formulas: all under "
                       "the diagonal (soundness). Mean ratio to d: %1 (1 = the samples reach the metric).")
            .arg(fig::metric(d, keys::metric::kFormulaTightness), 0, 'f', 3);
}

void invariantSets(const ResultDocument& d, FigureSpec& f) {
    const std::vector<int64_t>& block = *fig::labels(d, keys::label::kBlock);
    const std::vector<int> order = blockOrder(block);
    const std::vector<double>& reach = *fig::vector(d, keys::vector::kReachProbability);
    const std::vector<double>& inv = *fig::vector(d, keys::vector::kInvariant);
    const std::vector<double>& qinv = *fig::vector(d, keys::vector::kQuotientInvariant);
    SeriesSpec r, i, q;
    r.name = QStringLiteral("max reach probability of the goal");
    r.style = SeriesSpec::Style::LineWithPoints;
    r.colorIndex = 0;
    i.name = QStringLiteral("in the invariant (concrete)");
    i.style = SeriesSpec::Style::Step;
    i.colorIndex = 1;
    q.name = QStringLiteral("quotient invariant, pulled back");
    q.style = SeriesSpec::Style::Scatter;
    q.colorIndex = 2;
    for (size_t k = 0; k < order.size(); ++k) {
        const int s = order[k];
        r.x << double(k);
        r.y << reach[size_t(s)];
        i.x << double(k);
        i.y << inv[size_t(s)];
        q.x << double(k);
        q.y << qinv[size_t(block[size_t(s)])];
    }
    f.chart.series << r << i << q;
    f.chart.xLabel = QStringLiteral("state (sorted by block)");
    f.chart.yLabel = QStringLiteral("probability / membership");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.05;
    f.caption =
        QStringLiteral("Controllable invariant of the safe label (%1 states) and maximal reach probability "
                       "of the goal; dots: the quotient's invariant pulled back along φ (equal for an "
                       "exact homomorphism).")
            .arg(fig::metric(d, keys::metric::kInvariantSize));
}

void abstractionError(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("ε (states closer than ε merge)");
    f.chart.yLabel = QStringLiteral("max |V*(s) − V̄*(φs)|");
    f.chart.series << fig::series(d, keys::series::kAbstractionError, QStringLiteral("value error"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kAbstractionDiameterBound,
                                  QStringLiteral("2·cluster diameter/(1−γ)"), SeriesSpec::Style::Line, 1);
    SeriesSpec b = fig::series(d, keys::series::kAbstractionBound, QStringLiteral("2ε/(1−γ)"),
                               SeriesSpec::Style::Line, 5);
    b.dashed = true;
    f.chart.series << b;
    f.caption =
        QStringLiteral("Greedy ε-abstractions with uniform weights: the value error grows with ε and stays "
                       "under the bound 2·diameter/(1−γ) ≤ 2ε/(1−γ).");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<BehavioralAbstractionEngine>({
        {"mdp_graph", FigureKind::Graph, "MDP coloured by bisimulation block", mdpGraph},
        {"quotient_graph", FigureKind::Graph, "Quotient MDP", quotientGraph},
        {"metric_heatmap", FigureKind::Heatmap, "Behavioural metric sorted by block", metricHeatmap},
        {"value_gap", FigureKind::Chart, "Value gaps against the metric", valueGap},
        {"formula_gap", FigureKind::Chart, "Formula gaps against the metric", formulaGap},
        {"invariant_sets", FigureKind::Chart, "Invariant and reach probability on both systems",
         invariantSets},
        {"abstraction_error", FigureKind::Chart, "Value error of epsilon-abstractions", abstractionError},
    });
    return def;
}

} // namespace pl::mdp
