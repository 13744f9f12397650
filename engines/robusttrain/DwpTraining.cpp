#include "DwpTraining.h"

#include "robusttrain/WeightNoise.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::robusttrain {

std::vector<double> affinityWeights(const std::vector<double>& D, double T, double aMin, double aMax,
                                    bool up) {
    const double s = up ? 1.0 : -1.0;
    double m = -1e300;
    for (double d : D)
        m = std::max(m, s * d / T);
    std::vector<double> a(D.size());
    double z = 0;
    for (size_t i = 0; i < D.size(); ++i)
        z += a[i] = std::exp(s * D[i] / T - m);
    for (double& v : a)
        v = std::clamp(double(D.size()) * v / z, aMin, aMax);
    return a;
}

namespace {

struct Batch {
    Eigen::MatrixXd X;
    std::vector<int> y;
};

TapeNoise drawNoise(const Mlp& net, NoiseKind kind, double sigma, Rng& rng) {
    TapeNoise n;
    for (const auto& w : net.W) {
        if (kind == NoiseKind::Multiplicative)
            n.mul.push_back(multiplicativeFactors(w.value.rows(), w.value.cols(), sigma, rng));
        else
            n.add.push_back(additiveOffsets(w.value, sigma, rng));
    }
    return n;
}

/// One minibatch step; returns the loss and adds the rows' disagreement bins to \a bins.
double step(Mlp& net, const Batch& b, DwpMethod method, const DwpTrainConfig& c, double sigma, int stepNo,
            Rng& rng, nn::Adam& adam, std::vector<double>* bins) {
    nn::Tape t;
    nn::Var loss;
    const int B = int(b.y.size());
    if (method == DwpMethod::Standard) {
        loss = nn::mean(nn::softmaxCrossEntropy(forwardTape(t, net, b.X), b.y));
    } else {
        const int R = method == DwpMethod::NoiseInjection ? 1 : c.realisations;
        Eigen::MatrixXi count = Eigen::MatrixXi::Zero(B, net.b.back().value.cols());
        nn::Var ce;
        for (int r = 0; r < R; ++r) {
            const int slot = R == 1 ? stepNo : r;
            const NoiseKind k = c.noise != NoiseKind::Mixed ? c.noise
                                : slot % 2 == 0             ? NoiseKind::Multiplicative
                                                            : NoiseKind::Additive;
            const TapeNoise noise = drawNoise(net, k, sigma, rng);
            const nn::Var logits = forwardTape(t, net, b.X, &noise);
            const std::vector<int> pred = argmaxRows(logits.value());
            for (int i = 0; i < B; ++i)
                ++count(i, pred[size_t(i)]);
            const nn::Var l = nn::softmaxCrossEntropy(logits, b.y);
            ce = r == 0 ? l : nn::add(ce, l);
        }
        std::vector<double> D(static_cast<size_t>(B));
        for (int i = 0; i < B; ++i) {
            D[size_t(i)] = 1.0 - double(count.row(i).maxCoeff()) / R;
            if (bins && R > 1)
                (*bins)[size_t(std::lround(D[size_t(i)] * R))] += 1;
        }
        if (method == DwpMethod::Dwp) {
            const std::vector<double> a =
                affinityWeights(D, c.temperature, c.aMin, c.aMax, c.upweightDisagreement);
            ce = nn::mul(ce, t.constant(Eigen::Map<const Eigen::VectorXd>(a.data(), B)));
        }
        loss = nn::scale(nn::mean(ce), 1.0 / R);
    }
    for (nn::Parameter* p : net.params())
        p->zeroGrad();
    t.backward(loss);
    adam.step(net.params());
    return loss.scalar();
}

} // namespace

