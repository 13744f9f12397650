// The curve-scene-graph panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "curve/CurveEngine.h"
#include "curve/CurveKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace pl::curvefig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = curve::keys;

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

/// The first graph "scene_<k>" of the result (the engine exports one OOD scene).
const Graph* shownGraph(const ResultDocument& d, int* index) {
    for (const auto& [key, g] : d.graphs)
        if (key.rfind(keys::graph::kScenePrefix, 0) == 0) {
            *index = std::atoi(key.c_str() + std::strlen(keys::graph::kScenePrefix));
            return fig::graph(d, key);
        }
    fig::ResultKeyRecorder::note(fig::ResultSection::Graph, std::string(keys::graph::kScenePrefix) + "<k>",
                                 false, false);
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
        if (attr(n.attrs, keys::attr::kType) != 4) {
            xmin = std::min(xmin, attr(n.attrs, keys::attr::kX, 0));
            xmax = std::max(xmax, attr(n.attrs, keys::attr::kX, 0));
            ymin = std::min(ymin, -attr(n.attrs, keys::attr::kY, 0));
            ymax = std::max(ymax, -attr(n.attrs, keys::attr::kY, 0));
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
            const int type = int(attr(gn.attrs, keys::attr::kType, 0));
            ns.id = title[c] + QLatin1Char(':') + QString::fromStdString(gn.label);
            ns.label = QString::fromStdString(gn.label);
            if (type == 4) { // weather: a node at the top right of the panel
                ns.x = xmax;
                ns.y = ymin - 6 + c * height;
                ns.label += attr(gn.attrs, keys::attr::kRain, 0) > 0.5 ? QStringLiteral(" (rain)")
                                                                       : QStringLiteral(" (dry)");
            } else {
                ns.x = attr(gn.attrs, keys::attr::kX, 0);
                ns.y = -attr(gn.attrs, keys::attr::kY, 0) + c * height; // north up on screen
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
    const char* relKey = curve ? keys::attr::kRelationCurve : keys::attr::kRelationBaseline;
    const char* confKey = curve ? keys::attr::kConfidenceCurve : keys::attr::kConfidenceBaseline;
    const char* gateKey = curve ? keys::attr::kGateCurve : keys::attr::kGateBaseline;
    for (const GraphEdge& e : g.edges) {
        const int kind = int(attr(e.attrs, keys::attr::kKind, 0));
        const bool dashed = curve && attr(e.attrs, keys::attr::kGateSd, 0) > highSigma;
        if (kind == 0) {
            const double truth = attr(e.attrs, keys::attr::kRelationTrue, 0);
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

void sceneGraph(const ResultDocument& d, FigureSpec& f, bool curve) {
    int k = 0;
    const Graph* g = shownGraph(d, &k);
    if (!g)
        throw std::invalid_argument("no scene graph in the result");
    double thr = fig::metric(d, keys::metric::kHighUncertainty);
    if (!std::isfinite(thr))
        thr = 0.05;
    f.graph = sceneGraphSpec(*g, thr, curve ? "curve" : "baseline");
    f.caption =
        QStringLiteral("OOD scene %1. ").arg(k) +
        QStringLiteral(
            "Bird's-eye view (north up), the same out-of-distribution scene twice. Top: the relations given "
            "by "
            "the invariant rules. Bottom: the predicted relations and the context edges (background/weather "
            "→ "
            "agent) the model keeps open. Colour = relation, width = confidence (context edges: gate)");
    f.caption +=
        curve ? QStringLiteral(", dashed = sd of the edge gate over the T samples above the threshold.")
              : QStringLiteral(".");
}

void trainingLoss(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("training step");
    f.chart.yLabel = QStringLiteral("loss (nats per agent pair)");
    f.chart.series << fig::series(d, keys::series::kTrainLossBaseline,
                                  QStringLiteral("baseline (cross-entropy)"), SeriesSpec::Style::Line,
                                  kBaseColor);
    f.chart.series << fig::series(d, keys::series::kTrainLossCurve, QStringLiteral("CURVE total"),
                                  SeriesSpec::Style::Line, kCurveColor);
    SeriesSpec ce = fig::series(d, keys::series::kTrainCeCurve, QStringLiteral("CURVE cross-entropy part"),
                                SeriesSpec::Style::Line, kCurveColor);
    ce.dashed = true;
    f.chart.series << ce;
    f.caption =
        QStringLiteral("Per mini-batch. CURVE's total adds the KL to the sparse edge prior and the "
                       "structural and invariance penalties, which ramp in over the first 30 % of steps.");
}

void epochAccuracy(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("epoch");
    f.chart.yLabel = QStringLiteral("balanced relation accuracy");
    SeriesSpec a = fig::series(d, keys::series::kEpochIdAccuracyBaseline, QStringLiteral("baseline ID"),
                               SeriesSpec::Style::LineWithPoints, kBaseColor);
    SeriesSpec b = fig::series(d, keys::series::kEpochOodAccuracyBaseline, QStringLiteral("baseline OOD"),
                               SeriesSpec::Style::LineWithPoints, kBaseColor);
    SeriesSpec c = fig::series(d, keys::series::kEpochIdAccuracyCurve, QStringLiteral("CURVE ID"),
                               SeriesSpec::Style::LineWithPoints, kCurveColor);
    SeriesSpec e = fig::series(d, keys::series::kEpochOodAccuracyCurve, QStringLiteral("CURVE OOD"),
                               SeriesSpec::Style::LineWithPoints, kCurveColor);
    b.dashed = e.dashed = true;
    f.chart.series << a << b << c << e;
    f.caption = QStringLiteral("Monitor sets of up to 50 ID and 50 OOD scenes, one pass with the mean edges. "
                               "Dashed = out of distribution (flipped spurious cue, faster cars).");
}

void accuracy(const ResultDocument& d, FigureSpec& f) {
    f.chart.yLabel = QStringLiteral("balanced relation accuracy");
    f.chart.categories = {QStringLiteral("in distribution"), QStringLiteral("out of distribution")};
    f.chart.series << fig::bars({fig::metric(d, keys::metric::kIdAccuracyBaseline),
                                 fig::metric(d, keys::metric::kOodAccuracyBaseline)},
                                QStringLiteral("baseline (plain likelihood)"), kBaseColor);
    f.chart.series << fig::bars(
        {fig::metric(d, keys::metric::kIdAccuracyCurve), fig::metric(d, keys::metric::kOodAccuracyCurve)},
        QStringLiteral("CURVE"), kCurveColor);
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("Mean per-class recall over none / approaching / following on all ordered agent "
                       "pairs of the test scenes (chance = 0.33).");
}

void uncertainty(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("edge group (0 = spurious, 1 = invariant)");
    f.chart.yLabel = QStringLiteral("sd of CURVE's edge gate a over T samples");
    const char* boxKeys[] = {keys::vector::kBoxUncertaintySpurious, keys::vector::kBoxUncertaintyInvariant};
    const QString names[] = {QStringLiteral("spurious: context edges"),
                             QStringLiteral("invariant: agent pairs with a true relation")};
    for (int g = 0; g < 2; ++g) {
        const std::vector<double>* box = fig::vector(d, boxKeys[g]);
        if (!box || box->size() < 6)
            continue;
        const auto& b = *box; // min, q1, median, q3, max, mean
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
            .arg(fig::metric(d, keys::metric::kUncertaintySpurious), 0, 'f', 3)
            .arg(fig::metric(d, keys::metric::kUncertaintyInvariant), 0, 'f', 3);
}

void riskCoverage(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, keys::series::kRiskCoverageCurve);
    f.chart.yLabel = fig::ylabel(d, keys::series::kRiskCoverageCurve);
    f.chart.series << fig::series(d, keys::series::kRiskCoverageBaseline,
                                  QStringLiteral("baseline (max softmax)"), SeriesSpec::Style::Line,
                                  kBaseColor);
    f.chart.series << fig::series(d, keys::series::kRiskCoverageCurve,
                                  QStringLiteral("CURVE (mean of T edge samples)"), SeriesSpec::Style::Line,
                                  kCurveColor);
    f.caption = QStringLiteral("Agent pairs of the OOD test scenes sorted by confidence; a model whose "
                               "confidence knows its errors keeps the risk low at small coverage.");
}

void adaptation(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("labelled target-domain scenes");
    f.chart.yLabel = QStringLiteral("balanced relation accuracy (target test)");
    f.chart.series << fig::series(d, keys::series::kAdaptationBaseline, QStringLiteral("baseline"),
                                  SeriesSpec::Style::LineWithPoints, kBaseColor);
    f.chart.series << fig::series(d, keys::series::kAdaptationCurve, QStringLiteral("CURVE"),
                                  SeriesSpec::Style::LineWithPoints, kCurveColor);
    f.caption =
        QStringLiteral("Each trained model fine-tuned on the first n labelled scenes of the sim-to-real "
                       "target domain (position/velocity noise, missed detections, flipped cue).");
}

void edgeActivation(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kEdgeActivation);
    f.heatmap.rowTitle = QStringLiteral("candidate edge kind");
    f.heatmap.colTitle = QStringLiteral("model and test set");
    f.heatmap.unit = QStringLiteral("mean gate a");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.annotateCells = true;
    f.caption = QStringLiteral("How much each kind of edge is used for message passing. CURVE should switch "
                               "the environment-specific context edges off.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<curve::CurveEngine>({
        {"scene_graph", FigureKind::Graph, "CURVE scene graph vs ground truth",
         [](const ResultDocument& d, FigureSpec& f) { sceneGraph(d, f, true); }},
        {"scene_graph_baseline", FigureKind::Graph, "Baseline scene graph vs ground truth",
         [](const ResultDocument& d, FigureSpec& f) { sceneGraph(d, f, false); }},
        {"training_loss", FigureKind::Chart, "Training loss", trainingLoss},
        {"epoch_accuracy", FigureKind::Chart, "Accuracy during training", epochAccuracy},
        {"accuracy", FigureKind::Chart, "ID vs OOD accuracy", accuracy},
        {"uncertainty", FigureKind::Chart, "Uncertainty: spurious vs invariant edges", uncertainty},
        {"risk_coverage", FigureKind::Chart, "Risk-coverage (OOD)", riskCoverage},
        {"adaptation", FigureKind::Chart, "Low-data adaptation", adaptation},
        {"edge_activation", FigureKind::Heatmap, "Edge activation per kind", edgeActivation},
    });
    return def;
}

} // namespace pl::curvefig
