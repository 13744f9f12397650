#pragma once
/// Per-image scores of the negative-label-ood panel over a set of images: NegLabel (averaged over
/// random groups of negatives) and the energy margins S = τ log Σₖ e^{sₖ/τ} − Φ(s̃) with the exact
/// KL and Rényi duals, plus the worst cases' ESS. Pure functions; any thread; polls \a ctx.

#include "core/RunContext.h"

#include <Eigen/Core>

#include <vector>

namespace pl::embedgeo {

struct ScoreOptions {
    double tau = 0.01;
    double rhoKl = 1;
    double rhoRenyi = 1;
    double alpha = 2;
    int groups = 1;
    uint64_t groupSeed = 0; ///< permutation of the negatives into groups
    bool neglabel = true;   ///< which scores to compute
    bool kl = true;
    bool renyi = true;
    bool ess = false; ///< also the worst cases' ESS (costs one more pass)
};

struct ScoreSet {
    std::vector<double> neglabel, kl, renyi, essKl, essRenyi;
};

/// Scores of the rows of \a images (unit rows) against ID labels \a idText and negatives \a negText.
ScoreSet scoreImages(const Eigen::MatrixXd& idText, const Eigen::MatrixXd& negText,
                     const Eigen::MatrixXd& images, const ScoreOptions& o, RunContext& ctx);

} // namespace pl::embedgeo
