// The bimetric-ann panel: its engine and figure table (ids, kinds and titles as in paper.json), and
// the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "search/BimetricAnnEngine.h"
#include "search/BimetricAnnKeys.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace pl::bimetricfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::MarkerSpec;
using gui::SeriesSpec;
namespace keys = search::bimetric::keys;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const char* kNames[] = {"bi-metric (ours)", "rerank proxy top-Q", "single metric (D graph)"};

std::string mk(const char* prefix, int m) {
    return std::string(prefix) + keys::kMethods[m];
}

void recall(const ResultDocument& d, FigureSpec& f) {
    for (int m = 0; m < 3; ++m)
        f.chart.series << fig::series(d, mk(keys::series::kRecallVsQuotaPrefix, m),
                                      QString::fromLatin1(kNames[m]), SeriesSpec::Style::LineWithPoints, m);
    f.chart.logX = true;
    f.chart.xLabel = QStringLiteral("expensive (D) calls per query, mean (log)");
    f.chart.yLabel =
        fig::ylabel(d, mk(keys::series::kRecallVsQuotaPrefix, 0)) + QStringLiteral(" vs brute force");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.02;
    const double q = std::atof(fig::param(d, keys::param::kQuota).c_str());
    f.chart.markers << MarkerSpec{MarkerSpec::Axis::X, q, QStringLiteral("Q of this run")}
                    << MarkerSpec{MarkerSpec::Axis::X, 100, QStringLiteral("Q = 100")}
                    << MarkerSpec{MarkerSpec::Axis::Y, 0.95, QStringLiteral("0.95")};
    f.caption =
        QStringLiteral("Mean recall@k over the queries against the budget of expensive calls. At Q = %1: "
                       "ours %2, rerank %3, single metric %4. Up to Q = 100 ours and rerank evaluate the "
                       "same proxy top-Q, so their curves coincide there.")
            .arg(q, 0, 'f', 0)
            .arg(fig::metric(d, mk(keys::metric::kRecallPrefix, 0)), 0, 'f', 3)
            .arg(fig::metric(d, mk(keys::metric::kRecallPrefix, 1)), 0, 'f', 3)
            .arg(fig::metric(d, mk(keys::metric::kRecallPrefix, 2)), 0, 'f', 3);
}

void explorer(const ResultDocument& d, FigureSpec& f) {
    auto& gs = f.graph;
    gs.layout = gui::GraphLayout::Given;
    gs.directed = false;
    gs.showLabels = false;
    gs.nodeRadius = 3.5;
    gs.edgeWidth = 2.0;
    gs.colormap = QStringLiteral("magma"); // path edges: 1 (stage 1) purple, 2 (stage 2) orange
    gs.fixedRange = true;
    gs.vMin = 0;
    gs.vMax = 2.6;
    const Graph* g = fig::graph(d, keys::graph::kExplorer);
    if (!g)
        return;
    // role -> (category, size, group)
    const int cat[] = {-1, 0, 1, 2, 3, 4};
    const double size[] = {0.5, 1.0, 1.4, 2.2, 4.0, 1.8};
    const QString group[] = {QStringLiteral("other point"),
                             QStringLiteral("expanded by stage 1 (proxy)"),
                             QStringLiteral("expanded by stage 2 (D)"),
                             QStringLiteral("true neighbour"),
                             QStringLiteral("query"),
                             QStringLiteral("returned, not a true neighbour")};
    for (const GraphNode& n : g->nodes) {
        gui::GraphNodeSpec s;
        const int role = int(n.attrs.at(keys::attr::kRole));
        s.x = n.attrs.at(keys::attr::kX);
        s.y = -n.attrs.at(keys::attr::kY); // screen y grows downwards
        s.category = cat[role];
        s.size = size[role];
        s.group = group[role];
        s.id = QString::fromStdString(n.label);
        const double step = n.attrs.at(keys::attr::kStep);
        s.label = step >= 0 ? QStringLiteral("step %1").arg(step) : QString();
        gs.nodes << s;
    }
    for (const GraphEdge& e : g->edges) {
        gui::GraphEdgeSpec s;
        s.source = int(e.source);
        s.target = int(e.target);
        const double kind = e.attrs.at(keys::attr::kKind);
        s.weight = kind == 0 ? 0.15 : 1.0;
        s.value = kind == 0 ? kNaN : kind;
        s.dashed = kind == 1;
        gs.edges << s;
    }
    gs.legend << gui::GraphLegendEntry{QStringLiteral("query"), 3, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("true neighbour"), 2, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("returned, wrong"), 4, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("stage 1 expansion (d)"), 0, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("stage 2 expansion (D)"), 1, kNaN, false, false}
              << gui::GraphLegendEntry{QStringLiteral("stage 1 path"), -1, 1.0, true, true}
              << gui::GraphLegendEntry{QStringLiteral("stage 2 path"), -1, 2.0, true, false};
    f.caption =
        QStringLiteral(
            "Query 1 and part of the proxy-built graph, projected on the first two principal axes of the "
            "expensive vectors: the first 40 expansions of each stage in order (dashed: proxy beam search; "
            "solid: the D-walk at Q = %1), the true neighbours, what ours returned, and random other "
            "points with the graph edges among them (thin).")
            .arg(QString::fromStdString(fig::param(d, keys::param::kQuota)));
}

void ratioHist(const ResultDocument& d, FigureSpec& f) {
    f.chart.series << fig::series(d, keys::series::kRatioHist, QStringLiteral("random base pairs"),
                                  SeriesSpec::Style::Step, 0);
    f.chart.markers << MarkerSpec{MarkerSpec::Axis::X, 1.0, QStringLiteral("median")};
    f.chart.xLabel = fig::xlabel(d, keys::series::kRatioHist);
    f.chart.yLabel = fig::ylabel(d, keys::series::kRatioHist);
    f.caption =
        QStringLiteral(
            "How far the cheap metric is from a scaled copy of the expensive one: D/d over "
            "4000 random base pairs, divided by its median (bins of 0.05). Empirical distortion max/min = %1 "
            "(99th/1st percentile: %2); 1 would be a perfect proxy.")
            .arg(fig::metric(d, keys::metric::kDistortion), 0, 'f', 1)
            .arg(fig::metric(d, keys::metric::kDistortionQ99), 0, 'f', 2);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<search::bimetric::BimetricAnnEngine>({
        {"recall", FigureKind::Chart, "Recall@10 vs expensive calls", recall},
        {"explorer", FigureKind::Graph, "Graph explorer", explorer},
        {"ratio_hist", FigureKind::Chart, "D/d histogram", ratioHist},
    });
    return def;
}

} // namespace pl::bimetricfig
