#pragma once
/// The synthetic early-exit workload of the eefp-early-exit panel: a Gaussian-mixture
/// classification task with per-sample difficulty, an MLP of K blocks with an exit head after
/// each, trained jointly (sum of the exits' cross-entropies, Adam) on the paperlab_nn tape, and
/// the per-exit logits it produces. No Qt.
#include "core/Rng.h"

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace pl::smallnets {

/// Per-exit logits of N samples (logits[k] is N x C), labels, cumulative FLOPs per exit and the
/// calibration mask (empty: the first ceil(calib_fraction N) rows calibrate).
struct ExitLogits {
    std::vector<Eigen::MatrixXd> logits;
    std::vector<int> labels;
    std::vector<double> flops;
    std::vector<char> calibration;
    int classes() const { return logits.empty() ? 0 : int(logits.front().cols()); }
    int rows() const { return int(labels.size()); }
};

struct MixtureSpec {
    int classes = 10, dim = 32;
    double separation = 3.0; ///< norm of each class's two sub-cluster centres
};

/// Sub-clusters per class of the mixture.
inline constexpr int kSubClusters = 6;

/// Samples (X: N x dim, y). Class c has kSubClusters centres at random directions (norm
/// `separation`); a sample picks one, and its difficulty u ~ U(0, 1) scales the noise:
/// x = centre + (0.15 + 0.85 u) N(0, I). Centres come from \a centresRng.
struct MixtureData {
    Eigen::MatrixXd X;
    std::vector<int> y;
};
MixtureData sampleMixture(const MixtureSpec& s, int n, const Rng& centresRng, Rng sampleRng);

struct EarlyExitConfig {
    int exits = 4, width = 32, epochs = 10, batch = 256;
    double lr = 0.01;
};

/// Trains the early-exit MLP on \a train and returns the logits of every exit on \a eval with
/// analytic cumulative FLOPs (multiply-adds of the blocks and heads evaluated up to each exit).
/// \a lossCurve receives the mean joint loss per epoch. \a poll(fraction) may throw to cancel.
ExitLogits trainEarlyExit(const MixtureData& train, const MixtureData& eval, int classes,
                          const EarlyExitConfig& c, Rng initRng, std::vector<double>* lossCurve,
                          const std::function<void(double)>& poll);

/// Joint loss (sum over exits of the mean cross-entropy, the quantity trainEarlyExit minimises) of
/// the untrained network whose weights initRng draws exactly as trainEarlyExit does, on \a batch,
/// with \a delta added to the flattened parameters (empty: none; else one entry per parameter, in
/// the order W_0..W_{K-1}, b_0.., V_0.., c_0.., each column-major). If \a grad is set it receives
/// the tape's gradient in the same layout. For finite-difference tests; throws
/// std::invalid_argument when delta has the wrong length.
double earlyExitJointLoss(const MixtureData& batch, int classes, const EarlyExitConfig& c, Rng initRng,
                          const Eigen::VectorXd& delta, Eigen::VectorXd* grad);

} // namespace pl::smallnets
