#include "LinearBandits.h"

#include "InverseGram.h"

#include <algorithm>
#include <cmath>

namespace pl::bandits {

const std::vector<LinearAlgorithm>& allLinearAlgorithms() {
    static const std::vector<LinearAlgorithm> all{LinearAlgorithm::FairLinUcb, LinearAlgorithm::FairLinPe,
                                                  LinearAlgorithm::LinUcb,     LinearAlgorithm::LinPe,
                                                  LinearAlgorithm::LinNash,    LinearAlgorithm::Uniform,
                                                  LinearAlgorithm::Oracle};
    return all;
}

std::string algorithmKey(LinearAlgorithm a) {
    static const char* k[] = {"fairlin_ucb", "fairlin_pe", "linucb", "linpe", "linnash", "uniform", "oracle"};
    return k[int(a)];
}

std::string algorithmName(LinearAlgorithm a) {
    static const char* k[] = {"FairLin-UCB", "FairLin-PE", "LinUCB", "LinPE", "LinNash", "uniform", "oracle"};
    return k[int(a)];
}

int64_t fairPhaseLength(int64_t T, int d, int K, double c1, double p) {
    const double c = c1 * (1.0 + std::max(0.0, -p));
    const double len = std::ceil(c * std::sqrt(double(T) * d * std::log(double(T) * K)));
    return std::min<int64_t>(T, int64_t(len));
}

int64_t linNashPhaseLength(int64_t T, int d, int K) {
    return fairPhaseLength(T, d, K, 3.0, 0.0);
}

namespace {

/// Draws arm indices from a design by inverse CDF.
class DesignSampler {
public:
    explicit DesignSampler(const Eigen::VectorXd& w) : m_cdf(size_t(w.size())) {
        double s = 0;
        for (Eigen::Index i = 0; i < w.size(); ++i)
            m_cdf[size_t(i)] = (s += std::max(0.0, w[i]));
        for (double& c : m_cdf)
            c /= s;
    }
    int draw(Rng& rng) const {
        const double u = rng.uniform();
        const auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
        return int(std::min<size_t>(size_t(it - m_cdf.begin()), m_cdf.size() - 1));
    }

private:
    std::vector<double> m_cdf;
};

/// The state of one run: the regularised least-squares estimate and the per-round bookkeeping.
class Run {
public:
    Run(const LinearProblem& P, const LinearSettings& s, Rng& rng, std::vector<double>& muSum,
        Eigen::VectorXd& pulls, const std::function<void()>& poll)
        : m_P(P), m_s(s), m_rng(rng), m_muSum(muSum), m_pulls(pulls), m_poll(poll), m_gram(P.X, 1.0),
          m_b(Eigen::VectorXd::Zero(P.X.cols())), m_own(size_t(P.X.rows()), 0.0) {}

    bool done() const { return m_t >= m_s.T; }

    void pull(int arm) {
        const double mu = m_P.mu[arm];
        double r;
        if (m_s.reward == RewardModel::Bernoulli) {
            r = m_rng.uniform() < mu ? 1.0 : 0.0;
        } else {
            const double k = m_s.betaConcentration;
            const double a = std::max(mu, 1e-6) * k, b = std::max(1.0 - mu, 1e-6) * k;
            const double ga = m_rng.gamma(a), gb = m_rng.gamma(b);
            r = ga / (ga + gb);
        }
        m_gram.addArm(arm);
        m_b += r * m_P.X.row(arm).transpose();
        m_muSum[size_t(m_t)] += mu;
        m_pulls[arm] += 1;
        m_own[size_t(arm)] += 1;
        ++m_t;
        if ((m_t & 1023) == 0 && m_poll)
            m_poll();
    }

    Eigen::VectorXd theta() const { return m_gram.inverse() * m_b; }

    /// \a len rounds drawing from ½ G-optimal design + ½ floor design.
    void fairPhase(int64_t len) {
        const DesignSampler design(m_P.design.weights), floor(m_P.floor.weights);
        for (int64_t i = 0; i < len && !done(); ++i)
            pull(m_rng.uniform() < 0.5 ? design.draw(m_rng) : floor.draw(m_rng));
    }

    /// OFUL: argmax ⟨x, θ̂⟩ + √β_t ‖x‖_{V⁻¹}, σ = 1/2 (rewards in [0, 1]), λ = 1, S = 1.
    void linUcb() {
        const int d = int(m_P.X.cols());
        const double L2 = m_P.X.rowwise().squaredNorm().maxCoeff();
        const double sigma = 0.5;
        Eigen::VectorXd score(m_P.X.rows());
        while (!done()) {
            const double t = double(m_t) + 1;
            const double rootBeta =
                sigma * std::sqrt(2 * std::log(1 / m_s.delta) + d * std::log(1 + t * L2 / d)) + 1.0;
            const Eigen::VectorXd th = theta();
            score.noalias() = m_P.X * th;
            score.array() += rootBeta * m_gram.norms().array().max(0.0).sqrt();
            Eigen::Index best = 0;
            score.maxCoeff(&best);
            pull(int(best));
        }
    }

