#pragma once
/// Built-in MDPs: random MDPs with planted lumpable blocks, mirrored gridworlds and the ring
/// world. Deterministic in their arguments and the Rng stream. Pure functions. No Qt.

#include "core/Rng.h"
#include "mdp/Mdp.h"

namespace pl::mdp {

/// Random MDP with \a blocks planted lumpable blocks of consecutive states. Every state of a
/// block has the block's rewards and sends the block's mass to each target block (2 per action;
/// split at random over 1–2 states of an even-numbered target, identically for odd-numbered
/// ones). The states of odd-numbered blocks are then perturbed: reward ± \a perturbation/2 and
/// \a perturbation of each row moved to a random state, so with perturbation > 0 the coarsest
/// bisimulation keeps the even blocks and splits the odd ones, which the metric sees as close.
/// Labels: "goal" = block 0, "safe" = every block but the last.
Mdp plantedLumpable(int states, int actions, int blocks, double perturbation, Rng& rng);

/// Gridworld of \a size x \a size cells (width rounded up to even) mirrored about its vertical
/// axis; actions north, south, inward, outward (relative to the axis, so mirror images are
/// bisimilar), each slipping to "stay" with probability 0.1. Absorbing goal cells in the two top
/// outer corners (reward 1 for entering), absorbing hazards at mid height next to the walls
/// (reward −1 for entering). Labels "goal", "safe" (every cell but the hazards).
Mdp mirroredGridworld(int size);

/// Ring of \a size states with \a actions actions: action 0 stays, action k ≥ 1 jumps ±k·J
/// (J = max(1, size/(2·actions)), sign fair); every move adds noise −1/0/+1 with probability
/// 1/4, 1/2, 1/4. Reward R(s,·) = (1 + cos 2πs/size)/2. Behaviour policy: stay with
/// probability \a kappa, else a uniform jump (stickiness κ slows mixing). Labels "goal" = {0},
/// "safe" = states with cos 2πs/size > −0.8. Reflection s ↦ −s is a bisimulation.
Mdp ringWorld(int size, int actions, double kappa);

} // namespace pl::mdp
