#include "FedTraining.h"

#include "core/Numeric.h"

#include <cmath>
#include <numeric>

namespace pl::robusttrain {

Eigen::MatrixXd rowsOf(const Eigen::MatrixXd& X, const std::vector<int>& idx) {
    Eigen::MatrixXd out(Eigen::Index(idx.size()), X.cols());
    for (size_t i = 0; i < idx.size(); ++i)
        out.row(Eigen::Index(i)) = X.row(idx[i]);
    return out;
}

std::vector<double> crossEntropyRows(const Eigen::MatrixXd& logits, const std::vector<int>& y) {
    std::vector<double> out(y.size());
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
        const double m = logits.row(r).maxCoeff();
        const double lse = m + std::log((logits.row(r).array() - m).exp().sum());
        out[size_t(r)] = lse - logits(r, y[size_t(r)]);
    }
    return out;
}

namespace {

Eigen::MatrixXd softmaxT(const Eigen::MatrixXd& logits, double T) {
    Eigen::MatrixXd p = logits / T;
    for (Eigen::Index r = 0; r < p.rows(); ++r) {
        p.row(r).array() -= p.row(r).maxCoeff();
        p.row(r) = p.row(r).array().exp().matrix();
        p.row(r) /= p.row(r).sum();
    }
    return p;
}

/// The loss of one minibatch on tape \a t.
nn::Var batchLoss(nn::Tape& t, Mlp& net, const Eigen::MatrixXd& X, const std::vector<int>& y,
                  const Eigen::VectorXd& w, const LocalConfig& c, const Mlp& global, const Mlp* teacher) {
    nn::Var feat;
    const nn::Var logits = forwardTape(t, net, X, nullptr, c.repWeight > 0 ? &feat : nullptr);
    const double B = double(X.rows());
    nn::Var loss;
    const double wsum = w.sum();
    if (wsum > 0) {
        const nn::Var ce = nn::mul(nn::softmaxCrossEntropy(logits, y), t.constant(w));
        loss = nn::scale(nn::sum(ce), 1.0 / wsum);
    }
    auto addTerm = [&](nn::Var term) { loss = loss.tape ? nn::add(loss, term) : term; };
    if (c.kdWeight > 0 && teacher) {
        const double T = c.kdTemperature;
        const Eigen::MatrixXd pT = softmaxT(forward(*teacher, X), T);
        const Eigen::MatrixXd logPT = pT.array().max(1e-300).log().matrix();
        const nn::Var z = nn::scale(logits, 1.0 / T);
        const nn::Var logPS = nn::sub(z, nn::logSumExp(z));
        const nn::Var kl = nn::sum(nn::mul(t.constant(pT), nn::sub(t.constant(logPT), logPS)));
        addTerm(nn::scale(kl, c.kdWeight * T * T / B));
    }
    if (c.repWeight > 0) {
        Eigen::MatrixXd phiG;
        forward(global, X, &phiG);
        addTerm(nn::scale(nn::sum(nn::square(nn::sub(feat, t.constant(phiG)))), c.repWeight / B));
    }
    if (c.proxMu > 0)
        for (size_t l = 0; l < net.W.size(); ++l) {
            addTerm(nn::scale(nn::sum(nn::square(nn::sub(t.param(net.W[l]), t.constant(global.W[l].value)))),
                              0.5 * c.proxMu));
            addTerm(nn::scale(nn::sum(nn::square(nn::sub(t.param(net.b[l]), t.constant(global.b[l].value)))),
                              0.5 * c.proxMu));
        }
    return loss;
}

void emaUpdate(Mlp& teacher, const Mlp& net, double m) {
    for (size_t l = 0; l < net.W.size(); ++l) {
        teacher.W[l].value = m * teacher.W[l].value + (1 - m) * net.W[l].value;
        teacher.b[l].value = m * teacher.b[l].value + (1 - m) * net.b[l].value;
    }
}

} // namespace

void localTrain(Mlp& net, const Eigen::MatrixXd& X, const LocalTargets& t, const LocalConfig& c,
                const Mlp& global, Mlp* teacher, Rng& rng, const std::function<void()>& poll) {
    const int N = int(X.rows());
    if (N == 0)
        return;
    for (nn::Parameter* p : net.params()) {
        p->m.setZero();
        p->v.setZero();
    }
    nn::Adam adam(c.lr);
    std::vector<int> order(static_cast<size_t>(N));
    std::iota(order.begin(), order.end(), 0);
    for (int e = 0; e < c.epochs; ++e) {
        for (int i = N - 1; i > 0; --i)
            std::swap(order[size_t(i)], order[size_t(rng.uniformInt(uint64_t(i) + 1))]);
        for (int lo = 0; lo < N; lo += c.batch) {
            const int hi = std::min(N, lo + c.batch);
            const std::vector<int> idx(order.begin() + lo, order.begin() + hi);
            std::vector<int> y(idx.size());
            Eigen::VectorXd w(Eigen::Index(idx.size()));
            for (size_t i = 0; i < idx.size(); ++i) {
                y[i] = t.y[size_t(idx[i])];
                w(Eigen::Index(i)) = t.weight[size_t(idx[i])];
            }
            nn::Tape tape;
            const nn::Var loss = batchLoss(tape, net, rowsOf(X, idx), y, w, c, global, teacher);
            if (!loss.tape)
                continue; // nothing to learn from this batch
            for (nn::Parameter* p : net.params())
                p->zeroGrad();
            tape.backward(loss);
            adam.step(net.params());
            if (teacher)
                emaUpdate(*teacher, net, c.emaMomentum);
            if (poll)
                poll();
        }
    }
}

Mlp averageModels(const std::vector<Mlp>& models, const std::vector<double>& weights) {
    Mlp out = models.front();
    const double W = std::accumulate(weights.begin(), weights.end(), 0.0);
    for (size_t l = 0; l < out.W.size(); ++l) {
        out.W[l].value.setZero();
        out.b[l].value.setZero();
        for (size_t k = 0; k < models.size(); ++k) {
            if (weights[k] <= 0)
                continue;
            out.W[l].value += (weights[k] / W) * models[k].W[l].value;
            out.b[l].value += (weights[k] / W) * models[k].b[l].value;
        }
    }
    return out;
}

void blendInto(Mlp& teacher, const Mlp& global, double beta) {
    emaUpdate(teacher, global, 1 - beta);
}

double memorisationRate(const Mlp& net, const Federation& f) {
    const std::vector<int> p = argmaxRows(forward(net, f.train.X));
    int noisy = 0, hit = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (f.train.y[i] != f.clean[i]) {
            ++noisy;
            hit += p[i] == f.train.y[i];
        }
    return noisy ? double(hit) / noisy : kNaN;
}

} // namespace pl::robusttrain
