#pragma once
/// Soft actor-critic for the pac-bayes-sac control lab (specs-004 §2), and PB-SAC, our
/// reconstruction of "SAC trained on the PAC-Bayes bound" (the paper gives no code):
///  * SAC: twin critics with Polyak targets (τ = 0.005), tanh-Gaussian actor, automatic temperature
///    with target entropy −|A| = −1, Adam (learning rate `lr`), one update per environment step.
///  * PB-SAC: each critic's head is a diagonal Gaussian posterior against the prior N(h₀, σ_P² I);
///    its loss is the squared TD error over c² (an upper bound of the clipped loss that still has a
///    gradient) plus the bound's complexity term min_λ (KL + ln(41/δ))/λ + τλ/(8n), with n the
///    certified transitions (the last ≤ 5000) and τ = factor·(t̂_mix + 1) from the heuristic mixing-time
///    estimate. Each episode the actor maximises a Thompson draw of both heads, and the entropy target is
///    raised by min(1, complexity) while the complexity term is large.
/// Rewards given to record() are expected in [−1, 0] (the lab divides by the largest cost).
/// Owns its networks, optimisers and trajectory; one thread.

#include "core/Rng.h"
#include "mdp/SacNetworks.h"

#include <algorithm>
#include <array>

namespace pl::mdp {

struct SacSettings {
    int hidden = 64;
    int batch = 64;
    double lr = 1e-3;
    double gamma = 0.99;
    double polyak = 0.005;
    bool pacBayes = false;
    double priorSd = 0.1; ///< σ_P of the heads' prior (the panel default head_prior_sd)
    double delta = 0.05;  ///< confidence of the certificate
    double tauFactor = 9; ///< τ = factor·(t̂_mix + 1)
    double clipC = 1;     ///< loss min(1, δ_TD²/c²), δ_TD in units of the largest cost
};

/// Every transition in arrival order (the replay buffer samples it; the certificate reads its tail).
struct Trajectory {
    Mat obs, action, reward, next; ///< capacity × 3, × 1, × 1, × 3
    int size = 0;
};

/// The PAC-Bayes certificate of critic 1 on the last transitions of the trajectory.
struct SacCertificate {
    double empiricalRisk = 0; ///< E_Q L̂ of the clipped TD loss (exact: the TD error is Gaussian under Q)
    double kl = 0;
    double tau = 0;
    double bound = 0;
    int n = 0;
};

class SacAgent {
public:
    SacAgent(const SacSettings& s, int capacity, Rng rng);
    /// A stochastic action (N·m) for one observation.
    double act(const std::array<double, 3>& obs);
    /// Deterministic actions 2·tanh(μ) for rows of observations.
    Mat meanAction(const Mat& obs) { return m_actor.meanAction(obs); }
    /// Appends one transition (reward scaled into [−1, 0]).
    void record(const std::array<double, 3>& obs, double action, double reward,
                const std::array<double, 3>& next);
    /// Called at each episode start: refreshes t̂_mix and (PB-SAC) the Thompson draws of the heads.
    void beginEpisode();
    /// One gradient step of the critics, the actor and the temperature on a uniform minibatch.
    void update();
    /// PB-SAC: the complexity term of critic 1 now (0 for SAC).
    double complexity() const;
    double entropyTarget() const;
    double alpha() const;
    /// Mean posterior σ of critic 1's head (0 for SAC).
    double meanPosteriorSd() const;
    /// Integrated autocorrelation time of the rewards by batch means (heuristic t̂_mix; 0 until
    /// ten batches of 50 transitions exist).
    double tMixEstimate() const { return m_tMix; }
    /// The certificate covers the last kCertifiedTail transitions (all of them in short runs).
    static constexpr int kCertifiedTail = 5000;
    int certifiedCount() const { return std::min(m_traj.size, kCertifiedTail); }
    /// Certificate on the last certifiedCount() transitions (PB-SAC only; SAC's point head has
    /// infinite KL). The training objective's complexity term uses the same n.
    SacCertificate certificate();
    const Trajectory& trajectory() const { return m_traj; }

private:
    Mat rows(const Mat& m, const std::vector<int>& idx) const;
    void updateCritics(const std::vector<int>& idx);
    void updateActor(const std::vector<int>& idx);
    SacSettings m_s;
    Rng m_rng;
    Actor m_actor;
    Critic m_q1, m_q2, m_target1, m_target2;
    nn::Parameter m_logAlpha;
    nn::Adam m_actorOpt, m_criticOpt, m_alphaOpt;
    Trajectory m_traj;
    Mat m_draw1, m_draw2; ///< this episode's Thompson heads (PB-SAC)
    double m_tMix = 0;
};

/// Integrated autocorrelation time τ_int = b·Var(batch means)/Var(x) of a sequence, batches of
/// `batch`; 0 when fewer than ten batches or a constant sequence.
double batchMeansAutocorrelation(const double* x, int n, int batch);

} // namespace pl::mdp
