#pragma once
/// The latent action model (LAM) of the olaf-world panel (specs-004 §13), trained on the paperlab_nn
/// tape with Adam:
/// - inverse dynamics q(z | o_t, o_{t+1}) = N(μ_E, diag σ_E²): MLP on [o_t, o_{t+1} − o_t] (both frames,
///   the second as a difference);
/// - decoder D(o_t, z) -> ô_{t+1} = o_t + [h, h·z_1, …, h·z_dz] W + b with h = relu(o_t W_o + b_o): the
///   action-conditioned world model, with multiplicative action conditioning as in Oh et al. (2015)
///   (a plain MLP on [o_t, z] cannot paint a sprite's displacement at its position and ignores z);
/// - ℒ_LAM = ‖ô_{t+1} − o_{t+1}‖² + β·KL(q ‖ N(0, I)), per transition;
/// - SeqΔ-REPA: Z = Σ_{τ=t}^{t+k−1} z_τ, projector h (MLP), ℒ_align = 1 − cos(h(Z), φ(o_{t+k}) − φ(o_t))
///   with φ frozen; ℒ = ℒ_LAM + λ·ℒ_align. λ = 0 gives the baseline (h then stays untrained).
/// Frames enter the networks standardised by one global mean and scale. Deterministic in (data, options,
/// rng). Not thread-safe; one object per thread. No Qt.

#include "core/Rng.h"
#include "core/RunContext.h"
#include "gridworld/ClipSet.h"
#include "nn/Parameter.h"

#include <Eigen/Core>

#include <vector>

namespace pl::gridworld {

struct LamOptions {
    int dz = 2;      ///< latent action dimension
    int hidden = 64; ///< hidden units of encoder, decoder and projector (one hidden layer each)
    int window = 4;  ///< k
    int iterations = 1000;
    int batch = 8;       ///< windows per step (batch·k transitions)
    double beta = 0.01;  ///< KL weight
    double lambda = 1.0; ///< SeqΔ-REPA weight (0: baseline)
    double learningRate = 2e-3;
    int lossEvery = 20; ///< record mean losses every this many steps
};

/// Mean minibatch losses every LamOptions::lossEvery steps.
struct LamCurves {
    std::vector<double> step, recon, kl, align; ///< align: 1 − cos (only trained when λ > 0)
};

class LatentActionModel {
public:
    /// Glorot weights from \a rng; \a scale standardises frames: (o − mean) / scale.
    LatentActionModel(int pixels, int phiDim, double mean, double scale, const LamOptions& options, Rng& rng);

    /// Trains on all windows of k transitions of \a clips; \a phi holds φ of every frame (rows as
    /// clips.frames). Checks ctx.throwIfCancelled() every step; reports progress in [p0, p1].
    LamCurves train(const ClipSet& clips, const Eigen::MatrixXd& phi, Rng& rng, RunContext& ctx, double p0,
                    double p1);

    /// Posterior means μ_E of transitions o_t -> o_{t+1} (rows of \a from, \a to) -> n x dz.
    Eigen::MatrixXd encode(const Eigen::MatrixXd& from, const Eigen::MatrixXd& to) const;
    /// Posterior means of every transition of \a clips (rows as ClipSet::transitionRow).
    Eigen::MatrixXd encodeAll(const ClipSet& clips) const;
    /// D(o, z): predicted next frames (raw pixel units) of rows of \a frames with latents \a z.
    Eigen::MatrixXd decode(const Eigen::MatrixXd& frames, const Eigen::MatrixXd& z) const;
    /// Mean cos(h(Σ μ), Δφ) over every window of \a clips (the alignment actually reached).
    double alignCosine(const ClipSet& clips, const Eigen::MatrixXd& phi) const;

    int dz() const { return m_o.dz; }
    /// ℒ_LAM at the posterior means (no sampling) averaged over every transition of \a clips.
    double evalLoss(const ClipSet& clips) const;

private:
    struct Batch;
    Batch sample(const ClipSet& clips, const Eigen::MatrixXd& phi, Rng& rng) const;
    std::vector<nn::Parameter*> parameters();
    Eigen::MatrixXd norm(const Eigen::MatrixXd& frames) const;

    LamOptions m_o;
    double m_mean, m_scale;
    nn::Parameter m_e1, m_eb1, m_e2, m_eb2; ///< encoder
    nn::Parameter m_d1, m_db1, m_d2, m_db2; ///< decoder
    nn::Parameter m_h1, m_hb1, m_h2, m_hb2; ///< projector h
};

} // namespace pl::gridworld
