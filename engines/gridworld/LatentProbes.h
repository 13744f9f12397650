#pragma once
/// Label-based read-outs of learnt latent actions across visual contexts (olaf-world): the
/// cross-context cosine of per-context mean latents, nearest-class-mean probe transfer, labels needed
/// in a new context, orthogonal Procrustes residuals and the linear action adapter. Each takes the
/// latents (one row per transition), the true action (−1 = unlabelled) and the context of every row.
/// Pure functions, deterministic in their arguments; any thread. No Qt.

#include "core/Rng.h"

#include <Eigen/Core>

#include <vector>

namespace pl::gridworld {

/// Latents with their labels; rows with action −1 are ignored by every measure.
struct LabelledLatents {
    const Eigen::MatrixXd* z = nullptr; ///< n x dz
    const std::vector<int>* action = nullptr;
    const std::vector<int>* context = nullptr;
    int contexts = 0;
};

/// Mean latent per (context, action): a (contexts·actions) x dz matrix, row c·actions + a; NaN rows
/// where a context has no transition of that action.
Eigen::MatrixXd classMeans(const LabelledLatents& l, int actions);

/// Cross-context cosine: for each of the four moves and each unordered context pair, the cosine of
/// the two per-context mean latents; the mean over all of them. \a pairMatrix (C x C, may be null)
/// receives the mean over moves per pair (1 on the diagonal). NaN when fewer than two contexts.
double crossContextCosine(const LabelledLatents& l, Eigen::MatrixXd* pairMatrix);

/// Nearest-class-mean probe: class means from \a labels random labelled rows of context A, accuracy on
/// every labelled row of B; mean over ordered pairs A ≠ B. NaN when fewer than two contexts.
double probeTransfer(const LabelledLatents& l, int labels, const Rng& rng);

/// Accuracy in each "new" context B (mean over B) of a nearest-class-mean probe fitted on \a base labels
/// of every other context plus n labels of B, for each n of \a counts; tested on B's other rows.
std::vector<double> labelCurve(const LabelledLatents& l, int base, const std::vector<int>& counts,
                               const Rng& rng);

/// Orthogonal Procrustes: for each context pair, the rotation R minimising ‖M_A R − M_B‖ over the
/// per-move mean latents; returns the mean relative residual ‖M_A R − M_B‖ / ‖M_B‖.
double procrustesResidual(const LabelledLatents& l);

/// Linear action adapter A: one-hot(a) -> z, fitted by least squares on the rows \a fit;
/// returns its 5 x dz weight matrix (rows with no example stay zero).
Eigen::MatrixXd fitActionAdapter(const LabelledLatents& l, const std::vector<int>& fit);

} // namespace pl::gridworld
