#include "mdp/SacAgent.h"

#include "mdp/PacBayesBound.h"

#include <algorithm>
#include <cmath>

namespace pl::mdp {

double batchMeansAutocorrelation(const double* x, int n, int batch) {
    const int batches = n / batch;
    if (batches < 10)
        return 0;
    const int used = batches * batch;
    double mean = 0;
    for (int i = 0; i < used; ++i)
        mean += x[i];
    mean /= used;
    double var = 0;
    for (int i = 0; i < used; ++i)
        var += (x[i] - mean) * (x[i] - mean);
    var /= used - 1;
    if (!(var > 0))
        return 0;
    double varMeans = 0;
    for (int b = 0; b < batches; ++b) {
        double m = 0;
        for (int i = 0; i < batch; ++i)
            m += x[b * batch + i];
        m = m / batch - mean;
        varMeans += m * m;
    }
    varMeans /= batches - 1;
    return batch * varMeans / var;
}

SacAgent::SacAgent(const SacSettings& s, int capacity, Rng rng)
    : m_s(s), m_rng(std::move(rng)), m_actor(s.hidden, m_rng),
      m_q1(s.hidden, s.pacBayes, s.priorSd, m_rng, "q1"), m_q2(s.hidden, s.pacBayes, s.priorSd, m_rng, "q2"),
      m_target1(m_q1), m_target2(m_q2), m_logAlpha("log_alpha", Mat::Zero(1, 1)), m_actorOpt(s.lr),
      m_criticOpt(s.lr), m_alphaOpt(s.lr) {
    m_traj.obs = Mat::Zero(capacity, 3);
    m_traj.action = Mat::Zero(capacity, 1);
    m_traj.reward = Mat::Zero(capacity, 1);
    m_traj.next = Mat::Zero(capacity, 3);
    m_draw1 = m_q1.meanHead();
    m_draw2 = m_q2.meanHead();
}

double SacAgent::act(const std::array<double, 3>& obs) {
    nn::Tape t;
    const Mat o = Eigen::RowVector3d(obs[0], obs[1], obs[2]);
    return m_actor.sample(t, t.constant(o), standardNormals(1, 1, m_rng), false).action.scalar();
}

void SacAgent::record(const std::array<double, 3>& obs, double action, double reward,
                      const std::array<double, 3>& next) {
    const int i = m_traj.size;
    if (i >= m_traj.obs.rows())
        return; // capacity is the run's step count: never reached
    m_traj.obs.row(i) = Eigen::RowVector3d(obs[0], obs[1], obs[2]);
    m_traj.action(i, 0) = action;
    m_traj.reward(i, 0) = reward;
    m_traj.next.row(i) = Eigen::RowVector3d(next[0], next[1], next[2]);
    ++m_traj.size;
}

void SacAgent::beginEpisode() {
    m_tMix = batchMeansAutocorrelation(m_traj.reward.data(), m_traj.size, 50);
    if (m_s.pacBayes) {
        m_draw1 = m_q1.drawHead(m_rng);
        m_draw2 = m_q2.drawHead(m_rng);
    }
}

double SacAgent::complexity() const {
    if (!m_s.pacBayes || m_traj.size == 0)
        return 0;
    return complexityAt(m_q1.klValue(), m_s.delta, m_s.tauFactor * (m_tMix + 1), certifiedCount()).value;
}

double SacAgent::entropyTarget() const {
    return -1.0 + std::min(1.0, complexity());
}

double SacAgent::alpha() const {
    return std::exp(m_logAlpha.value(0, 0));
}

double SacAgent::meanPosteriorSd() const {
    return m_q1.headSd().mean();
}

Mat SacAgent::rows(const Mat& m, const std::vector<int>& idx) const {
    Mat out(Eigen::Index(idx.size()), m.cols());
    for (size_t r = 0; r < idx.size(); ++r)
        out.row(Eigen::Index(r)) = m.row(idx[r]);
    return out;
}

void SacAgent::update() {
    if (m_traj.size < m_s.batch)
        return;
    std::vector<int> idx(size_t(m_s.batch));
    for (int& i : idx)
        i = int(m_rng.uniformInt(uint64_t(m_traj.size)));
    updateCritics(idx);
    updateActor(idx);
    m_target1.polyak(m_q1, m_s.polyak);
    m_target2.polyak(m_q2, m_s.polyak);
}

void SacAgent::updateCritics(const std::vector<int>& idx) {
    const Mat S = rows(m_traj.obs, idx), A = rows(m_traj.action, idx), R = rows(m_traj.reward, idx),
              S2 = rows(m_traj.next, idx);
    const int B = int(idx.size());
    // Soft target y = r + γ (min_i Q̄_i(s′, a′) − α log π(a′|s′)), a′ ~ π(·|s′); no gradient.
    Mat y;
    {
        nn::Tape t;
        const Actor::Sample next = m_actor.sample(t, t.constant(S2), standardNormals(B, 1, m_rng), false);
        const nn::Var x2 = nn::concatCols({t.constant(S2), next.action});
        const Mat q1 = m_target1.q(t, x2, false, Critic::Head::Mean).value();
        const Mat q2 = m_target2.q(t, x2, false, Critic::Head::Mean).value();
        y = R + m_s.gamma * (q1.cwiseMin(q2) - alpha() * next.logProb.value());
    }
    nn::Tape t;
    Mat SA(B, 4);
    SA << S, A;
    const nn::Var x = t.constant(SA), target = t.constant(y);
    const double invC2 = 1.0 / (m_s.clipC * m_s.clipC);
    const double tau = m_s.tauFactor * (m_tMix + 1);
    nn::Var loss;
    for (Critic* c : {&m_q1, &m_q2}) {
        const Mat eps = standardNormals(m_s.hidden + 1, 1, m_rng);
        const nn::Var q = c->q(t, x, true, m_s.pacBayes ? Critic::Head::Draw : Critic::Head::Mean, eps);
        nn::Var l = nn::scale(nn::mean(nn::square(nn::sub(q, target))), invC2);
        if (m_s.pacBayes) // d/dKL of min_λ (KL + ln(41/δ))/λ + τλ/(8n) is 1/λ* at the minimiser
            l = nn::add(l,
                        nn::scale(c->kl(t),
                                  1.0 / complexityAt(c->klValue(), m_s.delta, tau, certifiedCount()).lambda));
        loss = loss.tape ? nn::add(loss, l) : l;
    }
    t.backward(loss);
    std::vector<nn::Parameter*> params = m_q1.params();
    for (nn::Parameter* p : m_q2.params())
        params.push_back(p);
    m_criticOpt.step(params);
    for (nn::Parameter* p : params)
        p->zeroGrad();
}

void SacAgent::updateActor(const std::vector<int>& idx) {
    const Mat S = rows(m_traj.obs, idx);
    const int B = int(idx.size());
    nn::Tape t;
    const nn::Var obs = t.constant(S);
    const Actor::Sample a = m_actor.sample(t, obs, standardNormals(B, 1, m_rng), true);
    const nn::Var x = nn::concatCols({obs, a.action});
    const Critic::Head head = m_s.pacBayes ? Critic::Head::Fixed : Critic::Head::Mean;
    const nn::Var q1 = m_q1.q(t, x, false, head, m_draw1), q2 = m_q2.q(t, x, false, head, m_draw2);
    // min(q1, q2) through a mask of which one is smaller (its gradient almost everywhere).
    const Mat pick1 = (q1.value().array() <= q2.value().array()).cast<double>().matrix();
    const nn::Var qmin =
        nn::add(nn::mul(q1, t.constant(pick1)), nn::mul(q2, t.constant(Mat::Ones(B, 1) - pick1)));
    const nn::Var loss = nn::mean(nn::sub(nn::scale(a.logProb, alpha()), qmin));
    t.backward(loss);
    std::vector<nn::Parameter*> params = m_actor.params();
    m_actorOpt.step(params);
    for (nn::Parameter* p : params)
        p->zeroGrad();
    // Temperature: minimise −log α · (log π + H̄), gradient −(mean log π + H̄).
    m_logAlpha.grad(0, 0) = -(a.logProb.value().mean() + entropyTarget());
    m_alphaOpt.step({&m_logAlpha});
    m_logAlpha.zeroGrad();
}

SacCertificate SacAgent::certificate() {
    SacCertificate c;
    c.n = certifiedCount();
    if (!m_s.pacBayes || c.n == 0)
        return c;
    const int first = m_traj.size - c.n;
    Mat SA(c.n, 4), S2A(c.n, 4);
    const Mat S2 = m_traj.next.middleRows(first, c.n);
    SA << m_traj.obs.middleRows(first, c.n), m_traj.action.middleRows(first, c.n);
    S2A << S2, m_actor.meanAction(S2);
    // δ = r + γ φ(s′, μ(s′))·h − φ(s, a)·h = r + D h with h ~ N(h̄, diag σ²): Gaussian, so the
    // posterior-mean clipped loss is exact per transition (expectedClippedSquare).
    const Mat D = m_s.gamma * m_q1.features(S2A) - m_q1.features(SA);
    const Mat mean = m_traj.reward.middleRows(first, c.n) + D * m_q1.meanHead();
    const Mat var = D.array().square().matrix() * m_q1.headSd().array().square().matrix();
    double sum = 0;
    for (int i = 0; i < c.n; ++i)
        sum += expectedClippedSquare(mean(i, 0), var(i, 0), m_s.clipC);
    c.empiricalRisk = sum / c.n;
    c.kl = m_q1.klValue();
    c.tau = m_s.tauFactor * (m_tMix + 1);
    c.bound = c.empiricalRisk + complexityTerm(c.kl, m_s.delta, c.tau, c.n);
    return c;
}

} // namespace pl::mdp
