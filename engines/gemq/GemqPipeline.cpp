#include "GemqPipeline.h"

#include "gemq/Quantiser.h"

#include <algorithm>

namespace pl::gemq {

using tinylm::MoeLmModel;

tinylm::MoeLmModel quantiseModel(const MoeLmModel& fp, const std::vector<int>& bits,
                                 const std::vector<int>& option, int group, const MoeLmModel& routers) {
    MoeLmModel q = fp;
    const size_t E = size_t(fp.nExperts());
    for (size_t l = 0; l < q.layers.size(); ++l) {
        q.layers[l].router = routers.layers[l].router;
        for (size_t e = 0; e < E; ++e) {
            tinylm::MoeExpert& x = q.layers[l].experts[e];
            const int b = bits[size_t(option[l * E + e])];
            x.w1 = quantiseGroupwise(x.w1, b, group);
            x.w2 = quantiseGroupwise(x.w2, b, group);
        }
    }
    return q;
}

std::vector<double> stageBudgets(double target, int stages, const std::vector<int>& bits) {
    const double top =
        std::max(target, std::min(double(*std::max_element(bits.begin(), bits.end())), target + 1.5));
    std::vector<double> b;
    for (int s = 0; s < stages; ++s)
        b.push_back(stages == 1 ? target
                                : target + (top - target) * double(stages - 1 - s) / double(stages - 1));
    return b;
}

PipelineResult runPipeline(const ModelSetup& s, const Sensitivity& fpSens, const PipelineConfig& c, Rng rng,
                           const std::function<void(double)>& tick) {
    PipelineResult r;
    r.problem.layers = s.fp.nLayers();
    r.problem.experts = s.fp.nExperts();
    r.problem.bits = c.bits;
    r.problem.params = expertParams(s.fp);
    const std::vector<double> budgets = stageBudgets(c.avgBits, c.stages, c.bits);
    MoeLmModel current = s.fp;
    const double per = 1.0 / double(budgets.size());
    for (size_t st = 0; st < budgets.size(); ++st) {
        const double base = double(st) * per;
        auto sub = [&](double a, double b) {
            return [&, a, b](double f) {
                if (tick)
                    tick(base + per * (a + (b - a) * f));
            };
        };
        const Sensitivity sens =
            st == 0 ? fpSens : measureSensitivity(current, c.importance, s.calibCtx, s.calibY, sub(0, 0.25));
        r.problem.cost = expertCosts(s.fp, sens, c.bits, c.group);
        r.alloc = allocate(r.problem, budgets[st], c.global);
        current = quantiseModel(s.fp, c.bits, r.alloc.option, c.group, current);
        if (st + 1 == budgets.size()) { // the untuned reference: these experts, fp routers
            const MoeLmModel plain = quantiseModel(s.fp, c.bits, r.alloc.option, c.group, s.fp);
            const tinylm::MoeOutput o = tinylm::moeForward(plain, s.evalCtx);
            r.loadBeforeFt = expertLoad(o, s.fp.nExperts());
            r.shiftBeforeFt = routingShift(s.fpEval, o, &r.shiftLayerBefore);
            r.lossBeforeFt = tinylm::moeLoss(plain, s.evalCtx, s.evalY);
        }
        tuneRouters(current, s.calibCtx, s.targets, c.tune, rng.fork("tune " + std::to_string(st)),
                    sub(0.25, 1));
        r.stageBudget.push_back(budgets[st]);
        r.stageLoss.push_back(tinylm::moeLoss(current, s.evalCtx, s.evalY));
    }
    const tinylm::MoeOutput o = tinylm::moeForward(current, s.evalCtx);
    r.shiftAfterFt = routingShift(s.fpEval, o, &r.shiftLayerAfter);
    r.lossAfterFt = r.stageLoss.back();
    r.model = std::move(current);
    return r;
}

} // namespace pl::gemq
