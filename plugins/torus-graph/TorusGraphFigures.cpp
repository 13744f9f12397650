// The torus-graph panel: its engine and figure table (ids, kinds and titles as in paper.json),
// and the figure builders. Pure functions of the result (thread-safe).
#include "core/Numeric.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "torusgraph/TorusGraphEngine.h"
#include "torusgraph/TorusGraphKeys.h"

#include <cmath>
#include <numbers>

namespace pl::torusgraphfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = torusgraph::keys;

namespace {

constexpr double kMaxLogP = 6.0; ///< colour scale of edge significance: −log10 p clipped at 6

QString num(double v, int prec = 3) {
    return QString::number(v, 'g', prec);
}

/// A chart that explains why it is empty.
void emptyChart(gui::FigureSpec& f, const QString& why) {
    f.kind = FigureKind::Chart;
    f.caption = why;
    f.chart.xLabel = QStringLiteral("—");
    f.chart.yLabel = QStringLiteral("—");
}

void emptyHeatmap(gui::FigureSpec& f, const QString& why) {
    f.kind = FigureKind::Heatmap;
    f.heatmap.rows = 1;
    f.heatmap.cols = 1;
    f.heatmap.values = {std::nan("")};
    f.caption = why;
}

/// Linked selection (issue 34): channels are one dimension across the network graphs and the
/// node-by-node matrices (node k of a graph = row and column k).
const QString kChannelDim = QStringLiteral("channel");

/// Node-by-node heatmap of a result matrix.
void nodeHeatmap(gui::FigureSpec& f, const ResultDocument& d, const std::string& key, const QString& unit,
                 const QString& colormap = QStringLiteral("viridis")) {
    f.kind = FigureKind::Heatmap;
    f.selection.heatmapRows = f.selection.heatmapCols = kChannelDim;
    f.heatmap = fig::heatmap(d, key);
    f.heatmap.unit = unit;
    f.heatmap.colormap = colormap;
    f.heatmap.annotateCells = f.heatmap.rows <= 10;
}

double edgeSignificance(double p) {
    if (!std::isfinite(p))
        return std::nan("");
    return std::min(kMaxLogP, -std::log10(std::max(p, 1e-300)));
}

/// The undirected coupling network: width = ‖φ_e‖, colour = −log10 p (Wald), dashed when not significant.
void couplingNetwork(const ResultDocument& d, FigureSpec& f) {
    f.kind = FigureKind::Graph;
    const Graph* g = fig::graph(d, keys::graph::kCoupling);
    if (!g)
        return;
    f.selection.graphNodes = kChannelDim;
    gui::GraphSpec& s = f.graph;
    bool given = false;
    for (const GraphNode& n : g->nodes) {
        gui::GraphNodeSpec v;
        v.id = QString::number(n.id + 1);
        v.label = QString::fromStdString(n.label);
        v.category = 0;
        const auto st = n.attrs.find(keys::attr::kStrength);
        v.size = st != n.attrs.end() ? 0.6 + 0.4 * st->second : 1.0;
        const auto x = n.attrs.find(keys::attr::kX), y = n.attrs.find(keys::attr::kY);
        if (x != n.attrs.end() && y != n.attrs.end()) {
            v.x = x->second;
            v.y = -y->second; // electrode y grows upwards, screen y downwards
            given = true;
        }
        s.nodes << v;
    }
    const double alpha = [&] {
        const ParamValue* v = fig::paramValue(d, keys::param::kAlpha);
        return v && std::holds_alternative<double>(*v) ? std::get<double>(*v) : 0.05;
    }();
    bool haveP = false;
    double wMax = 0;
    for (const GraphEdge& e : g->edges)
        wMax = std::max(wMax, e.weight);
    int hidden = 0;
    for (const GraphEdge& e : g->edges) {
        const auto pa = e.attrs.find(keys::attr::kPValue);
        const double pv0 = pa != e.attrs.end() ? pa->second : std::nan("");
        // Non-significant edges are drawn (dashed) only when they are not negligible.
        if (std::isfinite(pv0) && pv0 >= alpha && e.weight < 0.2 * wMax) {
            ++hidden;
            continue;
        }
        gui::GraphEdgeSpec es;
        es.source = int(e.source);
        es.target = int(e.target);
        es.weight = e.weight;
        const auto p = e.attrs.find(keys::attr::kPValue);
        const double pv = p != e.attrs.end() ? p->second : std::nan("");
        es.value = edgeSignificance(pv);
        haveP = haveP || std::isfinite(pv);
        es.dashed = std::isfinite(pv) && pv >= alpha;
        s.edges << es;
    }
    s.layout = given ? gui::GraphLayout::Given : gui::GraphLayout::Circular;
    s.colormap = QStringLiteral("viridis");
    s.fixedRange =
        true; // 0 … 8 so that the most significant edges (clipped at 6) stay green, not pale yellow
    s.vMin = 0;
    s.vMax = kMaxLogP + 2;
    s.edgeWidth = 6.0;
    s.nodeRadius = 7.0;
    if (haveP) {
        s.legend << gui::GraphLegendEntry{QStringLiteral("p ≤ 1e−6 (Wald, χ²₄)"), -1, kMaxLogP, true, false}
                 << gui::GraphLegendEntry{QStringLiteral("p = 1e−3"), -1, 3.0, true, false}
                 << gui::GraphLegendEntry{QStringLiteral("p = α = ") + num(alpha), -1, -std::log10(alpha),
                                          true, false}
                 << gui::GraphLegendEntry{QStringLiteral("not significant (p ≥ α)"), -1, 0.5, true, true};
    }
    f.caption = QStringLiteral(
                    "Torus-graph coupling between channels: edge width = coupling strength ‖φ_jk‖ (the "
                    "four pairwise natural parameters), colour = significance −log10 p of the per-edge Wald "
                    "test, dashed = not significant at α (%3 weak non-significant edges not drawn). Node "
                    "size grows with total coupling. %1 of %2 pairs significant.")
                    .arg(num(fig::metric(d, keys::metric::kEdgesSignificant)))
                    .arg(g->nodes.size() * (g->nodes.size() - 1) / 2)
                    .arg(hidden);
}

/// Per-state networks of the HMM side by side (given positions: one circle per state).
void hmmNetworks(const ResultDocument& d, FigureSpec& f) {
    f.kind = FigureKind::Graph;
    const int K = int(fig::metricOr(d, keys::metric::kHmmStates, 0)); // 0: no TG-HMM in this run
    if (!(K >= 2)) {
        f.caption = QStringLiteral("No TG-HMM in this run (hmm_states = 0).");
        return;
    }
    gui::GraphSpec& s = f.graph;
    s.layout = gui::GraphLayout::Given;
    s.colormap = QStringLiteral("viridis");
    s.edgeWidth = 5.0;
    s.nodeRadius = 6.0;
    double wMax = 0;
    for (int k = 1; k <= K; ++k)
        if (const Matrix* m = fig::matrix(d, keys::matrix::kHmmCouplingPrefix + std::to_string(k)))
            for (double v : m->data)
                wMax = std::max(wMax, v);
    for (int k = 1; k <= K; ++k) {
        const Matrix* m = fig::matrix(d, keys::matrix::kHmmCouplingPrefix + std::to_string(k));
        if (!m)
            continue;
        const int n = int(m->rows), base = int(s.nodes.size());
        for (int j = 0; j < n; ++j) {
            gui::GraphNodeSpec v;
            const double a = kTau * j / n - std::numbers::pi / 2;
            v.x = 3.0 * (k - 1) + std::cos(a);
            v.y = std::sin(a);
            v.id = QStringLiteral("S%1:%2").arg(k).arg(j + 1);
            v.label = j == 0 ? QStringLiteral("state %1 · 1").arg(k) : QString::number(j + 1);
            v.category = k - 1;
            s.nodes << v;
        }
        // Edges above 10 % of the largest coupling of any state (the rest is estimation noise).
        for (int j = 0; j < n; ++j)
            for (int l = j + 1; l < n; ++l) {
                const double w = m->at(j, l);
                if (w > 0.1 * wMax) {
                    gui::GraphEdgeSpec e;
                    e.source = base + j;
                    e.target = base + l;
                    e.weight = w;
                    s.edges << e;
                }
            }
        s.legend << gui::GraphLegendEntry{QStringLiteral("state %1").arg(k), k - 1, std::nan(""), false,
                                          false};
    }
    f.caption =
        QStringLiteral("Coupling strength ‖φ_jk‖ of each fitted TG-HMM state (edges above 10 % of the "
                       "largest coupling; width = strength). States are relabelled to match the planted ones "
                       "when the data are synthetic.");
}

void teGraph(const ResultDocument& d, FigureSpec& f) {
    f.kind = FigureKind::Graph;
    const Graph* g = fig::findGraph(d, keys::graph::kTransferEntropy);
    if (!g) {
        f.caption = QStringLiteral("No AR-TG in this run (more than 8 input channels).");
        return;
    }
    f.selection.graphNodes = kChannelDim;
    gui::GraphSpec& s = f.graph;
    s.directed = true;
    s.layout = gui::GraphLayout::Circular;
    s.edgeWidth = 7.0;
    s.nodeRadius = 9.0;
    s.colormap = QStringLiteral("magma");
    s.fixedRange = true;
    s.vMin = 0;
    s.vMax = 1;
    for (const GraphNode& n : g->nodes) {
        gui::GraphNodeSpec v;
        v.id = QString::number(n.id + 1);
        v.label = QString::fromStdString(n.label);
        v.category = 0;
        s.nodes << v;
    }
    for (const GraphEdge& e : g->edges) {
        gui::GraphEdgeSpec es;
        es.source = int(e.source);
        es.target = int(e.target);
        es.weight = e.weight;
        const auto sig = e.attrs.find(keys::attr::kSignificant);
        const bool significant = sig != e.attrs.end() && sig->second > 0.5;
        es.value = significant ? 0.62 : 0.3;
        es.dashed = !significant;
        es.directed = true;
        s.edges << es;
    }
    s.legend << gui::GraphLegendEntry{QStringLiteral("shift-null p ≤ 0.05"), -1, 0.62, true, false}
             << gui::GraphLegendEntry{QStringLiteral("not significant"), -1, 0.3, true, true};
    f.caption = QStringLiteral(
        "AR-TG transfer entropy i → j (held-out log-likelihood gain from channel i's past, "
        "nats/sample): width = TE, solid = significant (permutation p ≤ 0.05 against circular shifts of "
        "the source; with 19 shifts: above every null). "
        "The synthetic network plants 1 → 2 only.");
}

void torusScene(const ResultDocument& d, FigureSpec& f) {
    f.kind = FigureKind::Scene3D;
    gui::SceneSpec& s = f.scene;
    const Matrix* dens = fig::matrix(d, keys::matrix::kTorusDensity);
    const std::vector<double>* xi = fig::vector(d, keys::vector::kTorusXI);
    const std::vector<double>* xj = fig::vector(d, keys::vector::kTorusXJ);
    if (!dens || !xi || !xj) {
        s.message = QStringLiteral("The result has no torus view (matrices.torus_density).");
        return;
    }
    const int pi = int(fig::metric(d, keys::metric::kTorusPairI)),
              pj = int(fig::metric(d, keys::metric::kTorusPairJ));
    const double R = 1.0, r = 0.42;
    gui::SurfaceSpec torus;
    torus.kind = gui::SurfaceSpec::Kind::Torus;
    torus.style.name = QStringLiteral("fitted pair density");
    torus.ringRadius = R;
    torus.tubeRadius = r;
    torus.resolution = 96;
    torus.gridU = int(dens->rows);
    torus.gridV = int(dens->cols);
    torus.values = QVector<double>(dens->data.begin(), dens->data.end());
    s.surfaces << torus;
    gui::PointCloudSpec pts;
    pts.style.name = QStringLiteral("samples");
    pts.style.color = gui::Rgba(0xF0, 0xF0, 0xF0);
    pts.pointSize = 3.0;
    // The torus surface (vtkParametricTorus through vtkParametricFunctionSource) places grid cell
    // (u, v) at ((R + r cos v) sin u, (R + r cos v) cos u, −r sin v) — measured from VTK 9.1's output;
    // the samples use the same map so that they sit on their cells.
    const double rr = r * 1.03; // just above the surface
    auto onTorus = [&](double u, double v, double rad) {
        return gui::Vec3(float((R + rad * std::cos(v)) * std::sin(u)),
                         float((R + rad * std::cos(v)) * std::cos(u)), float(-rad * std::sin(v)));
    };
    for (size_t t = 0; t < xi->size() && t < xj->size(); ++t)
        pts.points << onTorus((*xi)[t], (*xj)[t], rr);
    s.pointClouds << pts;
    s.labels << gui::SceneLabelSpec{onTorus(0, 0, r + 0.25), QStringLiteral("x%1 = 0").arg(pi)}
             << gui::SceneLabelSpec{onTorus(std::numbers::pi / 2, 0, r + 0.25),
                                    QStringLiteral("x%1 = pi/2").arg(pi)}
             << gui::SceneLabelSpec{onTorus(std::numbers::pi, std::numbers::pi / 2, r + 0.2),
                                    QStringLiteral("x%1 = pi/2").arg(pj)};
    s.colormap = QStringLiteral("viridis");
    s.colorBarTitle = QStringLiteral("density");
    s.camera.elevation = 35;
    s.camera.azimuth = 20;
    f.caption =
        QStringLiteral("Channels %1 and %2 on the torus: around the ring x%1, around the tube x%2. Colour = "
                       "the fitted model's density of (x%1, x%2): its conditional given the other channels, "
                       "normalised on a 64² grid and averaged over the samples; white points = the first %3 "
                       "samples. Coupling strength ‖φ‖ = %4.")
            .arg(pi)
            .arg(pj)
            .arg(xi->size())
            .arg(num(fig::metric(d, keys::metric::kTorusPairStrength)));
}

void couplingHeatmap(const ResultDocument& d, FigureSpec& f) {
    nodeHeatmap(f, d, keys::matrix::kCouplingStrength, QStringLiteral("‖φ‖"));
    f.heatmap.rowTitle = QStringLiteral("channel j");
    f.heatmap.colTitle = QStringLiteral("channel k");
    f.caption =
        QStringLiteral("Euclidean norm of the four pairwise natural parameters (cos/sin of x_j − x_k and "
                       "x_j + x_k) of the reported estimate.");
}

void couplingCompare(const ResultDocument& d, FigureSpec& f) {
    const Matrix* cf = fig::findMatrix(d, keys::matrix::kCouplingStrengthCf);
    const Matrix* ss = fig::findMatrix(d, keys::matrix::kCouplingStrengthSsm);
    const Matrix* tr = fig::findMatrix(d, keys::matrix::kCouplingTrue); // synthetic data only
    if (!cf || !ss) {
        emptyHeatmap(f, QStringLiteral("The result has no closed-form/SSM coupling matrices."));
        return;
    }
    std::vector<const Matrix*> parts;
    QStringList names;
    if (tr) {
        parts.push_back(tr);
        names << QStringLiteral("true");
    }
    parts.push_back(cf);
    names << QStringLiteral("CF");
    parts.push_back(ss);
    names << QStringLiteral("SSM");
    const int n = int(cf->rows);
    gui::HeatmapSpec& h = f.heatmap;
    h.rows = n;
    h.cols = int(parts.size()) * n + int(parts.size()) - 1;
    h.values.fill(std::nan(""), h.rows * h.cols);
    for (int r = 0; r < n; ++r) {
        h.rowLabels << QString::number(r + 1);
        int c0 = 0;
        for (const Matrix* m : parts) {
            for (int c = 0; c < n; ++c)
                h.values[r * h.cols + c0 + c] = m->at(r, c);
            c0 += n + 1;
        }
    }
    for (int p = 0; p < int(parts.size()); ++p) {
        for (int c = 0; c < n; ++c)
            h.colLabels << (c == 0 ? names[p] + QStringLiteral(" 1") : QString::number(c + 1));
        if (p + 1 < int(parts.size()))
            h.colLabels << QString();
    }
    h.rowTitle = QStringLiteral("channel j");
    h.colTitle = names.join(QStringLiteral(" | ")) + QStringLiteral(" (channel k)");
    h.unit = QStringLiteral("‖φ‖");
    f.caption =
        QStringLiteral("Side by side: planted couplings (synthetic data), the closed-form estimate and "
                       "the SSM estimate. SSM distance to the closed form: %1 (relative).")
            .arg(num(fig::metric(d, keys::metric::kSsmRelativeError)));
}

void ssmConvergence(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("iteration");
    f.chart.yLabel = QStringLiteral("score-matching loss J(η)");
    f.chart.logX = true;
    f.chart.series << fig::series(d, keys::series::kSsmLoss, QStringLiteral("SSM minibatch loss (EMA)"),
                                  SeriesSpec::Style::Line, 0);
    const double cf = fig::metric(d, keys::metric::kLossClosedForm);
    if (std::isfinite(cf))
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, cf,
                                           QStringLiteral("closed-form optimum ") + num(cf, 4)};
    f.caption =
        QStringLiteral("EMA of the minibatch loss −ηᵀH(x) + ½‖D(x)ᵀη‖² (b = 64, Adam with a decaying step); "
                       "the line is the closed form's loss on all samples.");
}

