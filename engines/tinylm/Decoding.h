#pragma once
/// Greedy decoding loops over a transformer and its KV cache, shared by the decoding panels:
/// autoregressive (optionally "lossy-only": every generated query reads only a compressed view),
/// lookahead with an n-gram pool (the lookahead rows read the full cache, or, for FAFO, a
/// compressed view while the verification rows read the full cache) and layer-skip
/// self-speculation. Every loop counts forward passes and a modelled cost:
/// a pass costs 1 + kvCost * (keys read by all its rows) / 1000, a draft pass the share of
/// sublayers it runs times that.
/// Single-threaded; the cancel callback is polled once per forward pass.
#include "tinylm/KvCache.h"
#include "tinylm/TinyModel.h"

#include <functional>
#include <vector>

namespace pl::tinylm {

/// A prompt's cache after a full-attention prefill of all but its last token, and the attention
/// that prefill paid to each position (per layer and head, for H2O views).
struct Prefill {
    KvCache cache{1, 1, 1};
    H2oView scores{1, 1, 0, 0};
    int current = 0; ///< the last prompt token, not yet in the cache
};

Prefill prefillPrompt(const TransformerModel& m, const std::vector<int>& prompt, int capacity);

struct DecodeStats {
    std::vector<int> tokens;            ///< generated tokens
    std::vector<int> source;            ///< per token: 0 model (fallback / bonus), 1 verified guess
    std::vector<int> acceptLens;        ///< tokens accepted per step (full pass)
    int forwards = 0;                   ///< full-model passes
    int draftForwards = 0;              ///< layer-skip draft passes
    double cost = 0;                    ///< modelled cost
    std::vector<std::vector<int>> mask; ///< keys read per row at the recorded step (layer L-1, head 0)
    std::vector<int> maskRowKind;       ///< 0 current token, 1 verification, 2 lookahead
    int maskCacheLength = 0;
};

struct DecodeConfig {
    int gen = 64;
    double kvCost = 0.05;
    const std::function<void()>* tick = nullptr; ///< cancel poll
};

/// Autoregressive greedy decoding; with \a view, every generated query reads only that view
/// (lossy-only decoding; \a view also observes those rows). \a budget = the view's size for the cost.
DecodeStats decodeGreedy(const TransformerModel& m, const Prefill& p, const DecodeConfig& c,
                         KvView* view = nullptr, int budget = 0);

struct LookaheadConfig {
    int window = 5;         ///< W
    int ngram = 4;          ///< N
    int pool = 8;           ///< G
    KvView* view = nullptr; ///< what lookahead rows read (nullptr: the full cache)
    int budget = 0;         ///< its size, for the cost
    uint64_t seed = 1;      ///< initial guesses (tokens of the prompt)
    int recordStep = -1;    ///< record the mask of the first step from this one on with verification rows
};

/// Lookahead decoding (full view) or FAFO (compressed view); output equals decodeGreedy without view.
DecodeStats decodeLookahead(const TransformerModel& m, const Prefill& p, const std::vector<int>& prompt,
                            const DecodeConfig& c, const LookaheadConfig& la);

/// Self-speculation: draft \a gamma tokens with the attention sublayers of layers >= draftLayers
/// skipped, verify them in one full pass, accept the longest agreeing prefix plus one token.
DecodeStats decodeSelfSpeculative(const TransformerModel& m, const Prefill& p, const DecodeConfig& c,
                                  int gamma, int draftLayers);

} // namespace pl::tinylm
