// The gemq-moe-quant panel: its engine and figure table (ids, kinds and titles as in paper.json), and
// the figure builders. Pure functions of the result (thread-safe).
#include "gemq/GemqEngine.h"
#include "gemq/GemqKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <string>

namespace pl::gemqfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::MarkerSpec;
using gui::SeriesSpec;
namespace keys = gemq::keys;

namespace {

void allocation(const ResultDocument& d, FigureSpec& f, const char* key, const QString& what) {
    f.heatmap = fig::heatmap(d, key);
    const std::vector<double>* opts = fig::vector(d, keys::vector::kBitOptions);
    f.heatmap.rowTitle = QStringLiteral("layer");
    f.heatmap.colTitle = QStringLiteral("expert");
    f.heatmap.unit = QStringLiteral("bits");
    f.heatmap.annotateCells = true;
    if (opts && !opts->empty()) {
        f.heatmap.fixedRange = true;
        f.heatmap.vMin = opts->front();
        f.heatmap.vMax = opts->back();
    }
    f.caption = what + QStringLiteral(" at avg_bits %1: realised %2 bits on average.")
                           .arg(QString::fromStdString(fig::param(d, keys::param::kAvgBits)));
}

void allocGlobal(const ResultDocument& d, FigureSpec& f) {
    allocation(d, f, keys::matrix::kBitsGlobal,
               QStringLiteral("Bit-widths of the global LP (one budget over all layers)"));
    f.caption = f.caption.arg(fig::metric(d, keys::metric::kAvgBitsGlobal), 0, 'f', 3);
}

void allocLayerwise(const ResultDocument& d, FigureSpec& f) {
    allocation(d, f, keys::matrix::kBitsLayerwise,
               QStringLiteral("Bit-widths of the layer-wise LP (each layer its own budget, PMQ-like)"));
    f.caption = f.caption.arg(fig::metric(d, keys::metric::kAvgBitsLayerwise), 0, 'f', 3);
}

void lossVsBits(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("average bits per expert weight");
    f.chart.yLabel = QStringLiteral("excess loss over full precision (nats/token)");
    if (!fig::hasSeries(d, keys::series::kGlobal)) {
        f.caption = QStringLiteral("Needs a model: an importance table alone has no loss.");
        return;
    }
    const double fp = fig::metric(d, keys::metric::kLossFp);
    auto excess = [&](const char* key, const QString& name, int colour) {
        SeriesSpec s = fig::series(d, key, name, SeriesSpec::Style::LineWithPoints, colour);
        for (double& y : s.y)
            y -= fp;
        f.chart.series << s;
    };
    excess(keys::series::kUniform, QStringLiteral("uniform"), 0);
    excess(keys::series::kLayerwise, QStringLiteral("layer-wise LP"), 1);
    excess(keys::series::kGlobal, QStringLiteral("global LP"), 2);
    auto point = [&](const char* bitsKey, const char* lossKey, const QString& name, int colour) {
        SeriesSpec s;
        s.name = name;
        s.style = SeriesSpec::Style::Scatter;
        s.colorIndex = colour;
        s.x << fig::metric(d, bitsKey);
        s.y << fig::metric(d, lossKey) - fp;
        f.chart.series << s;
    };
    point(keys::metric::kAvgBitsLayerwise, keys::metric::kLossLayerwise, QStringLiteral("layer-wise+tuning"),
          4);
    point(keys::metric::kAvgBitsGlobal, keys::metric::kLossOneShot, QStringLiteral("one-shot"), 5);
    point(keys::metric::kAvgBitsGlobal, keys::metric::kLossGlobal, QStringLiteral("progressive"), 3);
    f.chart.logY = true;
    f.caption =
        QStringLiteral("Loss minus the full-precision loss (%1 nats/token), log scale. Curves: allocations "
                       "on the full-precision costs, no router tuning. Points: the pipelines at the budget "
                       "(router tuning; GEMQ one-shot and progressive over %2 stages).")
            .arg(fp, 0, 'f', 4)
            .arg(QString::fromStdString(fig::param(d, keys::param::kStages)));
}

void fisher(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* t = fig::findVector(d, keys::vector::kFisherTrace);
    f.chart.xLabel = QStringLiteral("layer");
    f.chart.yLabel = QStringLiteral("Fisher trace (sum of F over expert w1, w2)");
    if (!t) {
        f.caption = QStringLiteral("Needs a model and calibration tokens.");
        return;
    }
    f.chart.series << fig::bars(*t, QStringLiteral("Fisher trace"), 0);
    for (size_t l = 0; l < t->size(); ++l)
        f.chart.categories << QString::number(l);
    f.chart.logY = true;
    f.caption = QStringLiteral("Diagonal empirical Fisher of the full-precision model, summed per layer: "
                               "max/min = %1x across layers (log scale).")
                    .arg(fig::metricOr(d, keys::metric::kFisherSpread, 0), 0, 'f', 1);
}

void routingShift(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("layer");
    f.chart.yLabel = QStringLiteral("routing shift (share of tokens, top-k set changed)");
    const std::vector<double>* b = fig::findVector(d, keys::vector::kShiftBefore);
    const std::vector<double>* a = fig::findVector(d, keys::vector::kShiftAfter);
    if (!a || !b) {
        f.caption = QStringLiteral("Needs a model and calibration tokens.");
        return;
    }
    f.chart.series << fig::bars(*b, QStringLiteral("before router tuning"), 5);
    f.chart.series << fig::bars(*a, QStringLiteral("after router tuning"), 2);
    for (size_t l = 0; l < b->size(); ++l)
        f.chart.categories << QString::number(l);
    f.caption = QStringLiteral("GEMQ's last stage: %1 % of (token, layer) routes differ from full precision "
                               "before router tuning, %2 % after.")
                    .arg(100 * fig::metricOr(d, keys::metric::kShiftBefore, 0), 0, 'f', 1)
                    .arg(100 * fig::metricOr(d, keys::metric::kShiftAfter, 0), 0, 'f', 1);
}

void expertLoad(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::findMatrix(d, keys::matrix::kExpertLoad);
    if (!m) {
        f.caption = QStringLiteral("Needs a model and calibration tokens.");
        return;
    }
    f.heatmap = fig::heatmap(*m);
    f.heatmap.rowTitle = QStringLiteral("layer");
    f.heatmap.colTitle = QStringLiteral("expert");
    f.heatmap.unit = QStringLiteral("share of routed tokens");
    f.heatmap.colormap = QStringLiteral("magma");
    f.heatmap.annotateCells = true;
    f.caption = QStringLiteral("Full-precision model on the evaluation tokens: the share of top-k slots each "
                               "expert receives per layer (uniform = 1/E). The Switch balancing loss keeps "
                               "it near uniform.");
}

void hulls(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* items = fig::vector(d, keys::vector::kHullExperts);
    const double E = fig::matrix(d, keys::matrix::kBitsGlobal)
                         ? double(fig::matrix(d, keys::matrix::kBitsGlobal)->cols)
                         : 1;
    if (items)
        for (size_t l = 0; l < items->size(); ++l) {
            const int i = int((*items)[l]);
            const QString name = QStringLiteral("L%1 e%2").arg(int(i / E)).arg(i - int(i / E) * int(E));
            SeriesSpec h = fig::series(d, keys::series::kHullPrefix + std::to_string(l), name,
                                       SeriesSpec::Style::LineWithPoints, int(l % 8));
            SeriesSpec o =
                fig::series(d, keys::series::kOptionsPrefix + std::to_string(l),
                            name + QStringLiteral(" opt."), SeriesSpec::Style::Scatter, int(l % 8));
            f.chart.series << h << o;
        }
    f.chart.xLabel = QStringLiteral("bits");
    f.chart.yLabel = QStringLiteral("cost c[l,e,b]");
    f.chart.logY = true;
    f.caption = QStringLiteral("Per layer, the expert with the largest cost at the lowest bit-width: every "
                               "option (points) and the lower convex hull the greedy walks (lines).");
}

void budget(const ResultDocument& d, FigureSpec& f) {
    f.chart.series << fig::series(d, keys::series::kLpLayerwise, QStringLiteral("layer-wise LP"),
                                  SeriesSpec::Style::Line, 1);
    f.chart.series << fig::series(d, keys::series::kLpGlobal, QStringLiteral("global LP"),
                                  SeriesSpec::Style::Line, 2);
    f.chart.xLabel = fig::xlabel(d, keys::series::kLpGlobal);
    f.chart.yLabel = fig::ylabel(d, keys::series::kLpGlobal);
    f.chart.logY = true;
    f.chart.markers << MarkerSpec{MarkerSpec::Axis::X,
                                  std::atof(fig::param(d, keys::param::kAvgBits).c_str()),
                                  QStringLiteral("avg_bits")};
    f.caption = QStringLiteral("The LP optimum as the budget slides (re-solved exactly at each point): the "
                               "global LP is never above the layer-wise one. At avg_bits: %1 vs %2.")
                    .arg(fig::metric(d, keys::metric::kLpGlobal), 0, 'g', 4)
                    .arg(fig::metric(d, keys::metric::kLpLayerwise), 0, 'g', 4);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<gemq::GemqEngine>({
        {"alloc_global", FigureKind::Heatmap, "Bit allocation: global LP", allocGlobal},
        {"alloc_layerwise", FigureKind::Heatmap, "Bit allocation: layer-wise LP", allocLayerwise},
        {"loss_vs_bits", FigureKind::Chart, "Loss vs average bits", lossVsBits},
        {"fisher", FigureKind::Chart, "Fisher traces per layer", fisher},
        {"routing_shift", FigureKind::Chart, "Routing shift", routingShift},
        {"expert_load", FigureKind::Heatmap, "Expert load", expertLoad},
        {"hulls", FigureKind::Chart, "Convex hulls of the costs", hulls},
        {"budget", FigureKind::Chart, "LP objective vs budget", budget},
    });
    return def;
}

} // namespace pl::gemqfig
