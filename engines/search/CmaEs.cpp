#include "CmaEs.h"

#include "core/Errors.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pl::search {

CmaEsParams CmaEsParams::defaults(int d, int lambda) {
    if (d < 1 || lambda < 2)
        throw UsageError("CMA-ES needs d >= 1 and lambda >= 2");
    CmaEsParams p;
    p.d = d;
    p.lambda = lambda;
    p.mu = lambda / 2;
    p.weights.resize(p.mu);
    for (int i = 0; i < p.mu; ++i)
        p.weights[i] = std::log((lambda + 1) / 2.0) - std::log(i + 1.0);
    p.weights /= p.weights.sum();
    p.muEff = 1.0 / p.weights.squaredNorm();
    const double n = d;
    p.cSigma = (p.muEff + 2) / (n + p.muEff + 5);
    p.dSigma = 1 + 2 * std::max(0.0, std::sqrt((p.muEff - 1) / (n + 1)) - 1) + p.cSigma;
    p.cc = (4 + p.muEff / n) / (n + 4 + 2 * p.muEff / n);
    p.c1 = 2 / ((n + 1.3) * (n + 1.3) + p.muEff);
    p.cmu = std::min(1 - p.c1, 2 * (p.muEff - 2 + 1 / p.muEff) / ((n + 2) * (n + 2) + p.muEff));
    p.chiN = std::sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
    return p;
}

CmaEs::CmaEs(const Eigen::VectorXd& mean, double sigma, int lambda) {
    const int d = int(mean.size());
    m_p = CmaEsParams::defaults(d, lambda);
    m_s.mean = mean;
    m_s.sigma = sigma;
    m_s.C = Eigen::MatrixXd::Identity(d, d);
    m_s.pSigma = Eigen::VectorXd::Zero(d);
    m_s.pc = Eigen::VectorXd::Zero(d);
    decompose();
}

CmaEs::CmaEs(const CmaEsState& state, int lambda)
    : m_p(CmaEsParams::defaults(int(state.mean.size()), lambda)), m_s(state) {
    decompose();
}

void CmaEs::decompose() {
    Eigen::MatrixXd C = m_s.C.triangularView<Eigen::Upper>();
    C = C.selfadjointView<Eigen::Upper>();
    m_s.C = C;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(C);
    Eigen::VectorXd ev = es.eigenvalues().cwiseMax(1e-300);
    const Eigen::MatrixXd& B = es.eigenvectors();
    m_sqrtC = B * ev.cwiseSqrt().asDiagonal() * B.transpose();
    m_invSqrtC = B * ev.cwiseSqrt().cwiseInverse().asDiagonal() * B.transpose();
    m_eigenGeneration = m_s.generation;
}

Eigen::MatrixXd CmaEs::drawZ(Rng& rng) const {
    Eigen::MatrixXd Z(m_p.lambda, m_p.d);
    for (int k = 0; k < m_p.lambda; ++k)
        for (int j = 0; j < m_p.d; ++j)
            Z(k, j) = rng.normal();
    return Z;
}

Eigen::MatrixXd CmaEs::candidates(const Eigen::MatrixXd& Z) const {
    Eigen::MatrixXd X = (Z * m_sqrtC) * m_s.sigma; // rows: (C^(1/2) z)^T, C^(1/2) symmetric
    X.rowwise() += m_s.mean.transpose();
    return X;
}

void CmaEs::tell(const Eigen::MatrixXd& X, const Eigen::VectorXd& f) {
    const CmaEsParams& p = m_p;
    std::vector<int> order(size_t(f.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return f[a] < f[b]; });
    const Eigen::VectorXd old = m_s.mean;
    Eigen::MatrixXd Ysel(p.mu, p.d); // rows y_{i:lambda} = (x_{i:lambda} - m) / sigma
    for (int i = 0; i < p.mu; ++i)
        Ysel.row(i) = (X.row(order[size_t(i)]) - old.transpose()) / m_s.sigma;
    const Eigen::VectorXd yw = Ysel.transpose() * p.weights;
    m_s.mean = old + m_s.sigma * yw;
    m_s.pSigma =
        (1 - p.cSigma) * m_s.pSigma + std::sqrt(p.cSigma * (2 - p.cSigma) * p.muEff) * (m_invSqrtC * yw);
    const double g1 = m_s.generation + 1;
    const double psn = m_s.pSigma.norm();
    const bool hSigma =
        psn / std::sqrt(1 - std::pow(1 - p.cSigma, 2 * g1)) < (1.4 + 2 / (p.d + 1.0)) * p.chiN;
    m_s.pc = (1 - p.cc) * m_s.pc + (hSigma ? std::sqrt(p.cc * (2 - p.cc) * p.muEff) : 0.0) * yw;
    const double deltaH = hSigma ? 0.0 : p.cc * (2 - p.cc);
    const Eigen::MatrixXd rankMu = Ysel.transpose() * p.weights.asDiagonal() * Ysel;
    m_s.C = (1 + p.c1 * deltaH - p.c1 - p.cmu * p.weights.sum()) * m_s.C +
            p.c1 * m_s.pc * m_s.pc.transpose() + p.cmu * rankMu;
    m_s.sigma *= std::exp((p.cSigma / p.dSigma) * (psn / p.chiN - 1));
    m_s.generation += 1;
    if (m_s.generation - m_eigenGeneration > p.lambda / (p.c1 + p.cmu) / p.d / 10)
        decompose();
}

std::vector<CmaEsGeneration> runCmaEs(const std::function<double(const Eigen::VectorXd&)>& f,
                                      const Eigen::VectorXd& mean, double sigma, int lambda, int generations,
                                      Rng& rng, bool keepPopulations) {
    CmaEs es(mean, sigma, lambda);
    std::vector<CmaEsGeneration> out;
    double best = std::numeric_limits<double>::infinity();
    for (int g = 0; g < generations; ++g) {
        CmaEsGeneration rec;
        rec.mean = es.state().mean;
        rec.covariance = es.covariance();
        const Eigen::MatrixXd X = es.candidates(es.drawZ(rng));
        Eigen::VectorXd fx(X.rows());
        for (Eigen::Index k = 0; k < X.rows(); ++k)
            fx[k] = f(X.row(k).transpose());
        best = std::min(best, fx.minCoeff());
        rec.bestSoFar = best;
        if (keepPopulations) {
            rec.population = X;
            rec.fitness = fx;
        }
        out.push_back(std::move(rec));
        es.tell(X, fx);
        if (!(es.state().sigma * std::sqrt(es.state().C.diagonal().maxCoeff()) > 1e-150))
            break;
    }
    return out;
}

} // namespace pl::search
