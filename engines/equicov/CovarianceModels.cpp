#include "equicov/CovarianceModels.h"

#include "nn/MatrixFunctionOps.h"
#include "nn/Tape.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::equicov {

using nn::Mat;
using nn::Tape;
using nn::Var;

namespace {

constexpr double kQFloor = 1e-9;

Mat vecIdentity6() {
    Mat v = Mat::Zero(36, 1);
    for (int i = 0; i < 6; ++i)
        v(i * 6 + i, 0) = 1;
    return v;
}

void packMat6(const Mat6& m, Mat& out, Eigen::Index row) {
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            out(row, i * 6 + j) = m(i, j);
}

Var dense(Tape& t, Var x, nn::Parameter& w, nn::Parameter& b) {
    return nn::add(nn::matmul(x, t.param(w)), t.param(b));
}

Var sqrtVar(Var x) {
    return nn::exp(nn::scale(nn::log(x), 0.5));
}

/// Row-wise loss (N x 1) of a family for residuals r, generator S (N x 36).
Var familyLoss(const std::string& loss, Var r, Var s) {
    Tape& t = *r.tape;
    const Var q = nn::addScalar(nn::rowQuadForm(r, nn::symExpm(nn::neg(s), 6)), kQFloor);
    const Var halfTr = nn::scale(nn::matmul(s, t.constant(vecIdentity6())), 0.5);
    if (loss == "gauss_nll")
        return nn::add(halfTr, nn::scale(q, 0.5));
    if (loss == "power_exp")
        return nn::add(halfTr, sqrtVar(q));
    // le_eso: tr S / 2 + log(q / 2) - log K_2(sqrt(2q)) (constants dropped).
    return nn::sub(nn::add(halfTr, nn::log(nn::scale(q, 0.5))),
                   nn::logBesselK(sqrtVar(nn::scale(q, 2.0)), 2.0));
}

std::vector<int> shuffled(int n, Rng& rng) {
    std::vector<int> o(static_cast<size_t>(n));
    std::iota(o.begin(), o.end(), 0);
    for (int i = n - 1; i > 0; --i)
        std::swap(o[size_t(i)], o[size_t(rng.uniformInt(uint64_t(i + 1)))]);
    return o;
}

/// Epoch loop shared by both models: \a step builds the mean loss of one batch on a tape.
template <class Step>
std::vector<double> fit(int n, const TrainConfig& cfg, const std::vector<nn::Parameter*>& params, Rng rng,
                        const Poll& poll, Step step) {
    nn::Adam adam(cfg.lr);
    adam.setClipNorm(10.0);
    std::vector<double> curve;
    const int batches = (n + cfg.batch - 1) / cfg.batch;
    for (int e = 0; e < cfg.epochs; ++e) {
        const std::vector<int> order = shuffled(n, rng);
        double total = 0;
        for (int b = 0; b < batches; ++b) {
            if (poll)
                poll((e + double(b) / batches) / cfg.epochs);
            const std::vector<int> idx(order.begin() + b * cfg.batch,
                                       order.begin() + std::min(n, (b + 1) * cfg.batch));
            for (nn::Parameter* p : params)
                if (p->grad.size())
                    p->zeroGrad();
            Tape t;
            const Var loss = step(t, idx, rng);
            t.backward(loss);
            adam.step(params);
            total += loss.scalar() * double(idx.size());
        }
        curve.push_back(total / n);
    }
    return curve;
}

} // namespace

// ---- EquivariantModel ----

