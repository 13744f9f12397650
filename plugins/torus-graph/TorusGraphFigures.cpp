#include "TorusGraphFigures.h"

#include "sdk/FigureHelpers.h"

#include <QFile>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pl::torusgraphfig {

using gui::FigureKind;
using gui::SeriesSpec;

namespace {

constexpr double kTau = 2.0 * std::numbers::pi;
constexpr double kMaxLogP = 6.0; ///< colour scale of edge significance: −log10 p clipped at 6

const Matrix* matrix(const ResultDocument& d, const std::string& key) {
    const auto it = d.matrices.find(key);
    return it == d.matrices.end() ? nullptr : &it->second;
}

const Graph* graph(const ResultDocument& d, const std::string& key) {
    const auto it = d.graphs.find(key);
    return it == d.graphs.end() ? nullptr : &it->second;
}

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

/// Node-by-node heatmap of a result matrix.
void nodeHeatmap(gui::FigureSpec& f, const ResultDocument& d, const std::string& key, const QString& unit,
                 const QString& colormap = QStringLiteral("viridis")) {
    f.kind = FigureKind::Heatmap;
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
void couplingNetwork(gui::FigureSpec& f, const ResultDocument& d) {
    f.kind = FigureKind::Graph;
    const Graph* g = graph(d, "coupling");
    if (!g)
        return;
    gui::GraphSpec& s = f.graph;
    bool given = false;
    for (const GraphNode& n : g->nodes) {
        gui::GraphNodeSpec v;
        v.id = QString::number(n.id + 1);
        v.label = QString::fromStdString(n.label);
        v.category = 0;
        const auto st = n.attrs.find("strength");
        v.size = st != n.attrs.end() ? 0.6 + 0.4 * st->second : 1.0;
        const auto x = n.attrs.find("x"), y = n.attrs.find("y");
        if (x != n.attrs.end() && y != n.attrs.end()) {
            v.x = x->second;
            v.y = -y->second; // electrode y grows upwards, screen y downwards
            given = true;
        }
        s.nodes << v;
    }
    const double alpha = [&] {
        for (const auto& [k, v] : d.params)
            if (k == "alpha" && std::holds_alternative<double>(v))
                return std::get<double>(v);
        return 0.05;
    }();
    bool haveP = false;
    double wMax = 0;
    for (const GraphEdge& e : g->edges)
        wMax = std::max(wMax, e.weight);
    int hidden = 0;
    for (const GraphEdge& e : g->edges) {
        const auto pa = e.attrs.find("p_value");
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
        const auto p = e.attrs.find("p_value");
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
                    .arg(num(fig::metric(d, "edges_significant")))
                    .arg(g->nodes.size() * (g->nodes.size() - 1) / 2)
                    .arg(hidden);
}

/// Per-state networks of the HMM side by side (given positions: one circle per state).
void hmmNetworks(gui::FigureSpec& f, const ResultDocument& d) {
    f.kind = FigureKind::Graph;
    const int K = int(fig::metric(d, "hmm_states"));
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
        if (const Matrix* m = matrix(d, "hmm_coupling_" + std::to_string(k)))
            for (double v : m->data)
                wMax = std::max(wMax, v);
    for (int k = 1; k <= K; ++k) {
        const Matrix* m = matrix(d, "hmm_coupling_" + std::to_string(k));
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

void teGraph(gui::FigureSpec& f, const ResultDocument& d) {
    f.kind = FigureKind::Graph;
    const Graph* g = graph(d, "transfer_entropy");
    if (!g) {
        f.caption = QStringLiteral("No AR-TG in this run (more than 8 input channels).");
        return;
    }
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
        const auto sig = e.attrs.find("significant");
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

void torusScene(gui::FigureSpec& f, const ResultDocument& d) {
    f.kind = FigureKind::Scene3D;
    gui::SceneSpec& s = f.scene;
    const Matrix* dens = matrix(d, "torus_density");
    const auto xi = d.vectors.find("torus_x_i"), xj = d.vectors.find("torus_x_j");
    if (!dens || xi == d.vectors.end() || xj == d.vectors.end()) {
        s.message = QStringLiteral("The result has no torus view (matrices.torus_density).");
        return;
    }
    const int pi = int(fig::metric(d, "torus_pair_i")), pj = int(fig::metric(d, "torus_pair_j"));
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
    for (size_t t = 0; t < xi->second.size() && t < xj->second.size(); ++t)
        pts.points << onTorus(xi->second[t], xj->second[t], rr);
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
            .arg(xi->second.size())
            .arg(num(fig::metric(d, "torus_pair_strength")));
}

} // namespace

gui::FigureSpec buildFigure(const QString& id, const ResultDocument& d) {
    gui::FigureSpec f;
    f.id = id;
    if (id == QLatin1String("coupling_network")) {
        f.title = QStringLiteral("Coupling network");
        couplingNetwork(f, d);
    } else if (id == QLatin1String("coupling_heatmap")) {
        f.title = QStringLiteral("Coupling strength ‖φ_jk‖");
        nodeHeatmap(f, d, "coupling_strength", QStringLiteral("‖φ‖"));
        f.heatmap.rowTitle = QStringLiteral("channel j");
        f.heatmap.colTitle = QStringLiteral("channel k");
        f.caption =
            QStringLiteral("Euclidean norm of the four pairwise natural parameters (cos/sin of x_j − x_k and "
                           "x_j + x_k) of the reported estimate.");
    } else if (id == QLatin1String("coupling_compare")) {
        f.title = QStringLiteral("Coupling: true | closed form | SSM");
        f.kind = FigureKind::Heatmap;
        const Matrix* cf = matrix(d, "coupling_strength_cf");
        const Matrix* ss = matrix(d, "coupling_strength_ssm");
        const Matrix* tr = matrix(d, "coupling_true");
        if (!cf || !ss) {
            emptyHeatmap(f, QStringLiteral("The result has no closed-form/SSM coupling matrices."));
            return f;
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
                .arg(num(fig::metric(d, "ssm_relative_error")));
    } else if (id == QLatin1String("torus3d")) {
        f.title = QStringLiteral("Pair density on the torus");
        torusScene(f, d);
    } else if (id == QLatin1String("ssm_convergence")) {
        f.title = QStringLiteral("Stochastic score matching: loss vs iteration");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("iteration");
        f.chart.yLabel = QStringLiteral("score-matching loss J(η)");
        f.chart.logX = true;
        f.chart.series << fig::series(d, "ssm_loss", QStringLiteral("SSM minibatch loss (EMA)"),
                                      SeriesSpec::Style::Line, 0);
        const double cf = fig::metric(d, "loss_closed_form");
        if (std::isfinite(cf))
            f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, cf,
                                               QStringLiteral("closed-form optimum ") + num(cf, 4)};
        f.caption = QStringLiteral(
            "EMA of the minibatch loss −ηᵀH(x) + ½‖D(x)ᵀη‖² (b = 64, Adam with a decaying step); "
            "the line is the closed form's loss on all samples.");
    } else if (id == QLatin1String("ssm_error")) {
        f.title = QStringLiteral("SSM distance to the closed form");
        f.kind = FigureKind::Chart;
        f.chart.xLabel = QStringLiteral("iteration");
        f.chart.yLabel = QStringLiteral("‖η_SSM − η_CF‖ / ‖η_CF‖");
        f.chart.logX = true;
        f.chart.logY = true;
        f.chart.series << fig::series(d, "ssm_param_error", QStringLiteral("current iterate"),
                                      SeriesSpec::Style::Line, 1);
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.05, QStringLiteral("5 % (claim)")};
        f.caption =
            QStringLiteral(
                "Relative parameter distance of the current SSM iterate; the reported estimate averages "
                "the last iterates and ends at %1.")
                .arg(num(fig::metric(d, "ssm_relative_error")));
    } else if (id == QLatin1String("edge_roc")) {
        f.title = QStringLiteral("Edge recovery (ROC)");
        f.kind = FigureKind::Chart;
        if (!fig::hasSeries(d, "roc_closed_form")) {
            emptyChart(f, QStringLiteral("User data have no ground truth: no ROC."));
            return f;
        }
        f.chart.xLabel = QStringLiteral("false-positive rate");
        f.chart.yLabel = QStringLiteral("true-positive rate");
        f.chart.series << fig::series(d, "roc_closed_form",
                                      QStringLiteral("Wald statistic, AUC ") +
                                          num(fig::metric(d, "auc_closed_form")),
                                      SeriesSpec::Style::Step, 0)
                       << fig::series(d, "roc_stochastic",
                                      QStringLiteral("SSM ‖φ‖, AUC ") + num(fig::metric(d, "auc_stochastic")),
                                      SeriesSpec::Style::Step, 1)
                       << fig::series(d, "roc_plv",
                                      QStringLiteral("PLV, AUC ") + num(fig::metric(d, "auc_plv")),
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
    } else if (id == QLatin1String("scaling")) {
        f.title = QStringLiteral("Wall time vs number of nodes");
        f.kind = FigureKind::Chart;
        if (!fig::hasSeries(d, "scaling_ssm_iteration")) {
            emptyChart(f, QStringLiteral("Scaling study off (scaling = off)."));
            return f;
        }
        f.chart.xLabel = QStringLiteral("d (nodes)");
        f.chart.yLabel = QStringLiteral("time (s)");
        f.chart.logX = f.chart.logY = true;
        f.chart.series << fig::series(d, "scaling_cf_build", QStringLiteral("Γ build (n = 256)"),
                                      SeriesSpec::Style::LineWithPoints, 0)
                       << fig::series(d, "scaling_cf_solve", QStringLiteral("Cholesky solve"),
                                      SeriesSpec::Style::LineWithPoints, 1)
                       << fig::series(d, "scaling_ssm_iteration", QStringLiteral("SSM step (b = 64)"),
                                      SeriesSpec::Style::LineWithPoints, 2);
        f.caption =
            QStringLiteral("Measured on this machine (wall clock, best of repeats; varies run to run). "
                           "Log–log slopes over the larger sizes: Γ build %1, Cholesky solve %2 (O(d⁶)), SSM "
                           "step %3 (O(d²)).")
                .arg(num(fig::metric(d, "slope_cf_build"), 2))
                .arg(num(fig::metric(d, "slope_cf_solve"), 2))
                .arg(num(fig::metric(d, "slope_ssm_iteration"), 2));
    } else if (id == QLatin1String("hmm_states")) {
        f.title = QStringLiteral("TG-HMM state sequence");
        f.kind = FigureKind::Chart;
        const auto st = d.labels.find("state");
        if (st == d.labels.end()) {
            emptyChart(f, QStringLiteral("No TG-HMM in this run (hmm_states = 0)."));
            return f;
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
        const auto tr = d.labels.find("state_true");
        if (tr != d.labels.end())
            f.chart.series << raster(tr->second, 0.08, QStringLiteral("planted"), 1, true);
        f.chart.series << raster(st->second, 0.0, QStringLiteral("Viterbi path"), 0, false);
        f.chart.fixedYRange = true;
        f.chart.yMin = 0.5;
        f.chart.yMax = fig::metric(d, "hmm_states") + 0.5;
        const double acc = fig::metric(d, "hmm_accuracy");
        f.caption = std::isfinite(acc)
                        ? QStringLiteral("Viterbi path of the fitted TG-HMM vs the planted states "
                                         "(offset slightly); accuracy after matching %1 %.")
                              .arg(num(100 * acc, 4))
                        : QStringLiteral("Viterbi path of the TG-HMM fitted to the input.");
    } else if (id == QLatin1String("hmm_posterior")) {
        f.title = QStringLiteral("TG-HMM posterior state probabilities");
        f.kind = FigureKind::Chart;
        if (!fig::hasSeries(d, "hmm_posterior_1")) {
            emptyChart(f, QStringLiteral("No TG-HMM in this run (hmm_states = 0)."));
            return f;
        }
        f.chart.xLabel = QStringLiteral("time (samples)");
        f.chart.yLabel = QStringLiteral("P(state | data)");
        for (int k = 1; k <= 4; ++k) {
            const std::string key = "hmm_posterior_" + std::to_string(k);
            if (fig::hasSeries(d, key))
                f.chart.series << fig::series(d, key, QStringLiteral("state %1").arg(k),
                                              SeriesSpec::Style::Line, k - 1);
        }
        f.chart.fixedYRange = true;
        f.chart.yMin = 0;
        f.chart.yMax = 1;
        f.caption = QStringLiteral(
            "Forward–backward posteriors with pseudo-log-likelihood emissions (the torus-graph "
            "normaliser is intractable; each node's von Mises conditional is exact).");
    } else if (id == QLatin1String("hmm_networks")) {
        f.title = QStringLiteral("Per-state coupling networks");
        hmmNetworks(f, d);
    } else if (id == QLatin1String("te_graph")) {
        f.title = QStringLiteral("Directed transfer entropy (AR-TG)");
        teGraph(f, d);
    } else if (id == QLatin1String("te_matrix")) {
        f.title = QStringLiteral("Transfer entropy i → j");
        if (!matrix(d, "transfer_entropy")) {
            emptyHeatmap(f, QStringLiteral("No AR-TG in this run."));
            return f;
        }
        nodeHeatmap(f, d, "transfer_entropy", QStringLiteral("nats/sample"), QStringLiteral("magma"));
        f.heatmap.rowTitle = QStringLiteral("source i");
        f.heatmap.colTitle = QStringLiteral("target j");
        f.heatmap.annotateCells = true;
        f.caption = QStringLiteral(
                        "Held-out log-likelihood gain of target j's von Mises conditional from the past of "
                        "source i (AR-TG, lag %1). Negative = no gain (overfitting).")
                        .arg(num(fig::metric(d, "ar_lag")));
    } else if (id == QLatin1String("te_vs_T")) {
        f.title = QStringLiteral("Transfer entropy vs series length");
        f.kind = FigureKind::Chart;
        if (!fig::hasSeries(d, "te_vs_T_forward")) {
            emptyChart(f, QStringLiteral("Only for synthetic data."));
            return f;
        }
        f.chart.xLabel = QStringLiteral("training length T (samples)");
        f.chart.yLabel = QStringLiteral("transfer entropy (nats/sample)");
        f.chart.logX = true;
        f.chart.series << fig::series(d, "te_vs_T_forward", QStringLiteral("1 → 2 (planted)"),
                                      SeriesSpec::Style::LineWithPoints, 0)
                       << fig::series(d, "te_vs_T_backward", QStringLiteral("2 → 1 (none)"),
                                      SeriesSpec::Style::LineWithPoints, 1);
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.0, QString()};
        f.caption = QStringLiteral(
            "A unidirectional pair simulated at growing lengths: the planted direction converges "
            "to its true TE, the reverse to zero.");
    } else {
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    }
    return f;
}

QString helpMarkdown() {
    QFile f(QStringLiteral(":/torus-graph/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("# torus-graph\n");
}

} // namespace pl::torusgraphfig
