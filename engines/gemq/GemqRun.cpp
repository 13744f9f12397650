#include "GemqRun.h"

#include "GemqKeys.h"
#include "core/Errors.h"
#include "core/ResultBuilders.h"
#include "gemq/ClusterCorpus.h"
#include "gemq/GemqEngine.h"
#include "gemq/GemqPipeline.h"
#include "gemq/Quantiser.h"
#include "tinylm/MoeLm.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pl::gemq {

namespace P = keys::param;
namespace K = keys;
using tinylm::MoeLmModel;

namespace {

std::string fmt(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

/// The budget check: avg_bits below the smallest option is a usage error naming the feasible range.
void checkBudget(const AllocProblem& pr, double avg) {
    const double lo = minAverageBits(pr), hi = double(*std::max_element(pr.bits.begin(), pr.bits.end()));
    if (avg < lo)
        throw UsageError("avg_bits " + fmt(avg) + " is infeasible: minimum average bits = " + fmt(lo) +
                         " (feasible range " + fmt(lo) + " to " + fmt(hi) + " bits)");
}

std::vector<std::string> itemLabels(int L, int E) {
    std::vector<std::string> out;
    for (int l = 0; l < L; ++l)
        for (int e = 0; e < E; ++e)
            out.push_back("l" + std::to_string(l) + " e" + std::to_string(e));
    return out;
}

std::vector<std::string> bitLabels(const std::vector<int>& bits) {
    std::vector<std::string> out;
    for (int b : bits)
        out.push_back(std::to_string(b) + " bits");
    return out;
}

/// Stage "pack" (allocation part): costs, params, bit options, allocations, LP objectives, the LP
/// curves over budgets, the hulls of one expert per layer (\a hullItems), and the claim that the
/// greedy equals CLP's optimum.
void packAllocation(const AllocProblem& pr, double avg, const std::vector<int>& hullItems,
                    ResultDocument& doc) {
    doc.matrices[K::matrix::kCost] = matrixOf(pr.cost, itemLabels(pr.layers, pr.experts), bitLabels(pr.bits));
    doc.vectors[K::vector::kParams] = pr.params;
    doc.vectors[K::vector::kBitOptions] = std::vector<double>(pr.bits.begin(), pr.bits.end());
    const Allocation g = allocate(pr, avg, true), lw = allocate(pr, avg, false);
    doc.matrices[K::matrix::kBitsGlobal] = matrixOf(bitsMatrix(pr, g), "layer ", "expert ", 0);
    doc.matrices[K::matrix::kBitsLayerwise] = matrixOf(bitsMatrix(pr, lw), "layer ", "expert ", 0);
    doc.metrics[K::metric::kLpGlobal] = g.lpObjective;
    doc.metrics[K::metric::kLpLayerwise] = lw.lpObjective;
    doc.metrics[K::metric::kCostGlobal] = g.cost;
    doc.metrics[K::metric::kCostLayerwise] = lw.cost;
    doc.metrics[K::metric::kAvgBitsGlobal] = g.avgBits;
    doc.metrics[K::metric::kAvgBitsLayerwise] = lw.avgBits;
    doc.metrics[K::metric::kMinAvgBits] = minAverageBits(pr);
    const double clpG = allocateLpByClp(pr, avg, true), clpL = allocateLpByClp(pr, avg, false);
    doc.metrics[K::metric::kLpClpGlobal] = clpG;
    doc.metrics[K::metric::kLpClpLayerwise] = clpL;
    const double scale = std::max({std::abs(clpG), std::abs(clpL), 1e-300});
    const double dev = std::max(std::abs(g.lpObjective - clpG), std::abs(lw.lpObjective - clpL)) / scale;
    doc.claims.push_back(
        claimOf(K::claim::kGreedyLp,
                "The convex-hull greedy reaches the LP optimum (CLP dual simplex), global and "
                "layer-wise",
                dev <= 1e-7, dev, 1e-7, "max relative |greedy - CLP| of the two LP objectives at avg_bits"));
    Series sg = emptySeries("average bits (budget)", "LP objective (cost)"), sl = sg;
    const double lo = minAverageBits(pr), hi = double(pr.bits.back());
    for (int i = 0; i <= 60; ++i) {
        const double b = lo + (hi - lo) * i / 60.0;
        addPoint(sg, b, allocate(pr, b, true).lpObjective);
        addPoint(sl, b, allocate(pr, b, false).lpObjective);
    }
    doc.series[K::series::kLpGlobal] = sg;
    doc.series[K::series::kLpLayerwise] = sl;
    std::vector<double> hv;
    for (size_t l = 0; l < hullItems.size(); ++l) {
        const int i = hullItems[l];
        hv.push_back(i);
        const MckpItem it = mckpItems(pr, i, i + 1)[0];
        Series all = emptySeries("bits", "cost"), hull = all;
        for (size_t j = 0; j < pr.bits.size(); ++j)
            addPoint(all, pr.bits[j], it.cost[j]);
        for (int j : lowerHull(it))
            addPoint(hull, pr.bits[size_t(j)], it.cost[size_t(j)]);
        doc.series[K::series::kOptionsPrefix + std::to_string(l)] = all;
        doc.series[K::series::kHullPrefix + std::to_string(l)] = hull;
    }
    doc.vectors[K::vector::kHullExperts] = hv;
}

/// One expert per layer for the hull plot: the most expensive at the lowest bit-width.
std::vector<int> costliestPerLayer(const AllocProblem& pr) {
    std::vector<int> out;
    for (int l = 0; l < pr.layers; ++l) {
        int best = l * pr.experts;
        for (int e = 0; e < pr.experts; ++e)
            if (pr.cost(l * pr.experts + e, 0) > pr.cost(best, 0))
                best = l * pr.experts + e;
        out.push_back(best);
    }
    return out;
}

/// Stage "setup": the fp model (trained on the cluster corpus, or the user's) and its data.
ModelSetup setupModel(const MoeLmModel* model, const tinylm::PromptSet* calib, const ParamSet& p,
                      const Rng& root, RunContext& ctx, ResultDocument& doc) {
    ModelSetup s;
    if (model) {
        s.fp = *model;
        if (calib) {
            tinylm::checkPromptIds(*calib, s.fp.vocab());
            tinylm::moePairs(s.fp, calib->seqs, s.calibCtx, s.calibY);
            s.evalCtx = s.calibCtx;
            s.evalY = s.calibY;
            doc.notes.push_back("user model: losses are measured on the calibration tokens themselves");
        }
    } else {
        ClusterConfig cc;
        cc.calibTokens = int(p.getInt(P::kCalibTokens));
        const ClusterCorpus corpus = makeClusterCorpus(cc, root.fork("corpus"));
        tinylm::MoeTrainConfig tc;
        tc.layers = int(p.getInt(P::kLayers));
        tc.experts = int(p.getInt(P::kExperts));
        tc.topK = int(p.getInt(P::kTopK));
        tc.dModel = int(p.getInt(P::kDModel));
        tc.hidden = 2 * tc.dModel;
        tc.epochs = int(p.getInt(P::kTrainEpochs));
        const double h = p.getDouble(P::kHetero);
        for (int l = 0; l < tc.layers; ++l)
            tc.layerScales.push_back(std::exp(-h * l));
        std::vector<double> loss;
        s.fp = tinylm::trainMoeLm(corpus.train, corpus.vocab, tc, root.fork("train"), &loss, [&](double f) {
            ctx.throwIfCancelled();
            ctx.progress(0.3 * f, "training the moe_lm");
        });
        doc.metrics[K::metric::kTrainLoss] = loss.back();
        tinylm::moePairs(s.fp, corpus.calib, s.calibCtx, s.calibY);
        tinylm::moePairs(s.fp, corpus.eval, s.evalCtx, s.evalY);
    }
    if (!s.calibCtx.empty()) {
        const tinylm::MoeOutput o = tinylm::moeForward(s.fp, s.calibCtx);
        s.targets.pOut = softmaxRows(o.logits);
        s.targets.pRoute = o.routerProbs;
        s.fpEval = tinylm::moeForward(s.fp, s.evalCtx);
        s.lossFp = tinylm::moeLoss(s.fp, s.evalCtx, s.evalY);
    }
    return s;
}

double evalLoss(const ModelSetup& s, const AllocProblem& pr, const Allocation& a, int group) {
    return tinylm::moeLoss(quantiseModel(s.fp, pr.bits, a.option, group, s.fp), s.evalCtx, s.evalY);
}

/// Stage "sweep": loss against average bits for uniform, layer-wise and global allocations (stage-0
/// costs, no router tuning).
void sweepStage(const ModelSetup& s, const AllocProblem& pr, int group, RunContext& ctx,
                ResultDocument& doc) {
    Series u = emptySeries("average bits", "loss (nats/token)"), g = u, l = u;
    for (size_t j = 0; j < pr.bits.size(); ++j) {
        Allocation a;
        a.option.assign(size_t(pr.layers * pr.experts), int(j));
        addPoint(u, pr.bits[j], evalLoss(s, pr, a, group));
    }
    const double lo = minAverageBits(pr), hi = double(pr.bits.back());
    std::vector<double> budgets;
    for (double b : {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0})
        if (lo + b <= hi)
            budgets.push_back(lo + b);
    for (size_t i = 0; i < budgets.size(); ++i) {
        ctx.throwIfCancelled();
        const Allocation ag = allocate(pr, budgets[i], true), al = allocate(pr, budgets[i], false);
        addPoint(g, ag.avgBits, evalLoss(s, pr, ag, group));
        addPoint(l, al.avgBits, evalLoss(s, pr, al, group));
        ctx.progress(0.9 + 0.08 * double(i + 1) / double(budgets.size()), "Pareto sweep");
    }
    doc.series[K::series::kUniform] = u;
    doc.series[K::series::kGlobal] = g;
    doc.series[K::series::kLayerwise] = l;
}

void claimsStage(const ParamSet& p, ResultDocument& doc) {
    const auto& m = doc.metrics;
    const double fp = m.at(K::metric::kLossFp), g = m.at(K::metric::kLossGlobal),
                 l = m.at(K::metric::kLossLayerwise);
    doc.claims.push_back(claimOf(
        K::claim::kGlobalBeats, "At the budget, the global LP's loss is not above the layer-wise LP's",
        g <= l, g - l, 0, "loss_global - loss_layerwise (nats/token), both progressive + router tuning"));
    const double gain = m.at(K::metric::kGlobalGain);
    if (p.getDouble(P::kHetero) >= 1.0)
        doc.claims.push_back(
            claimOf(K::claim::kGlobalGain,
                    "On heterogeneous layers the global LP gains >= 5% over layer-wise", gain >= 0.05, gain,
                    0.05, "(loss_layerwise - loss_global) / (loss_layerwise - loss_fp), excess loss"));
    (void)fp;
    const double sb = m.at(K::metric::kShiftBefore), sa = m.at(K::metric::kShiftAfter);
    doc.claims.push_back(claimOf(K::claim::kRouterShift, "Router fine-tuning lowers the routing shift",
                                 sa < sb, sa - sb, 0,
                                 "routing_shift_after_ft - routing_shift_before_ft (GEMQ, last stage)"));
    const double lb = m.at(K::metric::kLossGlobalBeforeFt);
    doc.claims.push_back(claimOf(K::claim::kRouterLoss, "Router fine-tuning lowers the loss", g < lb, g - lb,
                                 0, "loss_global - loss_global_before_ft (last stage, nats/token)"));
}

} // namespace

void runAllocatorOnly(const ImportanceInput& t, const ParamSet& p, RunContext& ctx, ResultDocument& doc) {
    AllocProblem pr;
    pr.layers = t.layers;
    pr.experts = t.experts;
    pr.bits = t.bits;
    pr.cost = t.cost;
    pr.params = t.params;
    const double avg = p.getDouble(P::kAvgBits);
    checkBudget(pr, avg);
    ctx.throwIfCancelled();
    packAllocation(pr, avg, costliestPerLayer(pr), doc);
    doc.notes.push_back("importance table " + t.path + ": allocator only, bit options from the file");
}

void runGemq(const MoeLmModel* model, const tinylm::PromptSet* calib, const ParamSet& p, RunContext& ctx,
             ResultDocument& doc) {
    const Rng root(ctx.seed());
    const double avg = p.getDouble(P::kAvgBits);
    const std::vector<int> bits = parseBitOptions(p.getString(P::kBits));
    const int group = int(p.getInt(P::kGroup));
    {
        AllocProblem probe;
        probe.bits = bits;
        checkBudget(probe, avg);
    }
    const ModelSetup s = setupModel(model, calib, p, root, ctx, doc);
    const Importance imp = importanceFromName(p.getString(P::kImportance));
    ctx.progress(0.3, "sensitivity");
    auto tickIn = [&](double a, double b, const char* what) {
        return [&ctx, a, b, what](double f) {
            ctx.throwIfCancelled();
            ctx.progress(a + (b - a) * f, what);
        };
    };
    AllocProblem pr;
    pr.layers = s.fp.nLayers();
    pr.experts = s.fp.nExperts();
    pr.bits = bits;
    pr.params = expertParams(s.fp);
    if (s.calibCtx.empty()) { // user model, weight_error, no calibration: allocation only
        pr.cost = expertCosts(s.fp, Sensitivity{}, bits, group);
        packAllocation(pr, avg, costliestPerLayer(pr), doc);
        doc.notes.push_back("no calibration tokens: allocation from the weight error only, no losses");
        return;
    }
    const Sensitivity fisher = measureSensitivity(s.fp, Importance::Fisher, s.calibCtx, s.calibY,
                                                  tickIn(0.3, 0.34, "Fisher traces"));
    const Sensitivity fpSens =
        imp == Importance::Fisher
            ? fisher
            : measureSensitivity(s.fp, imp, s.calibCtx, s.calibY, tickIn(0.34, 0.36, "sensitivity"));
    const std::vector<double> traces = fisherTracePerLayer(fisher, pr.layers, pr.experts);
    doc.vectors[K::vector::kFisherTrace] = traces;
    const auto [tmin, tmax] = std::minmax_element(traces.begin(), traces.end());
    doc.metrics[K::metric::kFisherSpread] = *tmin > 0 ? *tmax / *tmin : 0.0;
    doc.matrices[K::matrix::kExpertLoad] = matrixOf(expertLoad(s.fpEval, pr.experts), "layer ", "expert ", 0);
    pr.cost = expertCosts(s.fp, fpSens, bits, group);

    PipelineConfig pc;
    pc.avgBits = avg;
    pc.bits = bits;
    pc.group = group;
    pc.importance = imp;
    pc.stages = int(p.getInt(P::kStages));
    pc.tune.steps = int(p.getInt(P::kRouterSteps));
    const bool oneShot = pc.stages > 1;
    const double span = oneShot ? 0.18 : 0.27;
    const PipelineResult g =
        runPipeline(s, fpSens, pc, root.fork("global"), tickIn(0.36, 0.36 + span, "GEMQ (global)"));
    pc.global = false;
    const PipelineResult l = runPipeline(s, fpSens, pc, root.fork("layerwise"),
                                         tickIn(0.36 + span, 0.36 + 2 * span, "layer-wise"));
    double lossOneShot = g.lossAfterFt;
    if (oneShot) {
        pc.global = true;
        pc.stages = 1;
        lossOneShot =
            runPipeline(s, fpSens, pc, root.fork("one-shot"), tickIn(0.72, 0.9, "one-shot")).lossAfterFt;
    }
    sweepStage(s, pr, group, ctx, doc);

    // Stage "pack": the allocation keys on the last stage's costs of the global pipeline.
    packAllocation(g.problem, avg, costliestPerLayer(g.problem), doc);
    doc.matrices[K::matrix::kBitsLayerwise] =
        matrixOf(bitsMatrix(l.problem, l.alloc), "layer ", "expert ", 0);
    doc.metrics[K::metric::kAvgBitsLayerwise] = l.alloc.avgBits;
    doc.matrices[K::matrix::kExpertLoadQuant] = matrixOf(g.loadBeforeFt, "layer ", "expert ", 0);
    auto& m = doc.metrics;
    m[K::metric::kLossFp] = s.lossFp;
    int ub = bits.front();
    for (int b : bits)
        if (double(b) <= avg)
            ub = b;
    Allocation uni;
    uni.option.assign(size_t(pr.layers * pr.experts),
                      int(std::find(bits.begin(), bits.end(), ub) - bits.begin()));
    m[K::metric::kUniformBits] = ub;
    m[K::metric::kLossUniform] = evalLoss(s, pr, uni, group);
    m[K::metric::kLossGlobal] = g.lossAfterFt;
    m[K::metric::kLossLayerwise] = l.lossAfterFt;
    m[K::metric::kLossGlobalBeforeFt] = g.lossBeforeFt;
    m[K::metric::kLossOneShot] = lossOneShot;
    m[K::metric::kShiftBefore] = g.shiftBeforeFt;
    m[K::metric::kShiftAfter] = g.shiftAfterFt;
    const double excess = l.lossAfterFt - s.lossFp;
    m[K::metric::kGlobalGain] = excess > 0 ? (l.lossAfterFt - g.lossAfterFt) / excess : 0.0;
    doc.vectors[K::vector::kShiftBefore] = g.shiftLayerBefore;
    doc.vectors[K::vector::kShiftAfter] = g.shiftLayerAfter;
    Series st = emptySeries("stage budget (average bits)", "loss after router tuning (nats/token)");
    for (size_t i = 0; i < g.stageBudget.size(); ++i)
        addPoint(st, g.stageBudget[i], g.stageLoss[i]);
    doc.series[K::series::kStageLoss] = st;
    double bytesFp = 0, bytesQ = 0;
    for (int i = 0; i < pr.layers * pr.experts; ++i) {
        const tinylm::MoeExpert& x = s.fp.layers[size_t(i / pr.experts)].experts[size_t(i % pr.experts)];
        const int b = bits[size_t(g.alloc.option[size_t(i)])];
        bytesFp += 4.0 * double(x.w1.size() + x.w2.size());
        bytesQ += quantisedBytes(x.w1.rows(), x.w1.cols(), b, group) +
                  quantisedBytes(x.w2.rows(), x.w2.cols(), b, group);
    }
    m[K::metric::kBytesFp] = bytesFp;
    m[K::metric::kBytesGlobal] = bytesQ;
    claimsStage(p, doc);
}

} // namespace pl::gemq
