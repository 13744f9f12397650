#pragma once
/// The synthetic traffic scenes of spec §2.3 (CURVE-SG), recast as relation prediction:
/// agents (car / pedestrian / cyclist) with positions and velocities, the invariant interaction
/// rules that define the relations (constant-velocity closest approach within 3 s -> approaching;
/// same heading, 3-20 m ahead in lane -> following), and environment-specific spurious cues:
/// background objects placed within 3 m of agents that take part in an approaching relation with
/// probability rho (else 1 - rho), and a weather node whose "rain" is on with probability rho if
/// the scene has an approaching pair (else 1 - rho). Deterministic in (spec, rng).
#include "curve/SceneGraph.h"

#include "core/Rng.h"

namespace pl::curve {

/// One environment's generator settings.
struct EnvironmentSpec {
    std::string name;
    int agentsMin = 3;
    int agentsMax = 6;
    double rho = 0.5;        ///< P(cue | agent/scene involved in an approaching relation)
    double carSpeedMin = 5;  ///< m/s
    double carSpeedMax = 15; ///< m/s
    double pedestrianShare = 0.2;
    double cyclistShare = 0.2;
    int backgroundMax = 6; ///< cap on background objects
    int distractors = 1;   ///< background objects placed at random (no cue), at most
    // Sim-to-real observation shift (applied after the relations are labelled):
    double positionNoise = 0; ///< m, Gaussian sd
    double velocityNoise = 0; ///< m/s, Gaussian sd
    double missRate = 0;      ///< probability that an agent is not detected (dropped)
};

/// Spurious probability at strength s: 0.5 + s (rho - 0.5) (s = 0: the cue carries no signal).
double effectiveRho(double rho, double strength);

/// The relation of agent i to agent j under the invariant rules (None for non-agents).
int invariantRelation(const SceneObject& a, const SceneObject& b);

/// Draws one scene of environment `env` (index) with split `split`.
Scene generateScene(const EnvironmentSpec& spec, int env, Split split, Rng& rng);

} // namespace pl::curve