void ssmError(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("iteration");
    f.chart.yLabel = QStringLiteral("‖η_SSM − η_CF‖ / ‖η_CF‖");
    f.chart.logX = true;
    f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kSsmParamError, QStringLiteral("current iterate"),
                                  SeriesSpec::Style::Line, 1);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.05, QStringLiteral("5 % (claim)")};
    f.caption = QStringLiteral(
                    "Relative parameter distance of the current SSM iterate; the reported estimate averages "
                    "the last iterates and ends at %1.")
                    .arg(num(fig::metric(d, keys::metric::kSsmRelativeError)));
}

void edgeRoc(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kRocClosedForm)) {
        emptyChart(f, QStringLiteral("User data have no ground truth: no ROC."));
        return;
    }
    f.chart.xLabel = QStringLiteral("false-positive rate");
    f.chart.yLabel = QStringLiteral("true-positive rate");
    f.chart.series << fig::series(d, keys::series::kRocClosedForm,
                                  QStringLiteral("Wald statistic, AUC ") +
                                      num(fig::metric(d, keys::metric::kAucClosedForm)),
                                  SeriesSpec::Style::Step, 0)
                   << fig::series(d, keys::series::kRocStochastic,
                                  QStringLiteral("SSM ‖φ‖, AUC ") +
                                      num(fig::metric(d, keys::metric::kAucStochastic)),
                                  SeriesSpec::Style::Step, 1)
                   << fig::series(d, keys::series::kRocPlv,
                                  QStringLiteral("PLV, AUC ") + num(fig::metric(d, keys::metric::kAucPlv)),
                                  SeriesSpec::Style::Step, 2);
    SeriesSpec diag;
    diag.name = QStringLiteral("chance");
    diag.x = {0, 1};
    diag.y = {0, 1};
    diag.dashed = true;
    diag.colorIndex = 4;
    diag.lineWidth = 1;
    f.chart.series << diag;
    f.chart.fixedXRange = f.chart.fixedYRange = true;
    f.chart.xMin = f.chart.yMin = 0;
    f.chart.xMax = f.chart.yMax = 1;
    f.caption = QStringLiteral(
        "Pairs ranked by each score against the planted graph. The torus graph measures "
        "conditional (direct) coupling; the phase-locking value also picks up indirect paths.");
}

