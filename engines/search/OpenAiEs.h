#pragma once
/// OpenAI-ES (Salimans et al. 2017) for minimisation: antithetic Gaussian perturbations theta +- s eps,
/// centred-rank fitness shaping, the gradient estimate sum_k (u_k+ - u_k-) eps_k / (2 n s) and an Adam
/// step. One object is one run; not shared between threads.
#include "core/Rng.h"

#include <Eigen/Core>

namespace pl::search {

struct OpenAiEsConfig {
    int pairs = 8;       ///< antithetic pairs per iteration (population 2 * pairs)
    double noise = 0.05; ///< perturbation scale s
    double learningRate = 0.02;
    double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
};

class OpenAiEs {
public:
    OpenAiEs(Eigen::VectorXd theta, const OpenAiEsConfig& config);

    /// 2 * pairs candidates (rows): theta + s eps_k on even rows, theta - s eps_k on odd rows.
    Eigen::MatrixXd ask(Rng& rng);
    /// Updates theta from the losses (minimised) of the last ask()'s rows.
    void tell(const Eigen::VectorXd& losses);

    const Eigen::VectorXd& theta() const { return m_theta; }
    int iterations() const { return m_t; }

private:
    Eigen::VectorXd m_theta, m_m, m_v;
    Eigen::MatrixXd m_eps; ///< pairs x P
    OpenAiEsConfig m_cfg;
    int m_t = 0;
};

/// Centred ranks in [-0.5, 0.5] (smallest value -0.5; ties by index).
Eigen::VectorXd centredRanks(const Eigen::VectorXd& v);

/// One Adam step on \a theta with gradient \a grad (moments \a m, \a v, step count \a t >= 1).
void adamStep(Eigen::VectorXd& theta, Eigen::VectorXd& m, Eigen::VectorXd& v, const Eigen::VectorXd& grad,
              int t, double lr, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8);

} // namespace pl::search
