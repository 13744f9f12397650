#pragma once
/// The built-in stand-in of fafo-decoding: a hand-made 2-layer attention transformer (no training)
/// whose attention genuinely needs long range, after the induction-head circuit of Elhage / Olsson
/// et al. Residual stream (d = 4e + 16): TOK (the token's code, e dims), PREV and PREV2 (the codes of
/// the two previous tokens, written by layer 0), OUT (the code the model predicts), POS (8
/// sinusoid pairs). Layer 0, two heads: attend to t-1 and t-2 through rotated position codes and
/// copy their TOK into PREV / PREV2. Layer 1, head 0: the induction head, query [TOK, PREV] against
/// key [PREV, PREV2] (a bigram match), value TOK into OUT; its MLP is the "n-gram prior": one ReLU
/// unit per token adds half the code of a fixed successor to OUT. Logits = gamma OUT . code.
/// Token codes are random unit vectors (a fixed stream), so the model is the same for every seed.
/// The synthetic prompts repeat a segment at a copy distance, with a Markov background that uses
/// the same successor table.
#include "core/Rng.h"
#include "tinylm/TinyModel.h"

#include <vector>

namespace pl::tinylm {

struct InductionSpec {
    int vocab = 128;
    int code = 32;              ///< e
    int positions = 4096;       ///< rows of pos_emb
    double prevSharpness = 12;  ///< beta of the previous-token heads
    double matchSharpness = 12; ///< beta of the induction head (per matching token)
    double logitScale = 10;     ///< gamma
};

/// The model (deterministic in the spec).
TransformerModel makeInductionModel(const InductionSpec& s);
/// The successor table of the n-gram prior (and of the corpus' Markov background).
std::vector<int> inductionSuccessors(int vocab);

struct CopyPrompt {
    std::vector<int> tokens;
    int distance = 0; ///< copy distance of the repeated segment
};

/// \a n prompts: 32 background tokens, a segment of `distance` tokens (uniform in [dmin, dmax]),
/// then its first 8 tokens again, so that a greedy continuation keeps copying at that distance.
/// Background tokens follow the successor table with probability \a markov, else uniform.
std::vector<CopyPrompt> makeCopyPrompts(int n, int vocab, int dmin, int dmax, double markov, Rng rng);

} // namespace pl::tinylm