    /// Phased elimination on G-optimal designs of the active set. additive: Lattimore–Szepesvári
    /// (T_ℓ(x) = ⌈2rλ(x)/ε_ℓ²·log(Kℓ(ℓ+1)/δ)⌉ pulls in all, earlier pulls counted, drop x when
    /// max_y ⟨y − x, θ̂⟩ > 2ε_ℓ, ε_{ℓ+1} = ε_ℓ/2);
    /// otherwise LinNash-style (phase length T' doubling from \a firstPhase, ⌈λ(x)T'⌉ pulls, keep x
    /// while its upper bound ⟨x,θ̂⟩ + w(x) reaches max_z ⟨z,θ̂⟩ − w(z), w(x) = 2√(⟨x,θ̂⟩₊ r log(TK)/T')).
    void phasedElimination(bool additive, int64_t firstPhase) {
        const int K = int(m_P.X.rows());
        std::vector<int> active(static_cast<size_t>(K));
        for (int i = 0; i < K; ++i)
            active[size_t(i)] = i;
        double eps = 0.5, phaseLen = double(std::max<int64_t>(firstPhase, 1));
        const double logTK = std::log(double(m_s.T) * K);
        for (int ell = 1; !done(); ++ell) {
            const DesignResult des = gOptimalDesign(m_P.X, m_s.designEps, active, 100000, m_poll);
            const double r = std::max(1, des.rank);
            if (!additive)
                phaseLen *= 2;
            // This phase's pulls per arm; a phase that cannot finish before T keeps its proportions.
            std::vector<std::pair<int, double>> needs;
            double total = 0;
            for (int i : active) {
                const double w = des.weights[i];
                if (w <= 0)
                    continue;
                const double n = additive ? std::ceil(2 * r * w / (eps * eps) *
                                                      std::log(K * double(ell) * (ell + 1) / m_s.delta))
                                          : std::ceil(w * phaseLen);
                // Warm start: pulls of x made earlier (fair phase, earlier phases) count towards
                // this phase's T_l(x); the estimate uses all data.
                const double need = std::max(0.0, n - (additive ? m_own[size_t(i)] : 0.0));
                needs.emplace_back(i, need);
                total += need;
            }
            const double rem = double(m_s.T - m_t);
            const double scale = total > rem ? rem / total : 1.0;
            std::vector<int> schedule; // in a random order
            for (const auto& [i, need] : needs)
                schedule.insert(schedule.end(), size_t(std::floor(need * scale)), i);
            for (size_t k = schedule.size(); k > 1; --k)
                std::swap(schedule[k - 1], schedule[size_t(m_rng.uniformInt(uint64_t(k)))]);
            for (int i : schedule)
                pull(i);
            if (done())
                break;
            if (active.size() == 1) { // one arm left: commit to it
                while (!done())
                    pull(active.front());
                break;
            }
            const Eigen::VectorXd th = theta();
            std::vector<double> est;
            double best = -1e300, bestLower = -1e300;
            for (int i : active) {
                const double e = m_P.X.row(i).dot(th);
                est.push_back(e);
                best = std::max(best, e);
                bestLower = std::max(bestLower, e - width(e, r, logTK, phaseLen));
            }
            std::vector<int> keep;
            for (size_t j = 0; j < active.size(); ++j) {
                const bool stay = additive ? best - est[j] <= 2 * eps
                                           : est[j] + width(est[j], r, logTK, phaseLen) >= bestLower;
                if (stay)
                    keep.push_back(active[j]);
            }
            active.swap(keep);
            eps /= 2;
        }
    }

    void uniform() {
        const auto K = uint64_t(m_P.X.rows());
        while (!done())
            pull(int(m_rng.uniformInt(K)));
    }

    void oracle() {
        Eigen::Index best = 0;
        m_P.mu.maxCoeff(&best);
        while (!done())
            pull(int(best));
    }

private:
    static double width(double est, double r, double logTK, double phaseLen) {
        return 2.0 * std::sqrt(std::max(est, 0.0) * r * logTK / phaseLen);
    }

    const LinearProblem& m_P;
    const LinearSettings& m_s;
    Rng& m_rng;
    std::vector<double>& m_muSum;
    Eigen::VectorXd& m_pulls;
    const std::function<void()>& m_poll;
    InverseGram m_gram;
    Eigen::VectorXd m_b;
    std::vector<double> m_own; ///< pulls per arm in this run
    int64_t m_t = 0;
};

} // namespace

void simulateRun(const LinearProblem& problem, LinearAlgorithm alg, const LinearSettings& s, Rng& rng,
                 std::vector<double>& muSum, Eigen::VectorXd& pulls, const std::function<void()>& poll) {
    Run run(problem, s, rng, muSum, pulls, poll);
    const int d = int(problem.X.cols()), K = int(problem.X.rows());
    switch (alg) {
    case LinearAlgorithm::FairLinUcb:
        run.fairPhase(fairPhaseLength(s.T, d, K, s.c1, s.p));
        run.linUcb();
        break;
    case LinearAlgorithm::FairLinPe:
        run.fairPhase(fairPhaseLength(s.T, d, K, s.c1, s.p));
        run.phasedElimination(true, 0);
        break;
    case LinearAlgorithm::LinUcb:
        run.linUcb();
        break;
    case LinearAlgorithm::LinPe:
        run.phasedElimination(true, 0);
        break;
    case LinearAlgorithm::LinNash: {
        const int64_t len = linNashPhaseLength(s.T, d, K);
        run.fairPhase(len);
        run.phasedElimination(false, len);
        break;
    }
    case LinearAlgorithm::Uniform:
        run.uniform();
        break;
    case LinearAlgorithm::Oracle:
        run.oracle();
        break;
    }
}

} // namespace pl::bandits