namespace {

/// The forward pass for features \a f: mean (N x 6) and generator (N x 36).
struct Forward {
    Var mean, s;
};

Forward forward(Tape& t, const std::vector<const Features*>& f, const Eigen::Vector3d& mu,
                const Eigen::Vector3d& sd, nn::Parameter& w1, nn::Parameter& b1, nn::Parameter& w2,
                nn::Parameter& b2, bool isotropic) {
    const Eigen::Index n = Eigen::Index(f.size());
    Mat x(n, 3), offset(n, 36);
    std::array<Mat, kMeanTerms> mb;
    std::array<Mat, kCovTerms> cb;
    for (auto& m : mb)
        m.resize(n, 6);
    for (auto& m : cb)
        m.resize(n, 36);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Features& fi = *f[size_t(i)];
        x.row(i) = ((fi.invariants - mu).array() / sd.array()).matrix().transpose();
        const auto mean = fi.meanBasis();
        for (int k = 0; k < kMeanTerms; ++k)
            mb[size_t(k)].row(i) = mean[size_t(k)].transpose();
        const auto cov = fi.covBasis();
        for (int k = 0; k < kCovTerms; ++k)
            packMat6(isotropic ? Mat6(Mat6::Identity()) : cov[size_t(k)], cb[size_t(k)], i);
        packMat6(2 * std::log(fi.scale) * Mat6::Identity(), offset, i);
    }
    const Var out = dense(t, nn::tanh(dense(t, t.constant(x), w1, b1)), w2, b2);
    Forward fw;
    for (int k = 0; k < kMeanTerms; ++k) {
        const Var term = nn::mul(t.constant(mb[size_t(k)]), nn::sliceCols(out, k, 1));
        fw.mean = k == 0 ? term : nn::add(fw.mean, term);
    }
    fw.s = t.constant(offset);
    for (int k = 0; k < (isotropic ? 1 : kCovTerms); ++k)
        fw.s = nn::add(fw.s, nn::mul(t.constant(cb[size_t(k)]), nn::sliceCols(out, kMeanTerms + k, 1)));
    return fw;
}

} // namespace

std::vector<double> EquivariantModel::train(const std::vector<Pair>& data, const TrainConfig& cfg,
                                            const Rng& rng, const Poll& poll) {
    m_cfg = cfg;
    Rng init = rng.fork("init");
    const int h = cfg.hidden, outs = kMeanTerms + kCovTerms;
    m_w1 = nn::Parameter("w1", nn::glorotUniform(3, h, init));
    m_b1 = nn::Parameter("b1", Mat::Zero(1, h));
    m_w2 = nn::Parameter("w2", nn::normalMatrix(h, outs, 0.01, init));
    Mat b2 = Mat::Zero(1, outs);
    b2(0, 0) = 1.0; // mu starts at the cloud's own moment
    b2(0, 1) = 1.0;
    b2(0, kMeanTerms) = b2(0, kMeanTerms + 1) = 2 * std::log(0.05);
    m_b2 = nn::Parameter("b2", b2);
    Eigen::Vector3d sum = Eigen::Vector3d::Zero(), sq = Eigen::Vector3d::Zero();
    for (const Pair& p : data) {
        sum += p.f.invariants;
        sq += p.f.invariants.cwiseProduct(p.f.invariants);
    }
    const double n = double(std::max<size_t>(data.size(), 1));
    m_mean = sum / n;
    m_sd = (sq / n - m_mean.cwiseProduct(m_mean)).cwiseMax(1e-12).cwiseSqrt();
    return fit(int(data.size()), cfg, {&m_w1, &m_b1, &m_w2, &m_b2}, rng.fork("order"), poll,
               [&](Tape& t, const std::vector<int>& idx, Rng&) {
                   std::vector<const Features*> f;
                   Mat y(Eigen::Index(idx.size()), 6);
                   for (size_t k = 0; k < idx.size(); ++k) {
                       f.push_back(&data[size_t(idx[k])].f);
                       y.row(Eigen::Index(k)) = data[size_t(idx[k])].target.transpose();
                   }
                   const Forward fw = forward(t, f, m_mean, m_sd, m_w1, m_b1, m_w2, m_b2, cfg.isotropic);
                   return nn::mean(familyLoss(cfg.loss, nn::sub(t.constant(y), fw.mean), fw.s));
               });
}

std::vector<Prediction> EquivariantModel::predict(const std::vector<Features>& f) const {
    std::vector<Prediction> out;
    auto self = const_cast<EquivariantModel*>(this); // params are read, not trained (tape of constants)
    for (size_t first = 0; first < f.size(); first += 512) {
        std::vector<const Features*> part;
        for (size_t i = first; i < std::min(f.size(), first + 512); ++i)
            part.push_back(&f[i]);
        Tape t;
        const Forward fw =
            forward(t, part, m_mean, m_sd, self->m_w1, self->m_b1, self->m_w2, self->m_b2, m_cfg.isotropic);
        const Mat cov = nn::symExpm(fw.s, 6).value();
        for (size_t k = 0; k < part.size(); ++k) {
            Prediction p;
            p.mean = fw.mean.value().row(Eigen::Index(k)).transpose();
            for (int i = 0; i < 6; ++i)
                for (int j = 0; j < 6; ++j) {
                    p.logCov(i, j) = fw.s.value()(Eigen::Index(k), i * 6 + j);
                    p.cov(i, j) = cov(Eigen::Index(k), i * 6 + j);
                }
            out.push_back(p);
        }
    }
    return out;
}

