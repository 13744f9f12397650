#include "lifsnn/LifModels.h"

#include "lifsnn/LifFilter.h"

#include "nn/Parameter.h"
#include "nn/SpikingOps.h"
#include "nn/Tape.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::lifsnn {

using nn::Mat;
using nn::Parameter;
using nn::Tape;
using nn::Var;

namespace {

constexpr int kKernel = 9;
constexpr int kEvalChunk = 256;

/// Frames of the sequences \a idx, time-major: row t * B + b, C columns.
Mat timeMajor(const SeqData& d, const std::vector<int>& idx, int firstStep = 0) {
    const int b = int(idx.size()), T = d.steps - firstStep;
    Mat x(Eigen::Index(T) * b, d.channels);
    for (int t = 0; t < T; ++t)
        for (int k = 0; k < b; ++k)
            for (int c = 0; c < d.channels; ++c)
                x(Eigen::Index(t) * b + k, c) = d.at(idx[size_t(k)], t + firstStep, c);
    return x;
}

/// Flattened windows, one row per sequence (t-major, then channel).
Mat flat(const SeqData& d, const std::vector<int>& idx) {
    Mat x(Eigen::Index(idx.size()), Eigen::Index(d.steps) * d.channels);
    for (size_t k = 0; k < idx.size(); ++k)
        x.row(Eigen::Index(k)) = Eigen::Map<const Eigen::RowVectorXd>(d.sequence(idx[k]), x.cols());
    return x;
}

/// im2col for the 1-D CNN: row t * B + b holds frames t .. t + kKernel - 1 of sequence b.
Mat patches(const SeqData& d, const std::vector<int>& idx) {
    const int b = int(idx.size()), T = d.steps - kKernel + 1, C = d.channels;
    Mat x(Eigen::Index(T) * b, Eigen::Index(kKernel) * C);
    for (int t = 0; t < T; ++t)
        for (int k = 0; k < b; ++k)
            x.row(Eigen::Index(t) * b + k) = Eigen::Map<const Eigen::RowVectorXd>(
                d.sequence(idx[size_t(k)]) + size_t(t) * size_t(C), kKernel * C);
    return x;
}

std::vector<int> labelsOf(const SeqData& d, const std::vector<int>& idx) {
    std::vector<int> y;
    for (int i : idx)
        y.push_back(d.y[size_t(i)]);
    return y;
}

int argmaxRow(const Mat& m, Eigen::Index r) {
    Eigen::Index c = 0;
    m.row(r).maxCoeff(&c);
    return int(c);
}

/// A model: its parameters and its logits for a batch of sequence indices on a tape.
struct Model {
    std::vector<Parameter*> params;
    std::function<Var(Tape&, const std::vector<int>&)> logits;
};

std::vector<double> fit(Model& m, const Split& sp, const TrainSettings& s, Rng rng, const TrainPoll& poll) {
    nn::Adam adam(s.lr);
    adam.setClipNorm(5.0);
    std::vector<int> order = sp.train;
    std::vector<double> curve;
    const int batches = (int(order.size()) + s.batch - 1) / s.batch;
    for (int e = 0; e < s.epochs; ++e) {
        for (int i = int(order.size()) - 1; i > 0; --i)
            std::swap(order[size_t(i)], order[size_t(rng.uniformInt(uint64_t(i + 1)))]);
        double total = 0;
        for (int bi = 0; bi < batches; ++bi) {
            if (poll)
                poll((double(e) + double(bi) / batches) / s.epochs);
            const auto first = order.begin() + std::ptrdiff_t(bi) * s.batch;
            const std::vector<int> idx(first, first + std::min<std::ptrdiff_t>(s.batch, order.end() - first));
            for (Parameter* p : m.params)
                if (p->grad.size())
                    p->zeroGrad();
            Tape t;
            Var loss = nn::mean(nn::softmaxCrossEntropy(m.logits(t, idx), labelsOf(sp.data, idx)));
            t.backward(loss);
            adam.step(m.params);
            total += loss.scalar() * double(idx.size());
        }
        curve.push_back(total / double(order.size()));
    }
    return curve;
}

double accuracy(Model& m, const Split& sp) {
    int right = 0;
    for (size_t first = 0; first < sp.test.size(); first += kEvalChunk) {
        const std::vector<int> idx(sp.test.begin() + std::ptrdiff_t(first),
                                   sp.test.begin() +
                                       std::ptrdiff_t(std::min(sp.test.size(), first + kEvalChunk)));
        Tape t;
        const Var z = m.logits(t, idx);
        for (size_t k = 0; k < idx.size(); ++k)
            right += argmaxRow(z.value(), Eigen::Index(k)) == sp.data.y[size_t(idx[k])];
    }
    return sp.test.empty() ? 0.0 : double(right) / double(sp.test.size());
}

Var dense(Tape& t, Var x, Parameter& w, Parameter& b) {
    return nn::add(nn::matmul(x, t.param(w)), t.param(b));
}

} // namespace

Split makeSplit(const SeqData& d, int trainRows) {
    Split sp;
    sp.data = d;
    const int C = d.channels;
    std::vector<double> mean(size_t(C), 0.0), sq(size_t(C), 0.0);
    const double count = double(std::max(trainRows, 1)) * d.steps;
    for (int i = 0; i < trainRows; ++i)
        for (int t = 0; t < d.steps; ++t)
            for (int c = 0; c < C; ++c)
                mean[size_t(c)] += d.at(i, t, c) / count;
    for (int i = 0; i < trainRows; ++i)
        for (int t = 0; t < d.steps; ++t)
            for (int c = 0; c < C; ++c)
                sq[size_t(c)] += std::pow(d.at(i, t, c) - mean[size_t(c)], 2) / count;
    for (size_t k = 0; k < sp.data.x.size(); ++k) {
        const size_t c = k % size_t(C);
        const double sd = std::sqrt(sq[c]);
        sp.data.x[k] = (sp.data.x[k] - mean[c]) / (sd > 0 ? sd : 1.0);
    }
    sp.train.resize(size_t(trainRows));
    std::iota(sp.train.begin(), sp.train.end(), 0);
    for (int i = trainRows; i < d.n; ++i)
        sp.test.push_back(i);
    return sp;
}

