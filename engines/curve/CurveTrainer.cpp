#include "curve/CurveTrainer.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>

namespace pl::curve {

using nn::Mat;
using nn::Var;

namespace {

Mat normals(Eigen::Index rows, Rng& rng) {
    Mat m(rows, 1);
    for (Eigen::Index i = 0; i < rows; ++i)
        m(i, 0) = rng.normal();
    return m;
}

/// Population variance over the groups present: rows of `values` (rows x 1) summed into groups
/// by `group`, divided by the group sizes.
Var groupMeanVariance(nn::Tape& t, Var values, const std::vector<int>& group, int groups) {
    std::vector<int> count(size_t(groups), 0);
    for (int g : group)
        ++count[size_t(g)];
    std::vector<int> present;
    for (int g = 0; g < groups; ++g)
        if (count[size_t(g)] > 0)
            present.push_back(g);
    if (present.size() < 2)
        return t.constant(Mat::Zero(1, 1));
    const Var sums = gatherRows(scatterSumRows(values, group, groups), present);
    Mat inv(Eigen::Index(present.size()), 1);
    for (size_t k = 0; k < present.size(); ++k)
        inv(Eigen::Index(k), 0) = 1.0 / count[size_t(present[k])];
    const Var means = mul(sums, t.constant(inv));
    return mean(square(sub(means, mean(means))));
}

} // namespace

double balancedAccuracy(const std::vector<int>& label, const std::vector<int>& pred) {
    std::array<double, kRelations> hit{}, n{};
    for (size_t i = 0; i < label.size(); ++i) {
        n[size_t(label[i])] += 1;
        if (pred[i] == label[i])
            hit[size_t(label[i])] += 1;
    }
    double s = 0;
    int k = 0;
    for (int c = 0; c < kRelations; ++c)
        if (n[size_t(c)] > 0) {
            s += hit[size_t(c)] / n[size_t(c)];
            ++k;
        }
    return k ? s / k : 0.0;
}

TrainLog trainModel(RelationModel& model, const std::vector<const Scene*>& train, const TrainConfig& cfg,
                    Rng rng, const StepHook& onStep, const EpochHook& onEpoch) {
    if (train.empty())
        throw EngineError("no training scenes");
    TrainLog log;
    Rng shuffleRng = rng.fork("shuffle"), noiseRng = rng.fork("noise");
    nn::Adam opt(cfg.learningRate);
    opt.setClipNorm(5.0);
    const int bs = std::max(1, std::min(cfg.batchScenes, int(train.size())));
    const int perEpoch = (int(train.size()) + bs - 1) / bs;
    const int steps = perEpoch * cfg.epochs;
    std::vector<const Scene*> order = train;
    auto params = model.parameters();
    int step = 0;
    const int envs = std::max(1, cfg.environments);
    for (int ep = 0; ep < cfg.epochs; ++ep) {
        for (size_t i = order.size(); i > 1; --i) // Fisher-Yates with our own generator
            std::swap(order[i - 1], order[size_t(shuffleRng.uniformInt(i))]);
        for (int k = 0; k < perEpoch; ++k, ++step) {
            const size_t lo = size_t(k * bs), hi = std::min(order.size(), lo + size_t(bs));
            const GraphBatch b =
                buildBatch(std::vector<const Scene*>(order.begin() + long(lo), order.begin() + long(hi)));
            if (b.pairEdge.empty())
                continue;
            const double frac = steps > 1 ? double(step) / double(steps - 1) : 1.0;
            const double tau = cfg.curve ? cfg.tauStart * std::pow(cfg.tauEnd / cfg.tauStart, frac) : 1.0;
            const double ramp = cfg.warmup > 0 ? std::min(1.0, frac / cfg.warmup) : 1.0;
            for (auto* p : params)
                p->zeroGrad();
            nn::Tape t;
            const Mat eps = normals(Eigen::Index(b.src.size()), noiseRng);
            const auto f = model.forward(t, b, cfg.curve ? &eps : nullptr, tau);
            const Var cePairs = softmaxCrossEntropy(f.logits, b.pairLabel);
            const Var ce = mean(cePairs);
            Var total = ce;
            if (cfg.curve) {
                const LossWeights& w = cfg.w;
                const Var kl = mean(klGaussian(f.mu, f.logvar, w.priorMu, 1.0));
                const Var unc = mean(mul(exp(f.logvar), f.a));
                const Var sparse = mean(f.a);
                std::vector<int> kindEnv(b.edgeKind.size());
                for (size_t e = 0; e < kindEnv.size(); ++e)
                    kindEnv[e] = b.edgeKind[e] * envs + std::min(b.edgeEnv[e], envs - 1);
                Var envVar = t.constant(Mat::Zero(1, 1));
                for (int kind = 0; kind < kEdgeKinds; ++kind) {
                    std::vector<int> rows, grp;
                    for (size_t e = 0; e < kindEnv.size(); ++e)
                        if (b.edgeKind[e] == kind) {
                            rows.push_back(int(e));
                            grp.push_back(std::min(b.edgeEnv[e], envs - 1));
                        }
                    if (!rows.empty())
                        envVar = add(envVar, groupMeanVariance(t, gatherRows(f.a, rows), grp, envs));
                }
                std::vector<int> pe(b.pairEnv.size());
                for (size_t i = 0; i < pe.size(); ++i)
                    pe[i] = std::min(b.pairEnv[i], envs - 1);
                const Var vrex = groupMeanVariance(t, cePairs, pe, envs);
                total = add(total, scale(kl, w.betaKl));
                total = add(total, scale(unc, ramp * w.lambdaSigma));
                total = add(total, scale(sparse, ramp * w.lambdaSparse));
                total = add(total, scale(envVar, ramp * w.lambdaEnv));
                total = add(total, scale(vrex, ramp * w.lambdaVrex));
                if (f.protoLogits.tape && envs > 1 && w.lambdaProto > 0)
                    total = add(total, scale(mean(softmaxCrossEntropy(f.protoLogits, pe)), w.lambdaProto));
            }
            t.backward(total);
            opt.step(params);
            log.loss.push_back(total.scalar());
            log.ce.push_back(ce.scalar());
            if (onStep)
                onStep(step, steps, total.scalar());
        }
        if (onEpoch)
            onEpoch(ep, model, log);
    }
    return log;
}

Evaluation evaluateModel(RelationModel& model, const std::vector<const Scene*>& scenes, int samples,
                         double tau, Rng rng, const std::function<void()>& poll) {
    Evaluation ev;
    ev.batch = buildBatch(scenes);
    const GraphBatch& b = ev.batch;
    const size_t P = b.pairEdge.size(), E = b.src.size();
    ev.prob.assign(P, {});
    ev.edgeGate.assign(E, 0.0);
    ev.edgeSigma.assign(E, 0.0);
    std::vector<double> gate2(E, 0.0);
    ev.pairEdge = b.pairEdge;
    const bool variational = model.config().variational;
    const int T = variational ? std::max(1, samples) : 1;
    for (int s = 0; s < T; ++s) {
        if (poll)
            poll();
        nn::Tape t;
        const Mat eps = normals(Eigen::Index(E), rng);
        const auto f = model.forward(t, b, variational ? &eps : nullptr, tau);
        Mat p = f.logits.value();
        for (Eigen::Index r = 0; r < p.rows(); ++r) {
            const double m = p.row(r).maxCoeff();
            p.row(r) = (p.row(r).array() - m).exp().matrix();
            p.row(r) /= p.row(r).sum();
            for (int c = 0; c < kRelations; ++c)
                ev.prob[size_t(r)][size_t(c)] += p(r, c) / T;
        }
        for (size_t e = 0; e < E; ++e) {
            const double a = f.a.value()(Eigen::Index(e), 0);
            ev.edgeGate[e] += a / T;
            gate2[e] += a * a / T;
            if (s == 0 && variational)
                ev.edgeSigma[e] = std::exp(0.5 * f.logvar.value()(Eigen::Index(e), 0));
        }
    }
    ev.edgeGateSd.assign(E, 0.0);
    if (T > 1)
        for (size_t e = 0; e < E; ++e)
            ev.edgeGateSd[e] =
                std::sqrt(std::max(0.0, gate2[e] - ev.edgeGate[e] * ev.edgeGate[e]) * T / (T - 1));
    ev.label = b.pairLabel;
    ev.pred.resize(P);
    ev.confidence.resize(P);
    int hits = 0;
    for (size_t i = 0; i < P; ++i) {
        const auto& pr = ev.prob[i];
        const int c = int(std::max_element(pr.begin(), pr.end()) - pr.begin());
        ev.pred[i] = c;
        ev.confidence[i] = pr[size_t(c)];
        hits += c == ev.label[i];
    }
    ev.accuracy = P ? double(hits) / double(P) : 0.0;
    ev.balancedAccuracy = balancedAccuracy(ev.label, ev.pred);
    return ev;
}

} // namespace pl::curve
