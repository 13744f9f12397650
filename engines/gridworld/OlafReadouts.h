#pragma once
/// The olaf-world read-outs: everything the panel reports after the two latent action models are
/// trained (latents, cross-context cosine, probe transfer, labels to 90 %, Procrustes residuals, the
/// action adapter in a new context, the rollout strip, losses) and the claims. No Qt.

#include "core/ResultDocument.h"
#include "core/Rng.h"
#include "gridworld/ClipSet.h"
#include "gridworld/FrozenEncoder.h"
#include "gridworld/LatentActionModel.h"

#include <memory>

namespace pl::olaf {

/// The baseline (λ = 0) and aligned (λ > 0) models with their loss curves.
struct TrainedPair {
    std::unique_ptr<gridworld::LatentActionModel> baseline, aligned;
    gridworld::LamCurves baselineCurves, alignedCurves;
};

/// Labelled-transition counts of the new context tried by the label-efficiency curve.
const std::vector<int>& labelCounts();

/// Fills \a d with the metrics, series, matrices, labels and claims of the olaf-world panel.
/// \a probeLabels: labels of context A for the probe and of the new context for the adapter.
void writeReadouts(const gridworld::ClipSet& clips, const gridworld::FrozenEncoder& phi,
                   const Eigen::MatrixXd& phiFrames, const TrainedPair& models, int probeLabels,
                   const Rng& rng, ResultDocument& d);

} // namespace pl::olaf
