#pragma once
/// CMA-ES as in Hansen's tutorial ("The CMA Evolution Strategy: A Tutorial", 2016): (mu/mu_w, lambda)
/// with positive recombination weights w_i ~ ln((lambda+1)/2) - ln i (i <= mu = lambda/2), cumulative
/// step-size adaptation (CSA), the rank-one update through the evolution path p_c (with h_sigma) and the
/// rank-mu update; the decomposition of C is refreshed lazily (every lambda / (c1 + cmu) / d / 10
/// generations). Samples are y = C^(1/2) z with the symmetric square root B D B^T (the same law as the
/// tutorial's B D z). One object is one run; not shared between threads.
#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::search {

/// The strategy parameters of the tutorial's Table 1 (positive weights only).
struct CmaEsParams {
    int d = 2;
    int lambda = 6;
    int mu = 3;
    Eigen::VectorXd weights; ///< mu positive weights summing to 1
    double muEff = 1, cSigma = 0, dSigma = 1, cc = 0, c1 = 0, cmu = 0, chiN = 1;
    /// The defaults for dimension \a d and population \a lambda (>= 2).
    static CmaEsParams defaults(int d, int lambda);
};

/// The state of a run between generations.
struct CmaEsState {
    Eigen::VectorXd mean, pSigma, pc;
    Eigen::MatrixXd C;
    double sigma = 1;
    int generation = 0; ///< generations completed
};

class CmaEs {
public:
    CmaEs(const Eigen::VectorXd& mean, double sigma, int lambda);
    /// Starts from a given state (tests, resumption).
    CmaEs(const CmaEsState& state, int lambda);

    const CmaEsParams& params() const { return m_p; }
    const CmaEsState& state() const { return m_s; }

    /// lambda x d standard normal draws.
    Eigen::MatrixXd drawZ(Rng& rng) const;
    /// Candidates (rows) x = m + sigma C^(1/2) z for the rows z of \a Z.
    Eigen::MatrixXd candidates(const Eigen::MatrixXd& Z) const;
    /// One generation update from the candidates' rows \a X and their fitness \a f (minimised).
    void tell(const Eigen::MatrixXd& X, const Eigen::VectorXd& f);
    /// The distribution's covariance sigma^2 C.
    Eigen::MatrixXd covariance() const { return m_s.sigma * m_s.sigma * m_s.C; }

private:
    void decompose();

    CmaEsParams m_p;
    CmaEsState m_s;
    Eigen::MatrixXd m_sqrtC, m_invSqrtC;
    int m_eigenGeneration = 0;
};

/// One CMA-ES generation on a population: its candidates and fitness.
struct CmaEsGeneration {
    Eigen::VectorXd mean;       ///< m_g (before the update)
    Eigen::MatrixXd covariance; ///< sigma_g^2 C_g (before the update)
    Eigen::MatrixXd population; ///< lambda x d
    Eigen::VectorXd fitness;
    double bestSoFar = 0;
};

/// A whole CMA-ES run: \a generations generations of \a lambda on \a f from \a mean with \a sigma;
/// stops early when sigma underflows (sigma * max sqrt(C_ii) < 1e-150).
/// \a keepPopulations: store the populations (else empty matrices).
std::vector<CmaEsGeneration> runCmaEs(const std::function<double(const Eigen::VectorXd&)>& f,
                                      const Eigen::VectorXd& mean, double sigma, int lambda, int generations,
                                      Rng& rng, bool keepPopulations);

} // namespace pl::search
