#pragma once
/// SpriteWorld (specs-004 §13): the olaf-world stand-in for unlabelled gameplay video. A bright
/// sprite moves by one pixel per frame (right, left, up, down or stay) over a static textured
/// background; each visual context has its own background texture and contrast, sprite size and
/// brightness, and moving distractor blobs. Pure function of (options, rng). No Qt.

#include "core/Rng.h"
#include "gridworld/ClipSet.h"

namespace pl::gridworld {

struct SpriteWorldOptions {
    int contexts = 4; ///< visual contexts (2–10)
    int clipsPerContext = 100;
    int clipLength = 16; ///< frames per clip
    int frame = 16;      ///< frame side (px)
    int distractors = 1; ///< randomly moving blobs per frame (0–3)
    double noise = 0.02; ///< sd of per-pixel Gaussian noise
};

/// Generates the clips, their contexts and their (hidden) actions.
ClipSet generateSpriteWorld(const SpriteWorldOptions& options, const Rng& rng);

} // namespace pl::gridworld