void scaling(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kScalingSsmIteration)) {
        emptyChart(f, QStringLiteral("Scaling study off (scaling = off)."));
        return;
    }
    f.chart.xLabel = QStringLiteral("d (nodes)");
    f.chart.yLabel = QStringLiteral("time (s)");
    f.chart.logX = f.chart.logY = true;
    f.chart.series << fig::series(d, keys::series::kScalingCfBuild, QStringLiteral("Γ build (n = 256)"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kScalingCfSolve, QStringLiteral("Cholesky solve"),
                                  SeriesSpec::Style::LineWithPoints, 1)
                   << fig::series(d, keys::series::kScalingSsmIteration, QStringLiteral("SSM step (b = 64)"),
                                  SeriesSpec::Style::LineWithPoints, 2);
    f.caption =
        QStringLiteral("Measured on this machine (wall clock, best of repeats; varies run to run). "
                       "Log–log slopes over the larger sizes: Γ build %1, Cholesky solve %2 (O(d⁶)), SSM "
                       "step %3 (O(d²)).")
            .arg(num(fig::metric(d, keys::metric::kSlopeCfBuild), 2))
            .arg(num(fig::metric(d, keys::metric::kSlopeCfSolve), 2))
            .arg(num(fig::metric(d, keys::metric::kSlopeSsmIteration), 2));
}