DwpTrainLog trainRobust(Mlp& net, const Dataset& train, DwpMethod method, const DwpTrainConfig& c, Rng rng,
                        const std::function<void(double)>& poll) {
    const int N = train.rows(), d = train.dim();
    nn::Adam adam(c.lr);
    std::vector<int> order(static_cast<size_t>(N));
    std::iota(order.begin(), order.end(), 0);
    Rng shuffle = rng.fork("shuffle");
    const int batches = (N + c.batch - 1) / c.batch;
    const bool logBins = (method == DwpMethod::Dwp || method == DwpMethod::RAverage) && c.realisations > 1;
    DwpTrainLog log;
    int stepNo = 0;
    for (int e = 0; e < c.epochs; ++e) {
        for (int i = N - 1; i > 0; --i)
            std::swap(order[size_t(i)], order[size_t(shuffle.uniformInt(uint64_t(i) + 1))]);
        const double ramp = c.curriculum ? std::min(1.0, double(e + 1) / std::max(1.0, 0.5 * c.epochs)) : 1.0;
        std::vector<double> bins(size_t(std::max(1, c.realisations)), 0.0);
        double lossSum = 0;
        for (int bi = 0; bi < batches; ++bi) {
            const int lo = bi * c.batch, hi = std::min(N, lo + c.batch);
            Batch b{Eigen::MatrixXd(hi - lo, d), std::vector<int>(size_t(hi - lo))};
            for (int i = lo; i < hi; ++i) {
                b.X.row(i - lo) = train.X.row(order[size_t(i)]);
                b.y[size_t(i - lo)] = train.y[size_t(order[size_t(i)])];
            }
            lossSum += (hi - lo) * step(net, b, method, c, c.sigmaTrain * ramp, stepNo++, rng, adam,
                                        logBins ? &bins : nullptr);
            if (poll)
                poll((e + double(bi + 1) / batches) / c.epochs);
        }
        log.loss.push_back(lossSum / N);
        if (logBins) {
            for (double& v : bins)
                v /= N;
            log.disagreement.push_back(bins);
        }
    }
    return log;
}

SweepStats sigmaSweep(const Mlp& net, const Dataset& test, const std::vector<double>& sigmas, int draws,
                      NoiseKind kind, Rng rng, const std::function<void()>& poll) {
    SweepStats s;
    for (double sigma : sigmas) {
        std::vector<double> acc;
        for (int k = 0; k < draws; ++k) {
            std::vector<Eigen::MatrixXd> Ws;
            for (const auto& w : net.W)
                Ws.push_back(kind == NoiseKind::Additive ? additiveNoise(w.value, sigma, rng)
                                                         : multiplicativeNoise(w.value, sigma, rng));
            acc.push_back(accuracy(forwardWith(net, Ws, test.X), test.y));
            if (poll)
                poll();
        }
        const double m = std::accumulate(acc.begin(), acc.end(), 0.0) / draws;
        double ss = 0;
        for (double a : acc)
            ss += (a - m) * (a - m);
        s.mean.push_back(m);
        s.sd.push_back(std::sqrt(ss / draws));
    }
    return s;
}

std::vector<double> driftSweep(const Mlp& net, const Dataset& test, const std::vector<double>& times,
                               int draws, bool compensate, Rng rng, const std::function<void()>& poll) {
    std::vector<double> out;
    for (double t : times) {
        double sum = 0;
        for (int k = 0; k < draws; ++k) {
            std::vector<Eigen::MatrixXd> Ws;
            for (const auto& w : net.W)
                Ws.push_back(pcmNoise(w.value, t, compensate, rng));
            sum += accuracy(forwardWith(net, Ws, test.X), test.y);
            if (poll)
                poll();
        }
        out.push_back(sum / draws);
    }
    return out;
}

Eigen::MatrixXd decisionsUnderDraws(const Mlp& net, const Dataset& test, int rows, int draws, double sigma,
                                    Rng rng) {
    rows = std::min(rows, test.rows());
    const Eigen::MatrixXd X = test.X.topRows(rows);
    Eigen::MatrixXd out(draws + 1, rows);
    for (int i = 0; i < rows; ++i)
        out(0, i) = test.y[size_t(i)];
    for (int k = 0; k < draws; ++k) {
        std::vector<Eigen::MatrixXd> Ws;
        for (const auto& w : net.W)
            Ws.push_back(multiplicativeNoise(w.value, sigma, rng));
        const std::vector<int> p = argmaxRows(forwardWith(net, Ws, X));
        for (int i = 0; i < rows; ++i)
            out(k + 1, i) = p[size_t(i)];
    }
    return out;
}

} // namespace pl::robusttrain
