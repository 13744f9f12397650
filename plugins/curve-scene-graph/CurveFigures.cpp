#include "CurveFigures.h"

#include "sdk/FigureHelpers.h"

#include <QFile>
#include <cmath>
#include <stdexcept>

namespace pl::curvefig {

using gui::FigureKind;
using gui::SeriesSpec;

namespace {

constexpr int kBaseColor = 5; // theme palette indices
constexpr int kCurveColor = 1;

// Edge colours through the okabe-ito colour map (value k + 0.5 on a fixed 0..8 range = colour k).
constexpr double kApproaching = 1.5; // orange
constexpr double kFollowing = 2.5;   // sky blue
constexpr double kContext = 3.5;     // green

const char* kTypeNames[] = {"car", "pedestrian", "cyclist", "background", "weather"};

double attr(const std::map<std::string, double>& a, const char* k, double def = std::nan("")) {
    auto it = a.find(k);
    return it == a.end() ? def : it->second;
}

const Graph* shownGraph(const ResultDocument& d, int* index) {
    for (const auto& [key, g] : d.graphs)
        if (key.rfind("scene_", 0) == 0) {
            *index = std::atoi(key.c_str() + 6);
            return &g;
        }
    return nullptr;
}

/// Two copies of the scene, ground truth above and the model's prediction below.
/// model: "baseline" or "curve".
gui::GraphSpec sceneGraphSpec(const Graph& g, double highSigma, const std::string& model) {
    gui::GraphSpec s;
    s.layout = gui::GraphLayout::Given;
    s.directed = true;
    s.colormap = QStringLiteral("okabe-ito");
    s.fixedRange = true;
    s.vMin = 0;
    s.vMax = 8;
    s.edgeWidth = 4.0;
    s.nodeRadius = 5.0;
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    for (const GraphNode& n : g.nodes)
        if (attr(n.attrs, "type") != 4) {
            xmin = std::min(xmin, attr(n.attrs, "x", 0));
            xmax = std::max(xmax, attr(n.attrs, "x", 0));
            ymin = std::min(ymin, -attr(n.attrs, "y", 0));
            ymax = std::max(ymax, -attr(n.attrs, "y", 0));
        }
    if (xmin > xmax)
        xmin = xmax = ymin = ymax = 0;
    const double height = std::max(10.0, ymax - ymin) + 12.0; // room for the panel title row
    const int n = int(g.nodes.size());
    const bool curve = model == "curve";
    const QString title[] = {QStringLiteral("ground truth"), curve ? QStringLiteral("CURVE prediction")
                                                                   : QStringLiteral("baseline prediction")};
    for (int c = 0; c < 2; ++c)
        for (const GraphNode& gn : g.nodes) {
            gui::GraphNodeSpec ns;
            const int type = int(attr(gn.attrs, "type", 0));
            ns.id = title[c] + QLatin1Char(':') + QString::fromStdString(gn.label);
            ns.label = QString::fromStdString(gn.label);
            if (type == 4) { // weather: a node at the top right of the panel
                ns.x = xmax;
                ns.y = ymin - 6 + c * height;
                ns.label +=
                    attr(gn.attrs, "rain", 0) > 0.5 ? QStringLiteral(" (rain)") : QStringLiteral(" (dry)");
            } else {
                ns.x = attr(gn.attrs, "x", 0);
                ns.y = -attr(gn.attrs, "y", 0) + c * height; // north up on screen
            }
            ns.category = type == 0 ? 0 : type == 1 ? 6 : type == 2 ? 4 : 7;
            ns.size = type >= 3 ? 0.6 : 1.2;
            ns.group = QString::fromLatin1(kTypeNames[std::clamp(type, 0, 4)]);
            s.nodes << ns;
        }
    for (int c = 0; c < 2; ++c) { // panel titles: label-only nodes
        gui::GraphNodeSpec t;
        t.id = title[c];
        t.label = title[c];
        t.x = xmin;
        t.y = ymin - 6 + c * height;
        t.size = 0.05;
        s.nodes << t;
    }
    auto relValue = [](double r) { return r == 1 ? kApproaching : kFollowing; };
    const char* relKey = curve ? "relation_curve" : "relation_baseline";
    const char* confKey = curve ? "confidence_curve" : "confidence_baseline";
    const char* gateKey = curve ? "gate_curve" : "gate_baseline";
    for (const GraphEdge& e : g.edges) {
        const int kind = int(attr(e.attrs, "kind", 0));
        const bool dashed = curve && attr(e.attrs, "gate_sd", 0) > highSigma;
        if (kind == 0) {
            const double truth = attr(e.attrs, "relation_true", 0);
            if (truth > 0)
                s.edges << gui::GraphEdgeSpec{int(e.source),   int(e.target), 1.0,
                                              relValue(truth), false,         true};
            const double r = attr(e.attrs, relKey, 0);
            if (r > 0)
                s.edges << gui::GraphEdgeSpec{int(e.source) + n,
                                              int(e.target) + n,
                                              attr(e.attrs, confKey, 1),
                                              relValue(r),
                                              dashed,
                                              true};
        } else {
            // Context relations: drawn where the model keeps the edge open (gate > 0.5).
            const double gate = attr(e.attrs, gateKey, 0);
            if (gate > 0.5)
                s.edges << gui::GraphEdgeSpec{
                    int(e.source) + n, int(e.target) + n, 0.5 * gate, kContext, dashed, true};
        }
    }
    s.legend << gui::GraphLegendEntry{QStringLiteral("approaching"), -1, kApproaching, true, false}
             << gui::GraphLegendEntry{QStringLiteral("following"), -1, kFollowing, true, false}
             << gui::GraphLegendEntry{QStringLiteral("context edge kept (gate > 0.5)"), -1, kContext, true,
                                      false};
    if (curve)
        s.legend << gui::GraphLegendEntry{QStringLiteral("uncertain (gate sd > ") +
                                              QString::number(highSigma) + QStringLiteral(")"),
                                          -1, std::nan(""), true, true};
    s.legend << gui::GraphLegendEntry{QStringLiteral("car"), 0, std::nan(""), false, false}
             << gui::GraphLegendEntry{QStringLiteral("pedestrian"), 6, std::nan(""), false, false}
             << gui::GraphLegendEntry{QStringLiteral("cyclist"), 4, std::nan(""), false, false}
             << gui::GraphLegendEntry{QStringLiteral("background / weather"), 7, std::nan(""), false, false};
    return s;
}

SeriesSpec boxPart(double x, double lo, double hi, const QString& name, int color, double width,
                   bool dashed) {
    SeriesSpec s;
    s.name = name;
    s.style = SeriesSpec::Style::Line;
    s.x = {x, x};
    s.y = {lo, hi};
    s.colorIndex = color;
    s.lineWidth = width;
    s.dashed = dashed;
    return s;
}

} // namespace

gui::FigureSpec buildFigure(const QString& id, const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = id;
    if (id == QLatin1String("scene_graph") || id == QLatin1String("scene_graph_baseline")) {
        const bool curve = id == QLatin1String("scene_graph");
        int k = 0;
        const Graph* g = shownGraph(d, &k);
        if (!g)
            throw std::invalid_argument("no scene graph in the result");
        f.title = QStringLiteral("OOD scene %1: ground truth vs %2")
                      .arg(k)
                      .arg(curve ? QStringLiteral("CURVE") : QStringLiteral("baseline"));
        f.kind = FigureKind::Graph;
        double thr = fig::metric(d, "high_uncertainty");
        if (!std::isfinite(thr))
            thr = 0.05;
        f.graph = sceneGraphSpec(*g, thr, curve ? "curve" : "baseline");
        f.caption = QStringLiteral(
            "Bird's-eye view (north up), the same out-of-distribution scene twice. Top: the relations given "
            "by "
            "the invariant rules. Bottom: the predicted relations and the context edges (background/weather "
            "→ "
            "agent) the model keeps open. Colour = relation, width = confidence (context edges: gate)");
        f.caption +=
            curve ? QStringLiteral(", dashed = sd of the edge gate over the T samples above the threshold.")
                  : QStringLiteral(".");
    } else if (id == QLatin1String("training_loss")) {
        f.title = QStringLiteral("Training loss");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("training step");
        f.chart.yLabel = QStringLiteral("loss (nats per agent pair)");
        f.chart.series << fig::series(d, "train_loss_baseline", QStringLiteral("baseline (cross-entropy)"),
                                      SeriesSpec::Style::Line, kBaseColor);
        f.chart.series << fig::series(d, "train_loss_curve", QStringLiteral("CURVE total"),
                                      SeriesSpec::Style::Line, kCurveColor);
        SeriesSpec ce = fig::series(d, "train_ce_curve", QStringLiteral("CURVE cross-entropy part"),
                                    SeriesSpec::Style::Line, kCurveColor);
        ce.dashed = true;
        f.chart.series << ce;
        f.caption = QStringLiteral(
            "Per mini-batch. CURVE's total adds the KL to the sparse edge prior and the "
            "structural and invariance penalties, which ramp in over the first 30 % of steps.");
    } else if (id == QLatin1String("epoch_accuracy")) {
        f.title = QStringLiteral("Accuracy during training");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("epoch");
        f.chart.yLabel = QStringLiteral("balanced relation accuracy");
        SeriesSpec a = fig::series(d, "epoch_id_accuracy_baseline", QStringLiteral("baseline ID"),
                                   SeriesSpec::Style::LineWithPoints, kBaseColor);
        SeriesSpec b = fig::series(d, "epoch_ood_accuracy_baseline", QStringLiteral("baseline OOD"),
                                   SeriesSpec::Style::LineWithPoints, kBaseColor);
        SeriesSpec c = fig::series(d, "epoch_id_accuracy_curve", QStringLiteral("CURVE ID"),
                                   SeriesSpec::Style::LineWithPoints, kCurveColor);
        SeriesSpec e = fig::series(d, "epoch_ood_accuracy_curve", QStringLiteral("CURVE OOD"),
                                   SeriesSpec::Style::LineWithPoints, kCurveColor);
        b.dashed = e.dashed = true;
        f.chart.series << a << b << c << e;
        f.caption =
            QStringLiteral("Monitor sets of up to 50 ID and 50 OOD scenes, one pass with the mean edges. "
                           "Dashed = out of distribution (flipped spurious cue, faster cars).");
    } else if (id == QLatin1String("accuracy")) {
        f.title = QStringLiteral("In- vs out-of-distribution accuracy");
        f.kind = FigureKind::Chart;
        f.chart.yLabel = QStringLiteral("balanced relation accuracy");
        f.chart.categories = {QStringLiteral("in distribution"), QStringLiteral("out of distribution")};
        f.chart.series << fig::bars(
            {fig::metric(d, "id_accuracy_baseline"), fig::metric(d, "ood_accuracy_baseline")},
            QStringLiteral("baseline (plain likelihood)"), kBaseColor);
        f.chart.series << fig::bars(
            {fig::metric(d, "id_accuracy_curve"), fig::metric(d, "ood_accuracy_curve")},
            QStringLiteral("CURVE"), kCurveColor);
        f.chart.fixedYRange = true;
        f.chart.yMin = 0;
        f.chart.yMax = 1;
        f.caption =
            QStringLiteral("Mean per-class recall over none / approaching / following on all ordered agent "
                           "pairs of the test scenes (chance = 0.33).");
    } else if (id == QLatin1String("uncertainty")) {
        f.title = QStringLiteral("Edge uncertainty: spurious vs invariant relations");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("edge group (0 = spurious, 1 = invariant)");
        f.chart.yLabel = QStringLiteral("sd of CURVE's edge gate a over T samples");
        const char* keys[] = {"box_uncertainty_spurious", "box_uncertainty_invariant"};
        const QString names[] = {QStringLiteral("spurious: context edges"),
                                 QStringLiteral("invariant: agent pairs with a true relation")};
        for (int g = 0; g < 2; ++g) {
            auto it = d.vectors.find(keys[g]);
            if (it == d.vectors.end() || it->second.size() < 6)
                continue;
            const auto& b = it->second; // min, q1, median, q3, max, mean
            const int color = g == 0 ? 6 : 2;
            f.chart.series << boxPart(g, b[0], b[4], QString(), color, 1.5, true);
            f.chart.series << boxPart(g, b[1], b[3], names[g], color, 14, false);
            SeriesSpec med;
            med.style = SeriesSpec::Style::Scatter;
            med.x = {double(g)};
            med.y = {b[2]};
            med.colorIndex = 0;
            f.chart.series << med;
        }
        f.chart.fixedXRange = true;
        f.chart.xMin = -0.6;
        f.chart.xMax = 1.6;
        f.caption =
            QStringLiteral("Box plot drawn with lines (the chart kit has no box series): thin dashed = "
                           "min–max, thick = quartiles, dot = median. Mean sd spurious %1 vs invariant %2.")
                .arg(fig::metric(d, "uncertainty_spurious"), 0, 'f', 3)
                .arg(fig::metric(d, "uncertainty_invariant"), 0, 'f', 3);
    } else if (id == QLatin1String("risk_coverage")) {
        f.title = QStringLiteral("Risk–coverage (OOD)");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = fig::xlabel(d, "risk_coverage_curve");
        f.chart.yLabel = fig::ylabel(d, "risk_coverage_curve");
        f.chart.series << fig::series(d, "risk_coverage_baseline", QStringLiteral("baseline (max softmax)"),
                                      SeriesSpec::Style::Line, kBaseColor);
        f.chart.series << fig::series(d, "risk_coverage_curve",
                                      QStringLiteral("CURVE (mean of T edge samples)"),
                                      SeriesSpec::Style::Line, kCurveColor);
        f.caption = QStringLiteral("Agent pairs of the OOD test scenes sorted by confidence; a model whose "
                                   "confidence knows its errors keeps the risk low at small coverage.");
    } else if (id == QLatin1String("adaptation")) {
        f.title = QStringLiteral("Low-data adaptation to the target domain");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("labelled target-domain scenes");
        f.chart.yLabel = QStringLiteral("balanced relation accuracy (target test)");
        f.chart.series << fig::series(d, "adaptation_baseline", QStringLiteral("baseline"),
                                      SeriesSpec::Style::LineWithPoints, kBaseColor);
        f.chart.series << fig::series(d, "adaptation_curve", QStringLiteral("CURVE"),
                                      SeriesSpec::Style::LineWithPoints, kCurveColor);
        f.caption =
            QStringLiteral("Each trained model fine-tuned on the first n labelled scenes of the sim-to-real "
                           "target domain (position/velocity noise, missed detections, flipped cue).");
    } else if (id == QLatin1String("edge_activation")) {
        f.title = QStringLiteral("Mean edge activation per relation kind");
        f.kind = FigureKind::Heatmap;
        f.heatmap = fig::heatmap(d, "edge_activation");
        f.heatmap.rowTitle = QStringLiteral("candidate edge kind");
        f.heatmap.colTitle = QStringLiteral("model and test set");
        f.heatmap.unit = QStringLiteral("mean gate a");
        f.heatmap.fixedRange = true;
        f.heatmap.vMin = 0;
        f.heatmap.vMax = 1;
        f.heatmap.annotateCells = true;
        f.caption =
            QStringLiteral("How much each kind of edge is used for message passing. CURVE should switch "
                           "the environment-specific context edges off.");
    } else {
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    }
    return f;
}

QString helpMarkdown() {
    QFile f(QStringLiteral(":/curve-scene-graph/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                       : QStringLiteral("# curve-scene-graph\n");
}

} // namespace pl::curvefig
