#include "mdp/SacNetworks.h"

#include <cmath>
#include <numbers>

namespace pl::mdp {

Mat standardNormals(int rows, int cols, Rng& rng) {
    return nn::normalMatrix(rows, cols, 1.0, rng);
}

MlpBody::MlpBody(int in, int hidden, Rng& rng, const std::string& name)
    : m_w1(name + ".w1", nn::glorotUniform(in, hidden, rng)), m_b1(name + ".b1", Mat::Zero(1, hidden)),
      m_w2(name + ".w2", nn::glorotUniform(hidden, hidden, rng)), m_b2(name + ".b2", Mat::Zero(1, hidden)) {}

nn::Var MlpBody::leaf(nn::Tape& t, nn::Parameter& p, bool train) const {
    return train ? t.param(p) : t.constant(p.value);
}

nn::Var MlpBody::features(nn::Tape& t, nn::Var x, bool train) {
    const nn::Var h1 = nn::relu(nn::add(nn::matmul(x, leaf(t, m_w1, train)), leaf(t, m_b1, train)));
    return nn::relu(nn::add(nn::matmul(h1, leaf(t, m_w2, train)), leaf(t, m_b2, train)));
}

std::vector<nn::Parameter*> MlpBody::params() {
    return {&m_w1, &m_b1, &m_w2, &m_b2};
}

void MlpBody::polyak(const MlpBody& src, double tau) {
    for (auto [dst, from] : {std::pair{&m_w1, &src.m_w1}, std::pair{&m_b1, &src.m_b1},
                             std::pair{&m_w2, &src.m_w2}, std::pair{&m_b2, &src.m_b2}})
        dst->value = (1 - tau) * dst->value + tau * from->value;
}

Critic::Critic(int hidden, bool bayesian, double priorSd, Rng& rng, const std::string& name)
    : m_body(4, hidden, rng, name), m_prior(Mat::Zero(hidden + 1, 1)),
      m_delta(name + ".head", Mat::Zero(hidden + 1, 1)), m_priorVar(priorSd * priorSd), m_bayesian(bayesian) {
    m_prior.topRows(hidden) = nn::glorotUniform(hidden, 1, rng);
    // Posterior starts narrower than the prior (σ = σ_P/10) so early draws do not swamp the values.
    m_logVar = nn::Parameter(name + ".head_logvar", Mat::Constant(hidden + 1, 1, std::log(m_priorVar / 100)));
}

nn::Var Critic::q(nn::Tape& t, nn::Var x, bool train, Head head, const Mat& m) {
    const nn::Var phi = m_body.features(t, x, train);
    const nn::Var ext = nn::concatCols({phi, t.constant(Mat::Ones(x.rows(), 1))});
    nn::Var h;
    if (head == Head::Fixed) {
        h = t.constant(m);
    } else {
        const nn::Var mean =
            nn::add(t.constant(m_prior), train ? t.param(m_delta) : t.constant(m_delta.value));
        h = (head == Head::Draw && m_bayesian)
                ? nn::reparam(mean, train ? t.param(m_logVar) : t.constant(m_logVar.value), m)
                : mean;
    }
    return nn::matmul(ext, h);
}

Mat Critic::features(const Mat& x) {
    nn::Tape t;
    const nn::Var phi = m_body.features(t, t.constant(x), false);
    Mat out(x.rows(), phi.cols() + 1);
    out.leftCols(phi.cols()) = phi.value();
    out.col(phi.cols()).setOnes();
    return out;
}

Mat Critic::meanHead() const {
    return m_prior + m_delta.value;
}

Mat Critic::headSd() const {
    if (!m_bayesian)
        return Mat::Zero(m_prior.rows(), 1);
    return (0.5 * m_logVar.value.array()).exp().matrix();
}

Mat Critic::drawHead(Rng& rng) const {
    return meanHead() + headSd().cwiseProduct(standardNormals(int(m_prior.rows()), 1, rng));
}

nn::Var Critic::kl(nn::Tape& t) {
    return nn::sum(nn::klGaussian(t.param(m_delta), t.param(m_logVar), 0.0, m_priorVar));
}

double Critic::klValue() const {
    if (!m_bayesian)
        return 0;
    const auto var = m_logVar.value.array().exp();
    return 0.5 * (var / m_priorVar + m_delta.value.array().square() / m_priorVar - 1.0 +
                  std::log(m_priorVar) - m_logVar.value.array())
                     .sum();
}

std::vector<nn::Parameter*> Critic::params() {
    std::vector<nn::Parameter*> p = m_body.params();
    p.push_back(&m_delta);
    if (m_bayesian)
        p.push_back(&m_logVar);
    return p;
}

void Critic::polyak(const Critic& src, double tau) {
    m_body.polyak(src.m_body, tau);
    m_delta.value = (1 - tau) * m_delta.value + tau * src.m_delta.value;
    m_prior = src.m_prior; // the same h₀ for the target, so Δ carries the whole difference
}

Actor::Actor(int hidden, Rng& rng)
    : m_body(3, hidden, rng, "actor"), m_w("actor.out", nn::glorotUniform(hidden, 2, rng)),
      m_b("actor.out_bias", Mat::Zero(1, 2)) {}

nn::Var Actor::head(nn::Tape& t, nn::Var obs, bool train) {
    const nn::Var phi = m_body.features(t, obs, train);
    return nn::add(nn::matmul(phi, train ? t.param(m_w) : t.constant(m_w.value)),
                   train ? t.param(m_b) : t.constant(m_b.value));
}

Actor::Sample Actor::sample(nn::Tape& t, nn::Var obs, const Mat& eps, bool train) {
    const nn::Var out = head(t, obs, train);
    const nn::Var mu = nn::sliceCols(out, 0, 1);
    const nn::Var logSd =
        nn::addScalar(nn::scale(nn::addScalar(nn::tanh(nn::sliceCols(out, 1, 1)), 1.0), 3.5), -5.0);
    const nn::Var u = nn::add(mu, nn::mul(nn::exp(logSd), t.constant(eps)));
    // log π(a) = log N(u; μ, σ) − log|da/du|, da/du = 2(1 − tanh²u) and
    // log(1 − tanh²u) = 2(log 2 − u − softplus(−2u)) (stable for large |u|).
    const double ln2 = std::numbers::ln2;
    const Mat base = (-0.5 * eps.array().square() - 0.5 * std::log(2 * std::numbers::pi) - ln2).matrix();
    const nn::Var logJac = nn::scale(nn::sub(nn::neg(u), nn::softplus(nn::scale(u, -2.0))), 2.0);
    const nn::Var logProb = nn::sub(nn::sub(nn::add(t.constant(base), nn::neg(logSd)), logJac),
                                    t.constant(Mat::Constant(eps.rows(), 1, 2 * ln2)));
    return {nn::scale(nn::tanh(u), 2.0), logProb};
}

Mat Actor::meanAction(const Mat& obs) {
    nn::Tape t;
    const nn::Var out = head(t, t.constant(obs), false);
    return 2.0 * out.value().col(0).array().tanh().matrix();
}

std::vector<nn::Parameter*> Actor::params() {
    std::vector<nn::Parameter*> p = m_body.params();
    p.push_back(&m_w);
    p.push_back(&m_b);
    return p;
}

} // namespace pl::mdp
