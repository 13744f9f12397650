// The aporia-hallucination panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json) and one builder per figure. Builders read the result only through pl::fig lookups
// with the engine's key constants.
#include "embedgeo/AporiaEngine.h"
#include "embedgeo/AporiaKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::aporiafig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = embedgeo::aporia::keys;

namespace {

const char* const kNames[] = {"APORIA-LP", "kNN", "logreg", "LP raw", "densest cluster"};

void promptPca(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::matrix(d, K::matrix::kPromptPca);
    SeriesSpec g, h, c;
    g.name = QStringLiteral("genuine");
    h.name = QStringLiteral("hallucinated");
    c.name = QStringLiteral("centroid c_p");
    g.style = h.style = c.style = SeriesSpec::Style::Scatter;
    g.colorIndex = 2;
    h.colorIndex = 1;
    c.colorIndex = 0;
    for (int64_t r = 0; m && r < m->rows; ++r) {
        SeriesSpec& s = m->at(r, 2) == 1 ? h : g;
        s.x << m->at(r, 0);
        s.y << m->at(r, 1);
    }
    c.x << 0.0;
    c.y << 0.0;
    f.chart.series << g << h << c;
    f.chart.xLabel = QStringLiteral("PC 1 of e - c_p (cosine units)");
    f.chart.yLabel = QStringLiteral("PC 2 of e - c_p");
    f.caption = QStringLiteral(
                    "Responses to prompt %1 in the plane of their two principal axes around the "
                    "prompt centroid (origin). Genuine answers sit close together; hallucinations scatter.")
                    .arg(fig::metric(d, K::metric::kShownPrompt), 0, 'f', 0);
}

void spread(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, K::series::kSpreadGenuine);
    f.chart.yLabel = fig::ylabel(d, K::series::kSpreadGenuine);
    f.chart.series << fig::series(d, K::series::kSpreadGenuine, QStringLiteral("genuine"),
                                  SeriesSpec::Style::LineWithPoints, 2)
                   << fig::series(d, K::series::kSpreadHallucinated, QStringLiteral("hallucinated"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.caption =
        QStringLiteral("Quantiles (0, 5%, ..., 100%) of each response's distance to its prompt centroid, by "
                       "class: the box-plot summary drawn as quantile curves. Hallucination rate %1.")
            .arg(fig::metric(d, K::metric::kHallucinationRate), 0, 'f', 3);
}

void fisherHistogram(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = fig::xlabel(d, K::series::kFisherHistGenuine);
    f.chart.yLabel = fig::ylabel(d, K::series::kFisherHistGenuine);
    f.chart.series << fig::series(d, K::series::kFisherHistGenuine, QStringLiteral("genuine"),
                                  SeriesSpec::Style::Step, 2)
                   << fig::series(d, K::series::kFisherHistHallucinated, QStringLiteral("hallucinated"),
                                  SeriesSpec::Style::Step, 1);
    f.caption =
        QStringLiteral("Fisher score of every labelled response, direction fitted on the %1 seeds of the "
                       "first label draw (ridge Fisher on PCA(e - c_p) and the geometric features).")
            .arg(fig::metric(d, K::metric::kSeeds), 0, 'f', 0);
}

void f1VsLabels(const ResultDocument& d, FigureSpec& f) {
    const auto key0 = K::key(K::series::kF1VsLabelsPrefix, "aporia_lp");
    f.chart.xLabel = fig::xlabel(d, key0);
    f.chart.yLabel = fig::ylabel(d, key0);
    f.chart.logX = true;
    int i = 0;
    for (const char* m : K::kMethods) {
        f.chart.series << fig::series(d, K::key(K::series::kF1VsLabelsPrefix, m),
                                      QString::fromLatin1(kNames[i]), SeriesSpec::Style::LineWithPoints, i);
        ++i;
    }
    gui::MarkerSpec noInfo;
    noInfo.axis = gui::MarkerSpec::Axis::Y;
    noInfo.value = fig::metric(d, K::metric::kNoInformationF1);
    noInfo.label = QStringLiteral("no information (all hallucinated)");
    if (std::isfinite(noInfo.value))
        f.chart.markers << noInfo;
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.chart.fixedXRange = true;
    f.chart.xMin = 8;
    f.chart.xMax = 200;
    f.caption =
        QStringLiteral("F1 of the hallucinated class on the unlabelled responses, mean of 3 label draws per "
                       "point. With %1 labels (5 draws): APORIA-LP %2, LP on raw embeddings %3.")
            .arg(QString::fromStdString(fig::param(d, K::param::kNLabels)))
            .arg(fig::metric(d, K::metric::kF1), 0, 'f', 3)
            .arg(fig::metric(d, K::key(K::metric::kF1Prefix, "lp_raw")), 0, 'f', 3);
}

void doseResponse(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("asymmetry (vMF stand-in)");
    f.chart.yLabel = QStringLiteral("APORIA-LP F1, 40 labels");
    if (const Series* s = fig::findSeries(d, K::series::kF1VsAsymmetry)) {
        f.chart.series << fig::series(d, K::series::kF1VsAsymmetry, QStringLiteral("APORIA-LP"),
                                      SeriesSpec::Style::LineWithPoints, 0);
        (void)s;
        f.caption =
            QStringLiteral("F1 against the built-in asymmetry between tight genuine and scattered "
                           "hallucinated responses; at 0 both classes are drawn from one distribution.");
    } else {
        f.caption = QStringLiteral("The asymmetry sweep runs on the stand-in only.");
    }
    gui::MarkerSpec noInfo;
    noInfo.axis = gui::MarkerSpec::Axis::Y;
    noInfo.value = 2 * 0.3 / 1.3;
    noInfo.label = QStringLiteral("no information at rate 0.3");
    f.chart.markers << noInfo;
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
}

void lpSubgraph(const ResultDocument& d, FigureSpec& f) {
    const Graph* g = fig::graph(d, K::graph::kLpSubgraph);
    f.graph.layout = gui::GraphLayout::Given;
    f.graph.colormap = QStringLiteral("diverging");
    f.graph.colorTitle = QStringLiteral("share hallucinated");
    f.graph.fixedRange = true;
    f.graph.vMin = 0;
    f.graph.vMax = 1;
    f.graph.showLabels = false;
    for (const GraphNode& n : g ? g->nodes : std::vector<GraphNode>{}) {
        gui::GraphNodeSpec s;
        s.id = QString::fromStdString(n.label);
        s.x = n.attrs.at("x");
        s.y = -n.attrs.at("y");
        s.value = n.attrs.at("f_final");
        s.size = n.attrs.at("seed") > 0 ? 3.0 : (n.attrs.at("in_prompt") > 0 ? 1.0 : 0.4);
        s.group = n.attrs.at("truth") == 1 ? QStringLiteral("hallucinated") : QStringLiteral("genuine");
        f.graph.nodes << s;
    }
    for (const GraphEdge& e : g ? g->edges : std::vector<GraphEdge>{}) {
        gui::GraphEdgeSpec s;
        s.source = int(e.source);
        s.target = int(e.target);
        s.weight = e.weight;
        f.graph.edges << s;
    }
    gui::GraphLegendEntry seed;
    seed.label = QStringLiteral("large: seed, small: other prompt");
    f.graph.legend << seed;
    f.caption =
        QStringLiteral(
            "The APORIA-LP kNN graph around prompt %1: its responses and their neighbours from other "
            "prompts, at (Fisher score, PC 1) of the LP space; colour: hallucinated share F_h/(F_g+F_h) "
            "after %2 iterations (node attributes f_it0..5 hold earlier iterations).")
            .arg(fig::metric(d, K::metric::kShownPrompt), 0, 'f', 0)
            .arg(fig::metric(d, K::metric::kLpIterations), 0, 'f', 0);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<embedgeo::AporiaEngine>({
        {"prompt_pca", FigureKind::Chart, "Responses of one prompt (PCA)", promptPca},
        {"spread_by_class", FigureKind::Chart, "Distance to the prompt centroid by class", spread},
        {"fisher_histogram", FigureKind::Chart, "Fisher score by class", fisherHistogram},
        {"f1_vs_labels", FigureKind::Chart, "F1 vs number of labels", f1VsLabels},
        {"dose_response", FigureKind::Chart, "F1 vs asymmetry", doseResponse},
        {"lp_subgraph", FigureKind::Graph, "Label propagation on one prompt's kNN graph", lpSubgraph},
    });
    return def;
}

} // namespace pl::aporiafig