ModelResult trainSnn(const Split& sp, double beta, bool learnable, const TrainSettings& s, const Rng& rng,
                     int shown, const TrainPoll& poll) {
    Rng init = rng.fork("init");
    const int C = sp.data.channels, H = s.hidden, K = sp.data.classes, T = sp.data.steps;
    Parameter w1("w1", nn::glorotUniform(C, H, init)), b1("b1", Mat::Zero(1, H));
    Parameter w2("w2", nn::glorotUniform(H, K, init)), b2("b2", Mat::Zero(1, K));
    Parameter rho("rho", Mat::Constant(1, 1, std::log(beta / (1 - beta))));
    double spikes = 0;
    Mat* membraneOut = nullptr;
    Model m;
    m.params = {&w1, &b1, &w2, &b2};
    if (learnable)
        m.params.push_back(&rho);
    m.logits = [&](Tape& t, const std::vector<int>& idx) {
        const Var x = t.constant(timeMajor(sp.data, idx));
        const Var bt = learnable ? nn::sigmoid(t.param(rho)) : t.constant(Mat::Constant(1, 1, beta));
        const Var spk = nn::lifRecurrence(dense(t, x, w1, b1), bt, T, s.threshold, s.slope, membraneOut);
        spikes += spk.value().sum();
        return dense(t, nn::timeMean(spk, T), w2, b2);
    };
    ModelResult r;
    r.lossCurve = fit(m, sp, s, rng.fork("order"), poll);
    r.betaUsed = learnable ? 1.0 / (1.0 + std::exp(-rho.value(0, 0))) : beta;
    spikes = 0;
    r.accuracy = accuracy(m, sp);
    const double n = double(std::max<size_t>(sp.test.size(), 1));
    r.spikesPerSequence = spikes / n;
    r.macsPerSequence = double(T) * C * H;
    r.acsPerSequence = r.spikesPerSequence * K;
    if (!sp.test.empty()) {
        Mat u;
        membraneOut = &u;
        Tape t;
        const std::vector<int> one{sp.test[size_t(std::clamp(shown, 0, int(sp.test.size()) - 1))]};
        const Var x = t.constant(timeMajor(sp.data, one));
        const Var bt = t.constant(Mat::Constant(1, 1, r.betaUsed));
        const Var spk = nn::lifRecurrence(dense(t, x, w1, b1), bt, T, s.threshold, s.slope, membraneOut);
        r.raster = spk.value().transpose();
        Eigen::Index best = 0;
        r.raster.rowwise().sum().maxCoeff(&best);
        for (int k = 0; k < T; ++k)
            r.membrane.push_back(u(k, best));
    }
    return r;
}

ModelResult trainMlp(const Split& split, double lowPassBeta, const TrainSettings& s, const Rng& rng,
                     const TrainPoll& poll) {
    Split local;
    const Split* sp = &split;
    if (lowPassBeta > 0) {
        local = split;
        for (int i = 0; i < local.data.n; ++i)
            for (int c = 0; c < local.data.channels; ++c)
                lifLowPass(local.data.x.data() + size_t(i) * size_t(local.data.steps * local.data.channels) +
                               size_t(c),
                           local.data.steps, local.data.channels, lowPassBeta);
        sp = &local;
    }
    Rng init = rng.fork("init");
    const int D = sp->data.steps * sp->data.channels, H = s.hidden, K = sp->data.classes;
    Parameter w1("w1", nn::glorotUniform(D, H, init)), b1("b1", Mat::Zero(1, H));
    Parameter w2("w2", nn::glorotUniform(H, K, init)), b2("b2", Mat::Zero(1, K));
    Model m;
    m.params = {&w1, &b1, &w2, &b2};
    m.logits = [&](Tape& t, const std::vector<int>& idx) {
        return dense(t, nn::relu(dense(t, t.constant(flat(sp->data, idx)), w1, b1)), w2, b2);
    };
    ModelResult r;
    r.lossCurve = fit(m, *sp, s, rng.fork("order"), poll);
    r.accuracy = accuracy(m, *sp);
    r.macsPerSequence = double(D) * H + double(H) * K;
    return r;
}

ModelResult trainCnn(const Split& sp, const TrainSettings& s, const Rng& rng, const TrainPoll& poll) {
    Rng init = rng.fork("init");
    const int C = sp.data.channels, H = s.hidden, K = sp.data.classes, T = sp.data.steps - kKernel + 1;
    Parameter w1("w1", nn::glorotUniform(kKernel * C, H, init)), b1("b1", Mat::Zero(1, H));
    Parameter w2("w2", nn::glorotUniform(H, K, init)), b2("b2", Mat::Zero(1, K));
    Model m;
    m.params = {&w1, &b1, &w2, &b2};
    m.logits = [&](Tape& t, const std::vector<int>& idx) {
        const Var h = nn::relu(dense(t, t.constant(patches(sp.data, idx)), w1, b1));
        return dense(t, nn::timeMean(h, T), w2, b2);
    };
    ModelResult r;
    r.lossCurve = fit(m, sp, s, rng.fork("order"), poll);
    r.accuracy = accuracy(m, sp);
    r.macsPerSequence = double(T) * kKernel * C * H + double(H) * K;
    return r;
}

} // namespace pl::lifsnn