void hmmStates(const ResultDocument& d, FigureSpec& f) {
    const std::vector<int64_t>* st = fig::findLabels(d, keys::label::kState);
    if (!st) {
        emptyChart(f, QStringLiteral("No TG-HMM in this run (hmm_states = 0)."));
        return;
    }
    f.chart.xLabel = QStringLiteral("time (samples)");
    f.chart.yLabel = QStringLiteral("state");
    auto raster = [](const std::vector<int64_t>& s, double offset, const QString& name, int color,
                     bool dashed) {
        SeriesSpec r;
        r.name = name;
        r.style = SeriesSpec::Style::Step;
        r.colorIndex = color;
        r.dashed = dashed;
        const size_t stride = std::max<size_t>(1, s.size() / 3000);
        for (size_t t = 0; t < s.size(); t += stride) {
            r.x << double(t);
            r.y << double(s[t] + 1) + offset;
        }
        return r;
    };
    if (const std::vector<int64_t>* tr = fig::findLabels(d, keys::label::kStateTrue)) // synthetic data only
        f.chart.series << raster(*tr, 0.08, QStringLiteral("planted"), 1, true);
    f.chart.series << raster(*st, 0.0, QStringLiteral("Viterbi path"), 0, false);
    f.chart.fixedYRange = true;
    f.chart.yMin = 0.5;
    f.chart.yMax = fig::metric(d, keys::metric::kHmmStates) + 0.5;
    const double acc = fig::metricOr(d, keys::metric::kHmmAccuracy, std::nan("")); // synthetic data only
    f.caption = std::isfinite(acc) ? QStringLiteral("Viterbi path of the fitted TG-HMM vs the planted states "
                                                    "(offset slightly); accuracy after matching %1 %.")
                                         .arg(num(100 * acc, 4))
                                   : QStringLiteral("Viterbi path of the TG-HMM fitted to the input.");
}

