#pragma once
/// The control lab of pac-bayes-sac (specs-004 §2): SAC and PB-SAC trained on the pendulum
/// swing-up with the same episode start states, then evaluated deterministically from five fixed
/// starts; PB-SAC's certificate, posterior σ and temperature are traced per episode.
/// Deterministic in (settings, seed). No Qt.

#include "core/ResultDocument.h"
#include "core/RunContext.h"
#include "mdp/SacAgent.h"

#include <vector>

namespace pl::mdp {

struct ControlSettings {
    int steps = 5000;      ///< environment steps per agent (rounded up to whole episodes)
    int startSteps = 1000; ///< uniform random actions before learning starts
    int evalEpisodes = 5;
    SacSettings sac;
};

/// What one agent's training produced.
struct ControlRun {
    std::vector<double> episodeReturn; ///< training episodes, pendulum reward units
    Series certificate, empirical, posteriorSd, alpha;
    double evalReturn = 0;  ///< mean over the evaluation episodes
    SacCertificate final;   ///< PB-SAC only
    double tMix = 0;        ///< heuristic estimate at the end
    Eigen::MatrixXd policy; ///< mean torque on the (θ̇, θ) grid
};

/// Trains one agent. `progressFrom`/`progressTo` bound its share of ctx.progress().
ControlRun trainPendulum(const ControlSettings& s, bool pacBayes, uint64_t seed, RunContext& ctx,
                         double progressFrom, double progressTo);

/// The grid of the policy heatmaps: 41 angles in [−π, π] (columns) × 41 speeds in [8, −8] (rows).
constexpr int kPolicyGrid = 41;

} // namespace pl::mdp
