#pragma once
/// Stand-ins of the sae-domain-ood panel (spec §18, labelled as such): a corpus of D topic
/// grammars (own content vocabulary, a quarter borrowed from the next domain = near-OOD, shared
/// function words, a shared function/content syntax chain, domain-specific successors) plus token
/// salad (far-OOD, test only); a tiny residual-MLP LM (6-token window, blocks x ← x + MLP(LN(x)),
/// unembedding) trained on the train texts of every domain; per-layer pooled activations; TopK
/// SAEs trained on them (MSE, Adam). Deterministic in the Rng streams named below.

#include "core/Rng.h"
#include "hiddenstate/SaeCodes.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::hiddenstate {

struct SaeCorpusConfig {
    int domains = 6, vocab = 800, textsPerDomain = 500, layers = 6, width = 64;
    double trainFraction = 0.7;
    bool lastToken = false; ///< pooling: last token instead of the mean
    int lmSteps = 200, saeSteps = 60;
};

struct SaeCorpus {
    std::vector<std::vector<int>> tokens; ///< per text
    std::vector<std::string> ids, domain, split;
    std::vector<Eigen::MatrixXd> activations; ///< per layer, N x d (pooled)
    std::vector<double> lmLoss;               ///< LM training loss every 10 steps
};

/// Texts (stream "corpus"), LM (stream "lm") and activations. \a poll(f) may throw to cancel.
SaeCorpus makeSaeCorpus(const SaeCorpusConfig& c, const Rng& root, const std::function<void(double)>& poll);

/// A TopK SAE of width m trained on the rows \a rows of \a A (stream given), k active latents.
SaeLayer trainTopKSae(const Eigen::MatrixXd& A, const std::vector<int>& rows, int m, int k, int steps,
                      Rng rng);

} // namespace pl::hiddenstate
