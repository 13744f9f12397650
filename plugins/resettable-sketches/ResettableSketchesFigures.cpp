// The resettable-sketches panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json) and one builder per figure. Builders read the result only through pl::fig lookups
// with the engine's key constants.
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "streams/ResettableSketchesEngine.h"
#include "streams/ResettableSketchesKeys.h"

#include <cmath>

namespace pl::sketchfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = sketches::keys;

namespace {

const char* const kNames[] = {"baseline", "robust", "switching"};

QString pct(double v) {
    return std::isfinite(v) ? QString::number(100 * v, 'f', 1) + QStringLiteral("%") : QStringLiteral("–");
}

void estimates(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("operations");
    f.chart.yLabel = QStringLiteral("F (statistic of the active keys)");
    QString cap;
    int i = 0;
    for (const char* s : K::kSketches) {
        const std::string est = K::key(K::series::kEstimatePrefix, s);
        if (fig::hasSeries(d, est)) {
            SeriesSpec truth =
                fig::series(d, K::key(K::series::kTruePrefix, s), QStringLiteral("F, %1").arg(kNames[i]),
                            SeriesSpec::Style::Line, i);
            truth.dashed = true;
            truth.lineWidth = 1.2;
            f.chart.series << truth
                           << fig::series(d, est, QStringLiteral("F̂ %1").arg(kNames[i]),
                                          SeriesSpec::Style::Line, i);
            cap += QStringLiteral(" %1: final error %2.")
                       .arg(kNames[i], pct(fig::metric(d, K::key(K::metric::kFinalErrorPrefix, s))));
        }
        ++i;
    }
    f.caption =
        QStringLiteral(
            "Solid: each sketch's answer; dashed: the true F of the stream it saw (the attack adapts to "
            "each sketch).") +
        cap;
}

void prefixError(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("operations");
    f.chart.yLabel = QStringLiteral("prefix-max error max|F̂ − F| / max F");
    QString cap;
    int i = 0;
    for (const char* s : K::kSketches) {
        const std::string key = K::key(K::series::kPrefixErrorPrefix, s);
        if (fig::hasSeries(d, key)) {
            f.chart.series << fig::series(d, key, QString::fromLatin1(kNames[i]), SeriesSpec::Style::Line, i);
            cap += QStringLiteral(" %1 %2.").arg(
                kNames[i], pct(fig::metric(d, K::key(K::metric::kPrefixMaxErrorPrefix, s))));
        }
        ++i;
    }
    f.caption = QStringLiteral("Largest absolute error so far over the largest F so far. At T:") + cap;
}

void memory(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("operations");
    f.chart.yLabel = QStringLiteral("stored entries (keys, epochs, tree nodes)");
    f.chart.logY = true;
    int i = 0;
    for (const char* s : K::kSketches) {
        const std::string key = K::key(K::series::kMemoryPrefix, s);
        if (fig::hasSeries(d, key))
            f.chart.series << fig::series(d, key, QString::fromLatin1(kNames[i]), SeriesSpec::Style::Line, i);
        ++i;
    }
    f.caption =
        QStringLiteral(
            "Log scale. Switching made %1 switches over its copies; the exact map would store %2 keys.")
            .arg(fig::metricOr(d, K::metric::kFlipsSwitching, 0), 0, 'f', 0)
            .arg(fig::hasMetric(d, K::metric::kMemoryExact)
                     ? QString::number(fig::metric(d, K::metric::kMemoryExact), 'f', 0)
                     : QStringLiteral("every active"));
}

void attackProgress(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("attack queries");
    f.chart.yLabel = QStringLiteral("attacker accuracy (running)");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    int i = 0, drawn = 0;
    for (const char* s : K::kSketches) {
        const std::string key = K::key(K::series::kAttackAccuracyPrefix, s);
        if (fig::hasSeries(d, key)) {
            f.chart.series << fig::series(d, key, QString::fromLatin1(kNames[i]), SeriesSpec::Style::Line, i);
            ++drawn;
        }
        ++i;
    }
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.5, QStringLiteral("chance")};
    f.caption = drawn
                    ? QStringLiteral(
                          "Share of queried keys the attacker classified correctly as sampled or not in the "
                          "answering level.")
                    : QStringLiteral("No attack in this run (workload is not 'attack').");
}

void tree(const ResultDocument& d, FigureSpec& f) {
    auto& gs = f.graph;
    gs.layout = gui::GraphLayout::Given;
    gs.directed = true;
    gs.colormap = QStringLiteral("diverging");
    gs.colorTitle = QStringLiteral("Laplace noise of the node");
    const Graph* g = fig::findGraph(d, K::graph::kTree);
    if (!g || g->nodes.empty()) {
        f.caption = QStringLiteral("The robust sketch did not run (f unbounded without f_cap).");
        return;
    }
    const double n = double(g->nodes.size());
    const double levels = g->nodes.front().attrs.at("level");
    double lo = 0, hi = 0;
    for (size_t k = 0; k < g->nodes.size(); ++k) {
        const GraphNode& node = g->nodes[k];
        gui::GraphNodeSpec s;
        s.id = QString::number(node.id);
        const double noise = node.attrs.at("noise");
        s.label =
            k == 0 ? QStringLiteral("released prefix")
                   : QStringLiteral("%1: %2").arg(QString::fromStdString(node.label)).arg(noise, 0, 'f', 1);
        s.x = k == 0 ? 0.5 * (n - 1) : double(k - 1);
        s.y = -node.attrs.at("level") / std::max(1.0, levels) * std::max(2.0, n - 1);
        s.value = noise;
        s.size = k == 0 ? 2.0 : 1.2;
        lo = std::min(lo, noise);
        hi = std::max(hi, noise);
        gs.nodes << s;
    }
    for (const GraphEdge& e : g->edges) {
        gui::GraphEdgeSpec es;
        es.source = int(e.source);
        es.target = int(e.target);
        gs.edges << es;
    }
    const double m = std::max(std::abs(lo), std::abs(hi));
    gs.fixedRange = true;
    gs.vMin = -m;
    gs.vMax = m;
    f.caption =
        QStringLiteral(
            "The robust sketch's answering level at operation %1 (level's step t = %2): the %3 released "
            "dyadic nodes summed for the prefix [1, t], each exact sum plus Laplace(b = %4); the top node "
            "is the released prefix %5 against the exact %6.")
            .arg(fig::metric(d, K::metric::kTreeTime), 0, 'f', 0)
            .arg(QString::fromStdString(g->nodes.front().label).section('=', 1).trimmed())
            .arg(g->nodes.size() - 1)
            .arg(fig::metric(d, K::metric::kNoiseScale), 0, 'f', 1)
            .arg(fig::metric(d, K::metric::kTreeReleased), 0, 'f', 1)
            .arg(fig::metric(d, K::metric::kTreeExact), 0, 'f', 1);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<sketches::ResettableSketchesEngine>({
        {"estimates", FigureKind::Chart, "True F and the sketches' estimates", estimates},
        {"prefix_error", FigureKind::Chart, "Prefix-max error vs operations", prefixError},
        {"memory", FigureKind::Chart, "Memory vs operations", memory},
        {"attack_progress", FigureKind::Chart, "Attacker accuracy vs queries", attackProgress},
        {"tree", FigureKind::Graph, "Binary tree nodes summed at t", tree},
    });
    return def;
}

} // namespace pl::sketchfig
