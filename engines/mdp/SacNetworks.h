#pragma once
/// The networks of the pac-bayes-sac control lab (soft actor-critic, specs-004 §2): two hidden ReLU
/// layers of `hidden` units each, built on the tape of engines/nn. One forward path serves training
/// (parameters as tape leaves) and acting or targets (parameters as constants): no second copy of
/// the maths. Objects own their parameters; one thread at a time.

#include "core/Rng.h"
#include "nn/Parameter.h"
#include "nn/Tape.h"

#include <string>
#include <vector>

namespace pl::mdp {

using nn::Mat;

/// φ(x) = relu(relu(x·W1 + b1)·W2 + b2).
class MlpBody {
public:
    MlpBody(int in, int hidden, Rng& rng, const std::string& name);
    /// Features of the rows of x; `train` makes the weights tape leaves (gradients), else constants.
    nn::Var features(nn::Tape& t, nn::Var x, bool train);
    std::vector<nn::Parameter*> params();
    /// this ← (1 − τ)·this + τ·src (target networks).
    void polyak(const MlpBody& src, double tau);
    int hidden() const { return int(m_w2.value.cols()); }

private:
    nn::Var leaf(nn::Tape& t, nn::Parameter& p, bool train) const;
    nn::Parameter m_w1, m_b1, m_w2, m_b2;
};

/// Q(s, a) = [φ(obs, a), 1]·h with the head h ((hidden+1) × 1, last entry the bias). Deterministic
/// for SAC; for PB-SAC a diagonal Gaussian posterior over the head, h = h₀ + Δ + σ∘ε, against the
/// prior N(h₀, σ_P² I) where h₀ is the data-independent initialisation.
class Critic {
public:
    /// How the head enters a forward pass.
    enum class Head { Mean, Draw, Fixed };
    Critic(int hidden, bool bayesian, double priorSd, Rng& rng, const std::string& name);
    /// Q values (rows × 1) of rows [obs(3), action(1)]. Head::Draw: reparameterised with noise
    /// `m` ((hidden+1) × 1 standard normals); Head::Fixed: the head `m` as a constant; Head::Mean:
    /// the posterior mean (`m` unused).
    nn::Var q(nn::Tape& t, nn::Var x, bool train, Head head, const Mat& m = Mat());
    /// Features [φ, 1] (rows × (hidden+1)), constants.
    Mat features(const Mat& x);
    Mat meanHead() const;
    Mat headSd() const; ///< σ per head entry (zeros for a deterministic head)
    /// A draw from the posterior over the head (its mean for a deterministic head).
    Mat drawHead(Rng& rng) const;
    /// KL(Q ‖ P) of the head as a tape value (1 × 1); bayesian() only.
    nn::Var kl(nn::Tape& t);
    double klValue() const;
    bool bayesian() const { return m_bayesian; }
    std::vector<nn::Parameter*> params();
    /// Body and head mean ← (1 − τ)·this + τ·src.
    void polyak(const Critic& src, double tau);

private:
    MlpBody m_body;
    Mat m_prior;            ///< h₀
    nn::Parameter m_delta;  ///< head mean − h₀
    nn::Parameter m_logVar; ///< log σ² per head entry (bayesian)
    double m_priorVar;
    bool m_bayesian;
};

/// tanh-Gaussian actor: (μ, s) = φ(obs)·W + b, log σ = −5 + 3.5·(tanh s + 1) ∈ (−5, 2),
/// a = 2·tanh(μ + σε) in N·m, with its log-density (change of variables included).
class Actor {
public:
    Actor(int hidden, Rng& rng);
    struct Sample {
        nn::Var action;  ///< rows × 1, in [−2, 2]
        nn::Var logProb; ///< rows × 1
    };
    /// Actions for the rows of obs from standard normals eps (rows × 1).
    Sample sample(nn::Tape& t, nn::Var obs, const Mat& eps, bool train);
    /// The deterministic action 2·tanh(μ).
    Mat meanAction(const Mat& obs);
    std::vector<nn::Parameter*> params();

private:
    nn::Var head(nn::Tape& t, nn::Var obs, bool train);
    MlpBody m_body;
    nn::Parameter m_w, m_b;
};

/// Rows x cols standard normals.
Mat standardNormals(int rows, int cols, Rng& rng);

} // namespace pl::mdp
