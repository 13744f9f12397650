#pragma once
/// The synthetic token corpus the stand-in moe_lm learns (our reconstruction of specs-004 §19's "16
/// clusters, each with its own teacher"): every sequence belongs to one of `clusters` sources; each
/// source has its own transition table, drawn once: after each token it puts 0.7 / 0.2 / 0.1 on
/// three random next tokens (entropy 0.80 nats once the source is known). A model must infer the source from
/// the window to predict well, which gives the experts something to specialise on. Pure functions.
#include "core/Rng.h"

#include <vector>

namespace pl::gemq {

struct ClusterCorpus {
    int vocab = 32;
    std::vector<std::vector<int>> train, calib, eval; ///< token sequences
};

struct ClusterConfig {
    int vocab = 32, clusters = 16, seqLen = 32;
    int trainTokens = 8192, calibTokens = 2048, evalTokens = 2048;
};

/// Draws the sources and the three splits from \a rng (deterministic).
ClusterCorpus makeClusterCorpus(const ClusterConfig& c, Rng rng);

} // namespace pl::gemq
