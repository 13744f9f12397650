#include "gridworld/LatentActionModel.h"

#include "nn/Tape.h"

#include <algorithm>
#include <cmath>

namespace pl::gridworld {

namespace {

/// One hidden ReLU layer: x W1 + b1 -> relu -> W2 + b2 (plain Eigen, no tape).
Eigen::MatrixXd mlp(const Eigen::MatrixXd& x, const nn::Parameter& w1, const nn::Parameter& b1,
                    const nn::Parameter& w2, const nn::Parameter& b2) {
    Eigen::MatrixXd h = x * w1.value;
    h.rowwise() += b1.value.row(0);
    h = h.cwiseMax(0.0);
    Eigen::MatrixXd out = h * w2.value;
    out.rowwise() += b2.value.row(0);
    return out;
}

nn::Var mlp(nn::Tape& t, nn::Var x, nn::Parameter& w1, nn::Parameter& b1, nn::Parameter& w2,
            nn::Parameter& b2) {
    const nn::Var h = nn::relu(nn::add(nn::matmul(x, t.param(w1)), t.param(b1)));
    return nn::add(nn::matmul(h, t.param(w2)), t.param(b2));
}

constexpr double kMinTargetNorm = 1e-6;
constexpr double kInitialLogVar = -4.0;
constexpr double kFrameWeight = 1.0; ///< weight of o_t beside o_{t+1} − o_t in the encoder input
/// The decoder starts near "copy o_t": with full-size output weights the first steps' huge errors kill
/// every hidden unit of the decoder, which then ignores z for good.
constexpr double kOutputInitScale = 1.0;

} // namespace

struct LatentActionModel::Batch {
    Eigen::MatrixXd from, to; ///< raw frames, (batch·k) x pixels
    std::vector<int> group;   ///< window of each transition
    Eigen::MatrixXd target;   ///< unit Δφ per window (zero row when Δφ ≈ 0)
    Eigen::MatrixXd weight;   ///< 1 per usable window, 0 otherwise (batch x 1)
};

LatentActionModel::LatentActionModel(int pixels, int phiDim, double mean, double scale, const LamOptions& o,
                                     Rng& rng)
    : m_o(o), m_mean(mean), m_scale(scale > 0 ? scale : 1.0),
      m_e1("e1", nn::glorotUniform(2 * pixels, o.hidden, rng)), m_eb1("eb1", nn::Mat::Zero(1, o.hidden)),
      m_e2("e2", nn::glorotUniform(o.hidden, 2 * o.dz, rng)), m_eb2("eb2", nn::Mat::Zero(1, 2 * o.dz)),
      m_d1("d1", nn::glorotUniform(pixels, o.hidden, rng)), m_db1("db1", nn::Mat::Zero(1, o.hidden)),
      m_d2("d2", kOutputInitScale * nn::glorotUniform(o.hidden * (o.dz + 1), pixels, rng)),
      m_db2("db2", nn::Mat::Zero(1, pixels)), m_h1("h1", nn::glorotUniform(o.dz, o.hidden, rng)),
      m_hb1("hb1", nn::Mat::Zero(1, o.hidden)), m_h2("h2", nn::glorotUniform(o.hidden, phiDim, rng)),
      m_hb2("hb2", nn::Mat::Zero(1, phiDim)) {
    // start with a narrow posterior (σ ≈ 0.14): with σ = 1 the decoder first learns to ignore z and the
    // posterior collapses onto the prior before the encoder has found the action
    m_eb2.value.rightCols(o.dz).setConstant(kInitialLogVar);
}

std::vector<nn::Parameter*> LatentActionModel::parameters() {
    return {&m_e1, &m_eb1, &m_e2, &m_eb2, &m_d1, &m_db1, &m_d2, &m_db2, &m_h1, &m_hb1, &m_h2, &m_hb2};
}

Eigen::MatrixXd LatentActionModel::norm(const Eigen::MatrixXd& frames) const {
    return (frames.array() - m_mean) / m_scale;
}

LatentActionModel::Batch LatentActionModel::sample(const ClipSet& clips, const Eigen::MatrixXd& phi,
                                                   Rng& rng) const {
    const int k = m_o.window, b = m_o.batch, p = clips.pixels();
    Batch out;
    out.from.resize(b * k, p);
    out.to.resize(b * k, p);
    out.target = Eigen::MatrixXd::Zero(b, phi.cols());
    out.weight = Eigen::MatrixXd::Zero(b, 1);
    for (int w = 0; w < b; ++w) {
        const int clip = int(rng.uniformInt(uint64_t(clips.clips())));
        const int t0 = int(rng.uniformInt(uint64_t(clips.length(clip) - k)));
        const int f0 = clips.start[size_t(clip)] + t0;
        for (int j = 0; j < k; ++j) {
            out.from.row(w * k + j) = clips.frames.row(f0 + j);
            out.to.row(w * k + j) = clips.frames.row(f0 + j + 1);
            out.group.push_back(w);
        }
        const Eigen::RowVectorXd d = phi.row(f0 + k) - phi.row(f0);
        if (d.norm() > kMinTargetNorm) {
            out.target.row(w) = d / d.norm();
            out.weight(w, 0) = 1.0;
        }
    }
    return out;
}

LamCurves LatentActionModel::train(const ClipSet& clips, const Eigen::MatrixXd& phi, Rng& rng,
                                   RunContext& ctx, double p0, double p1) {
    LamCurves curves;
    nn::Adam adam(m_o.learningRate);
    adam.setClipNorm(10.0);
    const std::vector<nn::Parameter*> params = parameters();
    const int dz = m_o.dz;
    double sr = 0, sk = 0, sa = 0;
    int counted = 0;
    for (int it = 0; it < m_o.iterations; ++it) {
        ctx.throwIfCancelled();
        const Batch bt = sample(clips, phi, rng);
        nn::Mat eps(bt.from.rows(), dz);
        for (Eigen::Index i = 0; i < eps.size(); ++i)
            eps.data()[i] = rng.normal();
        for (nn::Parameter* p : params)
            p->zeroGrad();
        nn::Tape t;
        const nn::Var from = t.constant(norm(bt.from));
        const nn::Var enc =
            mlp(t, nn::concatCols({nn::scale(from, kFrameWeight), t.constant((bt.to - bt.from) / m_scale)}),
                m_e1, m_eb1, m_e2, m_eb2);
        const nn::Var mu = nn::sliceCols(enc, 0, dz);
        const nn::Var logvar = nn::sliceCols(enc, dz, dz);
        const nn::Var z = nn::reparam(mu, logvar, eps);
        // multiplicative action conditioning: [h, h·z_1, …, h·z_dz] W2 with h = relu(o W1 + b1)
        const nn::Var h = nn::tanh(nn::add(nn::matmul(from, t.param(m_d1)), t.param(m_db1)));
        std::vector<nn::Var> parts{h};
        for (int j = 0; j < dz; ++j)
            parts.push_back(nn::mul(h, nn::sliceCols(z, j, 1)));
        const nn::Var delta = nn::add(nn::matmul(nn::concatCols(parts), t.param(m_d2)), t.param(m_db2));
        const nn::Var err = nn::sub(nn::add(t.constant(bt.from), delta), t.constant(bt.to));
        const nn::Var recon = nn::mean(nn::rowSum(nn::square(err)));
        const nn::Var kl = nn::mean(nn::rowSum(nn::klGaussian(mu, logvar, 0.0, 1.0)));
        nn::Var loss = nn::add(recon, nn::scale(kl, m_o.beta));
        double alignValue = 0;
        if (m_o.lambda > 0) {
            const nn::Var zsum = nn::scatterSumRows(z, bt.group, m_o.batch);
            const nn::Var g = mlp(t, zsum, m_h1, m_hb1, m_h2, m_hb2);
            const nn::Var gnorm =
                nn::exp(nn::scale(nn::log(nn::addScalar(nn::rowSum(nn::square(g)), 1e-8)), 0.5));
            const nn::Var cosv = nn::div(nn::rowSum(nn::mul(g, t.constant(bt.target))), gnorm);
            const double used = std::max(1.0, bt.weight.sum());
            const nn::Var meanCos = nn::scale(nn::sum(nn::mul(cosv, t.constant(bt.weight))), 1.0 / used);
            const nn::Var align = nn::addScalar(nn::neg(meanCos), 1.0);
            loss = nn::add(loss, nn::scale(align, m_o.lambda));
            alignValue = align.scalar();
        }
        t.backward(loss);
        adam.step(params);
        sr += recon.scalar();
        sk += kl.scalar();
        sa += alignValue;
        ++counted;
        if ((it + 1) % m_o.lossEvery == 0 || it + 1 == m_o.iterations) {
            curves.step.push_back(it + 1);
            curves.recon.push_back(sr / counted);
            curves.kl.push_back(sk / counted);
            curves.align.push_back(sa / counted);
            sr = sk = sa = 0;
            counted = 0;
            ctx.progress(p0 + (p1 - p0) * double(it + 1) / m_o.iterations,
                         "training the latent action model");
        }
    }
    return curves;
}

double LatentActionModel::evalLoss(const ClipSet& clips) const {
    Eigen::MatrixXd from(clips.transitions(), clips.pixels()), to(clips.transitions(), clips.pixels());
    for (int r = 0; r < clips.transitions(); ++r) {
        const int f = clips.frameOfTransition(r);
        from.row(r) = clips.frames.row(f);
        to.row(r) = clips.frames.row(f + 1);
    }
    Eigen::MatrixXd x(from.rows(), 2 * from.cols());
    x << kFrameWeight * norm(from), (to - from) / m_scale;
    const Eigen::MatrixXd enc = mlp(x, m_e1, m_eb1, m_e2, m_eb2);
    const Eigen::ArrayXXd mu = enc.leftCols(m_o.dz).array(), lv = enc.rightCols(m_o.dz).array();
    const double recon = (decode(from, mu.matrix()) - to).squaredNorm();
    const double kl = 0.5 * (lv.exp() + mu.square() - 1.0 - lv).sum();
    return (recon + m_o.beta * kl) / double(std::max<Eigen::Index>(1, from.rows()));
}

Eigen::MatrixXd LatentActionModel::encode(const Eigen::MatrixXd& from, const Eigen::MatrixXd& to) const {
    Eigen::MatrixXd x(from.rows(), from.cols() + to.cols());
    x << kFrameWeight * norm(from), (to - from) / m_scale;
    return mlp(x, m_e1, m_eb1, m_e2, m_eb2).leftCols(m_o.dz);
}

Eigen::MatrixXd LatentActionModel::encodeAll(const ClipSet& clips) const {
    Eigen::MatrixXd from(clips.transitions(), clips.pixels()), to(clips.transitions(), clips.pixels());
    for (int r = 0; r < clips.transitions(); ++r) {
        const int f = clips.frameOfTransition(r);
        from.row(r) = clips.frames.row(f);
        to.row(r) = clips.frames.row(f + 1);
    }
    return encode(from, to);
}

Eigen::MatrixXd LatentActionModel::decode(const Eigen::MatrixXd& frames, const Eigen::MatrixXd& z) const {
    Eigen::MatrixXd h = norm(frames) * m_d1.value;
    h.rowwise() += m_db1.value.row(0);
    h = h.array().tanh().matrix();
    const Eigen::Index hn = h.cols();
    Eigen::MatrixXd x(frames.rows(), hn * (z.cols() + 1));
    x.leftCols(hn) = h;
    for (Eigen::Index j = 0; j < z.cols(); ++j)
        x.middleCols(hn * (j + 1), hn) = h.array().colwise() * z.col(j).array();
    Eigen::MatrixXd out = x * m_d2.value;
    out.rowwise() += m_db2.value.row(0);
    return frames + out;
}

double LatentActionModel::alignCosine(const ClipSet& clips, const Eigen::MatrixXd& phi) const {
    const Eigen::MatrixXd mu = encodeAll(clips);
    const int k = m_o.window;
    double total = 0;
    int n = 0;
    for (int c = 0; c < clips.clips(); ++c)
        for (int t0 = 0; t0 + k < clips.length(c); ++t0) {
            Eigen::RowVectorXd zs = Eigen::RowVectorXd::Zero(m_o.dz);
            for (int j = 0; j < k; ++j)
                zs += mu.row(clips.transitionRow(c, t0 + j));
            const int f0 = clips.start[size_t(c)] + t0;
            const Eigen::RowVectorXd d = phi.row(f0 + k) - phi.row(f0);
            const Eigen::RowVectorXd g = mlp(zs, m_h1, m_hb1, m_h2, m_hb2);
            if (d.norm() > kMinTargetNorm && g.norm() > 0) {
                total += g.dot(d) / (g.norm() * d.norm());
                ++n;
            }
        }
    return n ? total / n : 0.0;
}

} // namespace pl::gridworld
