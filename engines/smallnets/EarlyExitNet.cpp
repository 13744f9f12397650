#include "EarlyExitNet.h"

#include "nn/Tape.h"

#include <stdexcept>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::smallnets {

MixtureData sampleMixture(const MixtureSpec& s, int n, const Rng& centresRng, Rng rng) {
    Rng cr = centresRng;
    Eigen::MatrixXd centres(kSubClusters * s.classes, s.dim);
    for (Eigen::Index r = 0; r < centres.rows(); ++r) {
        for (Eigen::Index c = 0; c < centres.cols(); ++c)
            centres(r, c) = cr.normal();
        centres.row(r) *= s.separation / centres.row(r).norm();
    }
    MixtureData d{Eigen::MatrixXd(n, s.dim), std::vector<int>(size_t(n))};
    for (int i = 0; i < n; ++i) {
        const int y = int(rng.uniformInt(uint64_t(s.classes)));
        const int sub = int(rng.uniformInt(kSubClusters));
        const double scale = 0.15 + 0.85 * rng.uniform();
        d.y[size_t(i)] = y;
        for (int j = 0; j < s.dim; ++j)
            d.X(i, j) = centres(kSubClusters * y + sub, j) + scale * rng.normal();
    }
    return d;
}

namespace {

struct Net {
    std::vector<nn::Parameter> blocks, blockBias, heads, headBias;
    std::vector<nn::Parameter*> all() {
        std::vector<nn::Parameter*> p;
        for (auto* v : {&blocks, &blockBias, &heads, &headBias})
            for (auto& q : *v)
                p.push_back(&q);
        return p;
    }
};

Net makeNet(int dim, int classes, const EarlyExitConfig& c, Rng& rng) {
    Net n;
    for (int k = 0; k < c.exits; ++k) {
        const int in = k == 0 ? dim : c.width;
        n.blocks.emplace_back("W" + std::to_string(k), nn::glorotUniform(in, c.width, rng));
        n.blockBias.emplace_back("b" + std::to_string(k), Eigen::MatrixXd::Zero(1, c.width));
        n.heads.emplace_back("V" + std::to_string(k), nn::glorotUniform(c.width, classes, rng));
        n.headBias.emplace_back("c" + std::to_string(k), Eigen::MatrixXd::Zero(1, classes));
    }
    return n;
}

/// Forward pass of every exit on a batch (Vars on \a t).
std::vector<nn::Var> forward(nn::Tape& t, Net& n, const Eigen::MatrixXd& X, bool train) {
    std::vector<nn::Var> out;
    nn::Var h = t.constant(X);
    for (size_t k = 0; k < n.blocks.size(); ++k) {
        auto P = [&](nn::Parameter& p) { return train ? t.param(p) : t.constant(p.value); };
        h = nn::relu(nn::add(nn::matmul(h, P(n.blocks[k])), P(n.blockBias[k])));
        out.push_back(nn::add(nn::matmul(h, P(n.heads[k])), P(n.headBias[k])));
    }
    return out;
}

/// Joint training loss on the tape: the sum over exits of each exit's mean cross-entropy.
nn::Var jointLoss(nn::Tape& t, Net& n, const Eigen::MatrixXd& X, const std::vector<int>& y) {
    const std::vector<nn::Var> logits = forward(t, n, X, true);
    nn::Var loss = nn::mean(nn::softmaxCrossEntropy(logits[0], y));
    for (size_t k = 1; k < logits.size(); ++k)
        loss = nn::add(loss, nn::mean(nn::softmaxCrossEntropy(logits[k], y)));
    return loss;
}

} // namespace

double earlyExitJointLoss(const MixtureData& batch, int classes, const EarlyExitConfig& c, Rng initRng,
                          const Eigen::VectorXd& delta, Eigen::VectorXd* grad) {
    Net net = makeNet(int(batch.X.cols()), classes, c, initRng);
    Eigen::Index at = 0;
    for (nn::Parameter* p : net.all()) {
        const Eigen::Index size = p->value.size();
        if (delta.size() > 0) {
            if (at + size > delta.size())
                throw std::invalid_argument("earlyExitJointLoss: delta is shorter than the parameters");
            p->value.reshaped() += delta.segment(at, size);
        }
        at += size;
    }
    if (delta.size() > 0 && delta.size() != at)
        throw std::invalid_argument("earlyExitJointLoss: delta is longer than the parameters");
    nn::Tape t;
    const nn::Var loss = jointLoss(t, net, batch.X, batch.y);
    if (grad) {
        for (nn::Parameter* p : net.all())
            p->zeroGrad();
        t.backward(loss);
        grad->resize(at);
        Eigen::Index g = 0;
        for (nn::Parameter* p : net.all()) {
            grad->segment(g, p->grad.size()) = p->grad.reshaped();
            g += p->grad.size();
        }
    }
    return loss.scalar();
}

ExitLogits trainEarlyExit(const MixtureData& train, const MixtureData& eval, int classes,
                          const EarlyExitConfig& c, Rng initRng, std::vector<double>* lossCurve,
                          const std::function<void(double)>& poll) {
    const int dim = int(train.X.cols()), N = int(train.X.rows());
    Net net = makeNet(dim, classes, c, initRng);
    nn::Adam adam(c.lr);
    std::vector<int> order(static_cast<size_t>(N), 0);
    std::iota(order.begin(), order.end(), 0);
    Rng shuffle = initRng.fork("shuffle");
    const int batches = (N + c.batch - 1) / c.batch;
    for (int e = 0; e < c.epochs; ++e) {
        for (int i = N - 1; i > 0; --i)
            std::swap(order[size_t(i)], order[size_t(shuffle.uniformInt(uint64_t(i) + 1))]);
        double lossSum = 0;
        for (int b = 0; b < batches; ++b) {
            const int lo = b * c.batch, hi = std::min(N, lo + c.batch);
            Eigen::MatrixXd X(hi - lo, dim);
            std::vector<int> y(size_t(hi - lo));
            for (int i = lo; i < hi; ++i) {
                X.row(i - lo) = train.X.row(order[size_t(i)]);
                y[size_t(i - lo)] = train.y[size_t(order[size_t(i)])];
            }
            nn::Tape t;
            const nn::Var loss = jointLoss(t, net, X, y);
            for (nn::Parameter* p : net.all())
                p->zeroGrad();
            t.backward(loss);
            adam.step(net.all());
            lossSum += loss.scalar() * double(hi - lo);
            if (poll)
                poll((double(e) + double(b + 1) / batches) / double(c.epochs));
        }
        if (lossCurve)
            lossCurve->push_back(lossSum / double(N));
    }
    ExitLogits out;
    nn::Tape t;
    for (const nn::Var& v : forward(t, net, eval.X, false))
        out.logits.push_back(v.value());
    out.labels = eval.y;
    double f = 0;
    for (int k = 0; k < c.exits; ++k) {
        f += double(k == 0 ? dim : c.width) * c.width + double(c.width) * classes;
        out.flops.push_back(f);
    }
    return out;
}

} // namespace pl::smallnets
