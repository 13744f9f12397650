#pragma once
/// The stand-ins of the aporia-hallucination panel (spec §16). Both build the "tighter genuine"
/// hypothesis in on purpose; a user tests it on their own embeddings.
///  - Templated: a fact base of P prompts (entity, relation, true value). With probability
///    1 − q_p (q_p ~ Beta(3, 7), mean 0.3) a response paraphrases the true value; otherwise it is a
///    hallucination: a wrong value from the prompt's confusion set, and with probability
///    `asymmetry` one of many fabricated justifications (scatter), else a genuine-style paraphrase.
///  - vMF: genuine ~ vMF(μ_p, κ_G = 400); hallucinated around three centres
///    normalise(μ_p + 0.6·a·u) with κ_H = 400 − 280·a (a = asymmetry): a = 0 makes the classes
///    identically distributed.
/// Every response is labelled (evaluation mode). Deterministic in the Rng.

#include "ResponseSet.h"

#include "core/Rng.h"

namespace pl::embedgeo {

struct ResponseWorldSpec {
    int prompts = 200;
    int responses = 30;
    double asymmetry = 1.0;
};

/// Templated responses (texts and labels; no embedding yet).
ResponseSet makeTemplatedResponses(const ResponseWorldSpec& spec, Rng& rng);
/// vMF responses in dimension \a d (texts are short descriptions; embeddings filled).
ResponseSet makeVmfResponses(const ResponseWorldSpec& spec, int d, Rng& rng);

} // namespace pl::embedgeo
