#pragma once
/// Stand-in for the inslen-hallucination panel (spec §12.3, labelled as such): a tiny multimodal
/// transformer trained in-engine on synthetic scenes. A scene is a few objects drawn mostly from
/// one co-occurrence group; each visible object gives noisy patch embeddings, some scenes carry
/// misleading patches of an absent object of the same group, and in training some listed objects
/// are occluded (no patches), which teaches the co-occurrence prior. The sequence is
/// [patches][instruction block][caption: "there are", objects in id order, EOS]; single-head causal attention
/// blocks with an MLP, LM head tied to nothing. After training, captions of fresh scenes are
/// generated greedily and exported as InsLenCaption (states at every layer, 0 = embeddings).

#include "core/Rng.h"
#include "hiddenstate/InsLenCaption.h"

#include <functional>

namespace pl::hiddenstate {

struct ToyMultimodalConfig {
    int objects = 40, patches = 16, dim = 32, layers = 2;
    int steps = 300, batch = 8, captions = 150;
    double lr = 3e-3;
};

struct ToyMultimodalRun {
    std::vector<InsLenCaption> captions; ///< generated captions of fresh test scenes
    Eigen::MatrixXd lmHead;              ///< V x d
    std::vector<double> loss;            ///< mean training loss per 10 steps
};

/// Trains the toy and generates captions. Seed streams: "scenes", "init", "test". \a poll gets the
/// fraction done (and may throw to cancel).
ToyMultimodalRun runToyMultimodal(const ToyMultimodalConfig& c, const Rng& root,
                                  const std::function<void(double)>& poll);

} // namespace pl::hiddenstate