// ---- AugmentedMlp ----

namespace {

constexpr int kCholesky = 21;

Mat mlpInput(const std::vector<Eigen::Matrix3d>& m) {
    Mat x(Eigen::Index(m.size()), 7);
    for (size_t i = 0; i < m.size(); ++i) {
        const double scale = m[i].trace() / 3;
        x.block<1, 6>(Eigen::Index(i), 0) = (kelvinMandel(m[i]) / scale).transpose();
        x(Eigen::Index(i), 6) = std::log(scale);
    }
    return x;
}

} // namespace

std::vector<double> AugmentedMlp::train(const std::vector<Pair>& data, const TrainConfig& cfg, const Rng& rng,
                                        const Poll& poll) {
    m_cfg = cfg;
    Rng init = rng.fork("init");
    const int h = cfg.hidden * 2;
    m_w1 = nn::Parameter("w1", nn::glorotUniform(7, h, init));
    m_b1 = nn::Parameter("b1", Mat::Zero(1, h));
    m_w2 = nn::Parameter("w2", nn::normalMatrix(h, 6 + kCholesky, 0.01, init));
    m_b2 = nn::Parameter("b2", Mat::Zero(1, 6 + kCholesky));
    return fit(int(data.size()), cfg, {&m_w1, &m_b1, &m_w2, &m_b2}, rng.fork("order"), poll,
               [&](Tape& t, const std::vector<int>& idx, Rng& aug) {
                   std::vector<Eigen::Matrix3d> m;
                   Mat y(Eigen::Index(idx.size()), 6), sc(Eigen::Index(idx.size()), 1);
                   for (size_t k = 0; k < idx.size(); ++k) {
                       const Pair& p = data[size_t(idx[k])];
                       const Eigen::Matrix3d r = randomOrthogonal(aug, true); // augmentation
                       m.push_back(r * p.f.m * r.transpose());
                       y.row(Eigen::Index(k)) = (rho(r) * p.target / p.f.scale).transpose();
                   }
                   const Var out =
                       dense(t, nn::tanh(dense(t, t.constant(mlpInput(m)), m_w1, m_b1)), m_w2, m_b2);
                   // Residual in units of scale; precision = L L^T with L lower triangular, diag e^o.
                   const Var r = nn::sub(t.constant(y), nn::sliceCols(out, 0, 6));
                   Var nll;
                   int col = 6;
                   std::vector<Var> w(6);
                   for (int i = 0; i < 6; ++i)
                       for (int j = 0; j <= i; ++j, ++col) {
                           Var l = nn::sliceCols(out, col, 1);
                           if (i == j) {
                               nll = i == 0 ? nn::neg(l) : nn::sub(nll, l);
                               l = nn::exp(l);
                           }
                           const Var term = nn::mul(l, nn::sliceCols(r, i, 1)); // w_j += L_ij r_i
                           w[size_t(j)] = w[size_t(j)].tape ? nn::add(w[size_t(j)], term) : term;
                       }
                   for (const Var& wj : w)
                       nll = nn::add(nll, nn::scale(nn::square(wj), 0.5));
                   return nn::mean(nll);
               });
}

std::vector<Vec6> AugmentedMlp::predict(const std::vector<Eigen::Matrix3d>& m) const {
    const Mat x = mlpInput(m);
    const Mat h = ((x * m_w1.value).rowwise() + m_b1.value.row(0)).array().tanh().matrix();
    const Mat out = (h * m_w2.value).rowwise() + m_b2.value.row(0);
    std::vector<Vec6> v;
    for (size_t i = 0; i < m.size(); ++i)
        v.push_back(out.block<1, 6>(Eigen::Index(i), 0).transpose() * (m[i].trace() / 3));
    return v;
}

} // namespace pl::equicov
