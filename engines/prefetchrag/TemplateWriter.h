#pragma once
/// The spec's template writer: every sentence states one fact, its cue words (entity, attribute)
/// 8-16 tokens before the value slot, padded with filler of random length. The first sentence
/// answers the question; each later one stays on the entity (another attribute) or, with
/// probability topic_shift, moves to a random other entity. Pure functions.
#include "core/Rng.h"
#include "prefetchrag/RagWorld.h"

#include <map>
#include <vector>

namespace pl::prefetchrag {

/// One written answer. Positions index words.
struct Answer {
    std::vector<std::string> words;
    std::vector<int> slotFact;      ///< per position: the fact whose value is emitted here, else -1
    std::vector<int> sentenceStart; ///< first position of each sentence
    std::vector<int> sentenceFact;  ///< the fact each sentence states
    std::vector<int> cueStart;      ///< position of each sentence's first cue word
};

/// The facts of each entity (RagFact::entityKey), for "stay on the entity" sentences.
using EntityFacts = std::map<int, std::vector<int>>;
EntityFacts entityFacts(const RagWorld& w);

/// Writes an answer of \a sentences sentences opening with \a firstFact.
Answer writeAnswer(const RagWorld& w, const EntityFacts& byEntity, int firstFact, int sentences,
                   double topicShift, Rng& rng);

} // namespace pl::prefetchrag
