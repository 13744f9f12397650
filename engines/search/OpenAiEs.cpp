#include "OpenAiEs.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace pl::search {

Eigen::VectorXd centredRanks(const Eigen::VectorXd& v) {
    const Eigen::Index n = v.size();
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return v[a] < v[b]; });
    Eigen::VectorXd r(n);
    for (Eigen::Index k = 0; k < n; ++k)
        r[order[size_t(k)]] = n > 1 ? double(k) / double(n - 1) - 0.5 : 0.0;
    return r;
}

void adamStep(Eigen::VectorXd& theta, Eigen::VectorXd& m, Eigen::VectorXd& v, const Eigen::VectorXd& grad,
              int t, double lr, double beta1, double beta2, double eps) {
    m = beta1 * m + (1 - beta1) * grad;
    v = beta2 * v + (1 - beta2) * grad.cwiseAbs2();
    const double c1 = 1 - std::pow(beta1, t), c2 = 1 - std::pow(beta2, t);
    theta.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
}

OpenAiEs::OpenAiEs(Eigen::VectorXd theta, const OpenAiEsConfig& config) : m_theta(std::move(theta)), m_cfg(config) {
    m_m = Eigen::VectorXd::Zero(m_theta.size());
    m_v = Eigen::VectorXd::Zero(m_theta.size());
}

Eigen::MatrixXd OpenAiEs::ask(Rng& rng) {
    const Eigen::Index P = m_theta.size();
    m_eps.resize(m_cfg.pairs, P);
    for (int k = 0; k < m_cfg.pairs; ++k)
        for (Eigen::Index j = 0; j < P; ++j)
            m_eps(k, j) = rng.normal();
    Eigen::MatrixXd X(2 * m_cfg.pairs, P);
    for (int k = 0; k < m_cfg.pairs; ++k) {
        X.row(2 * k) = m_theta.transpose() + m_cfg.noise * m_eps.row(k);
        X.row(2 * k + 1) = m_theta.transpose() - m_cfg.noise * m_eps.row(k);
    }
    return X;
}

void OpenAiEs::tell(const Eigen::VectorXd& losses) {
    const Eigen::VectorXd u = centredRanks(losses);
    Eigen::VectorXd g = Eigen::VectorXd::Zero(m_theta.size());
    for (int k = 0; k < m_cfg.pairs; ++k)
        g += (u[2 * k] - u[2 * k + 1]) * m_eps.row(k).transpose();
    g /= 2.0 * m_cfg.pairs * m_cfg.noise;
    ++m_t;
    adamStep(m_theta, m_m, m_v, g, m_t, m_cfg.learningRate, m_cfg.beta1, m_cfg.beta2, m_cfg.epsilon);
}

} // namespace pl::search