void hmmPosterior(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kHmmPosterior1)) {
        emptyChart(f, QStringLiteral("No TG-HMM in this run (hmm_states = 0)."));
        return;
    }
    f.chart.xLabel = QStringLiteral("time (samples)");
    f.chart.yLabel = QStringLiteral("P(state | data)");
    for (int k = 1; k <= 4; ++k) {
        const std::string key = keys::series::kHmmPosteriorPrefix + std::to_string(k);
        if (fig::hasSeries(d, key))
            f.chart.series << fig::series(d, key, QStringLiteral("state %1").arg(k), SeriesSpec::Style::Line,
                                          k - 1);
    }
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("Forward–backward posteriors with pseudo-log-likelihood emissions (the torus-graph "
                       "normaliser is intractable; each node's von Mises conditional is exact).");
}

void teMatrix(const ResultDocument& d, FigureSpec& f) {
    if (!fig::findMatrix(d, keys::matrix::kTransferEntropy)) {
        emptyHeatmap(f, QStringLiteral("No AR-TG in this run."));
        return;
    }
    nodeHeatmap(f, d, keys::matrix::kTransferEntropy, QStringLiteral("nats/sample"), QStringLiteral("magma"));
    f.heatmap.rowTitle = QStringLiteral("source i");
    f.heatmap.colTitle = QStringLiteral("target j");
    f.heatmap.annotateCells = true;
    f.caption =
        QStringLiteral("Held-out log-likelihood gain of target j's von Mises conditional from the past of "
                       "source i (AR-TG, lag %1). Negative = no gain (overfitting).")
            .arg(num(fig::metric(d, keys::metric::kArLag)));
}

