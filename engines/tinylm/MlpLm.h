#pragma once
/// The `mlp_lm` forward pass (batch of contexts) and its training on the paperlab_nn tape with
/// Adam (cross-entropy of the next token). Pure functions; one thread per call.
#include "core/Rng.h"
#include "tinylm/TinyModel.h"

#include <functional>
#include <vector>

namespace pl::tinylm {

/// The last `window` tokens before position t of \a seq, oldest first, `pad_id` before the start.
std::vector<int> mlpContext(const MlpLmModel& m, const std::vector<int>& seq, int t);

struct MlpOutput {
    Mat hidden; ///< rows x h2 (the hidden state the draft heads read)
    Mat logits; ///< rows x V
};

/// Forward pass of a batch: row r reads contexts[r] (window tokens each).
MlpOutput mlpForward(const MlpLmModel& m, const std::vector<std::vector<int>>& contexts);

struct MlpTrainConfig {
    int embed = 16, hidden1 = 64, hidden2 = 64, window = 4, padId = 0;
    Act act = Act::Tanh;
    int epochs = 10, batch = 128;
    double lr = 3e-3;
};

/// Trains a fresh mlp_lm of vocabulary \a vocab on every (context, next token) pair of
/// \a sequences (Glorot init from \a rng). \a epochLoss, when given, gets the mean loss per
/// epoch; \a tick is called once per minibatch with the fraction done (may throw to cancel).
MlpLmModel trainMlpLm(const std::vector<std::vector<int>>& sequences, int vocab, const MlpTrainConfig& c,
                      Rng rng, std::vector<double>* epochLoss = nullptr,
                      const std::function<void(double)>& tick = {});

} // namespace pl::tinylm
