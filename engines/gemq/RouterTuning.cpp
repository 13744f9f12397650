#include "RouterTuning.h"

#include "nn/Tape.h"

#include <cmath>
#include <numeric>

namespace pl::gemq {

using tinylm::Mat;

Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd& logits) {
    Mat p = logits;
    for (Eigen::Index r = 0; r < p.rows(); ++r) {
        const double mx = p.row(r).maxCoeff();
        p.row(r) = (p.row(r).array() - mx).exp().matrix();
        p.row(r) /= p.row(r).sum();
    }
    return p;
}

double meanKl(const Eigen::MatrixXd& p, const Eigen::MatrixXd& logits) {
    double total = 0;
    for (Eigen::Index r = 0; r < p.rows(); ++r) {
        const double mx = logits.row(r).maxCoeff();
        const double lse = mx + std::log((logits.row(r).array() - mx).exp().sum());
        for (Eigen::Index c = 0; c < p.cols(); ++c)
            if (p(r, c) > 0)
                total += p(r, c) * (std::log(p(r, c)) - (logits(r, c) - lse));
    }
    return p.rows() > 0 ? total / double(p.rows()) : 0.0;
}

namespace {

/// Rows \a rows of \a m.
Mat pick(const Mat& m, const std::vector<int>& rows) {
    Mat out(Eigen::Index(rows.size()), m.cols());
    for (size_t i = 0; i < rows.size(); ++i)
        out.row(Eigen::Index(i)) = m.row(rows[i]);
    return out;
}

/// -sum p log softmax(logits) / rows (the KL up to the entropy of p).
nn::Var crossEntropyTo(nn::Tape& tape, nn::Var logits, const Mat& p) {
    const nn::Var logp = nn::sub(logits, nn::logSumExp(logits));
    return nn::scale(nn::sum(nn::mul(logp, tape.constant(p))), -1.0 / double(p.rows()));
}

double entropyOf(const Mat& p) {
    double ent = 0;
    for (Eigen::Index i = 0; i < p.size(); ++i)
        if (p.data()[i] > 0)
            ent -= p.data()[i] * std::log(p.data()[i]);
    return ent / double(p.rows());
}

} // namespace

std::vector<double> tuneRouters(tinylm::MoeLmModel& q, const std::vector<std::vector<int>>& contexts,
                                const TuneTargets& t, const RouterTuneConfig& cfg, Rng rng,
                                const std::function<void(double)>& tick) {
    std::vector<double> trace;
    if (cfg.steps <= 0 || contexts.empty())
        return trace;
    std::vector<nn::Parameter> routers;
    routers.reserve(q.layers.size());
    for (const tinylm::MoeLayer& layer : q.layers)
        routers.emplace_back("router", layer.router);
    std::vector<nn::Parameter*> params;
    for (auto& p : routers)
        params.push_back(&p);
    nn::Adam adam(cfg.lr);
    std::vector<int> order(contexts.size());
    std::iota(order.begin(), order.end(), 0);
    size_t at = order.size();
    for (int step = 0; step < cfg.steps; ++step) {
        std::vector<std::vector<int>> bc;
        std::vector<int> rows;
        while (int(bc.size()) < cfg.batch && bc.size() < contexts.size()) {
            if (at == order.size()) {
                for (size_t i = order.size(); i > 1; --i)
                    std::swap(order[i - 1], order[size_t(rng.uniformInt(i))]);
                at = 0;
            }
            rows.push_back(order[at]);
            bc.push_back(contexts[size_t(order[at++])]);
        }
        nn::Tape tape;
        tinylm::MoeVars v = tinylm::moeConstants(tape, q);
        for (size_t l = 0; l < routers.size(); ++l)
            v.router[l] = tape.param(routers[l]);
        const tinylm::MoeTapeOutput o = tinylm::moeTapeForward(tape, v, q, bc);
        const Mat pOut = pick(t.pOut, rows);
        nn::Var loss = tape.constant(Mat::Zero(1, 1));
        double ent = 0;
        if (cfg.outputKlWeight > 0) {
            loss = nn::scale(crossEntropyTo(tape, o.logits, pOut), cfg.outputKlWeight);
            ent = cfg.outputKlWeight * entropyOf(pOut);
        }
        const double w = cfg.routerKlWeight / double(std::max<size_t>(1, routers.size()));
        if (w > 0)
            for (size_t l = 0; l < routers.size(); ++l) {
                const Mat pr = pick(t.pRoute[l], rows);
                // Each router is fitted on its own block input, held fixed (no gradient into earlier
                // layers: through the hard top-k that path flips routes instead of restoring them).
                const nn::Var z = nn::matmul(tape.constant(o.blockInputs[l].value()), v.router[l]);
                loss = nn::add(loss, nn::scale(crossEntropyTo(tape, z, pr), w));
                ent += w * entropyOf(pr);
            }
        for (nn::Parameter* r : params)
            r->zeroGrad();
        tape.backward(loss);
        adam.step(params);
        trace.push_back(loss.scalar() - ent);
        if (tick)
            tick(double(step + 1) / cfg.steps);
    }
    for (size_t l = 0; l < routers.size(); ++l)
        q.layers[l].router = routers[l].value;
    return trace;
}

double routingShift(const tinylm::MoeOutput& a, const tinylm::MoeOutput& b, std::vector<double>* perLayer) {
    double total = 0;
    size_t n = 0;
    if (perLayer)
        perLayer->clear();
    for (size_t l = 0; l < a.route.size() && l < b.route.size(); ++l) {
        size_t diff = 0;
        for (size_t r = 0; r < a.route[l].size(); ++r)
            diff += a.route[l][r] != b.route[l][r];
        const size_t rows = a.route[l].size();
        if (perLayer)
            perLayer->push_back(rows ? double(diff) / double(rows) : 0.0);
        total += double(diff);
        n += rows;
    }
    return n ? total / double(n) : 0.0;
}

Eigen::MatrixXd expertLoad(const tinylm::MoeOutput& o, int experts) {
    Mat load = Mat::Zero(Eigen::Index(o.route.size()), experts);
    for (size_t l = 0; l < o.route.size(); ++l) {
        double n = 0;
        for (const auto& set : o.route[l])
            for (int e : set) {
                load(Eigen::Index(l), e) += 1;
                n += 1;
            }
        if (n > 0)
            load.row(Eigen::Index(l)) /= n;
    }
    return load;
}

} // namespace pl::gemq