void teVsT(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kTeVsTForward)) {
        emptyChart(f, QStringLiteral("Only for synthetic data."));
        return;
    }
    f.chart.xLabel = QStringLiteral("training length T (samples)");
    f.chart.yLabel = QStringLiteral("transfer entropy (nats/sample)");
    f.chart.logX = true;
    f.chart.series << fig::series(d, keys::series::kTeVsTForward, QStringLiteral("1 → 2 (planted)"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kTeVsTBackward, QStringLiteral("2 → 1 (none)"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.0, QString()};
    f.caption =
        QStringLiteral("A unidirectional pair simulated at growing lengths: the planted direction converges "
                       "to its true TE, the reverse to zero.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<torusgraph::TorusGraphEngine>({
        {"coupling_network", FigureKind::Graph, "Coupling network", couplingNetwork},
        {"coupling_heatmap", FigureKind::Heatmap, "Coupling strength matrix", couplingHeatmap},
        {"coupling_compare", FigureKind::Heatmap, "True vs closed form vs SSM", couplingCompare},
        {"torus3d", FigureKind::Scene3D, "Pair density on the torus (3D)", torusScene},
        {"ssm_convergence", FigureKind::Chart, "SSM loss vs iteration", ssmConvergence},
        {"ssm_error", FigureKind::Chart, "SSM distance to the closed form", ssmError},
        {"edge_roc", FigureKind::Chart, "Edge recovery ROC", edgeRoc},
        {"scaling", FigureKind::Chart, "Time vs d (log-log)", scaling},
        {"hmm_states", FigureKind::Chart, "HMM state sequence", hmmStates},
        {"hmm_posterior", FigureKind::Chart, "HMM state posteriors", hmmPosterior},
        {"hmm_networks", FigureKind::Graph, "Per-state coupling networks", hmmNetworks},
        {"te_graph", FigureKind::Graph, "Directed transfer-entropy graph", teGraph},
        {"te_matrix", FigureKind::Heatmap, "Transfer-entropy matrix", teMatrix},
        {"te_vs_T", FigureKind::Chart, "Transfer entropy vs series length", teVsT},
    });
    return def;
}

} // namespace pl::torusgraphfig
