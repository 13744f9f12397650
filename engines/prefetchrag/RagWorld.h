#pragma once
/// The retrieval world of the prefetch-rag panel: a corpus of documents, the facts the template
/// writer can state (entity, attribute, value, supporting document) and the questions asked. Built
/// either from the spec's synthetic knowledge base (D domains x E entities x A attributes, one fact
/// document per (entity, attribute), entity names reused across domains, distractor documents) or
/// from a user corpus plus question file. Plain data; immutable once built.
#include "core/Rng.h"

#include <string>
#include <vector>

namespace pl::prefetchrag {

struct RagDoc {
    std::string id;
    int domain = 0;                  ///< index into RagWorld::domains
    std::vector<std::string> tokens; ///< BM25 tokens of the text
};

/// A statement the writer can make: cue words, then (8-16 tokens later) the value slot.
struct RagFact {
    std::vector<std::string> entity;    ///< entity words (BM25 tokens)
    std::vector<std::string> attribute; ///< attribute words (BM25 tokens)
    std::string value;                  ///< the slot token
    int doc = -1;                       ///< the supporting document (corpus index)
    int domain = 0;                     ///< selects the value vocabulary of a guess
    int entityKey = 0;                  ///< facts with one key are about the same entity
};

struct RagQuestion {
    std::string id;
    int fact = 0;                   ///< the fact its answer opens with
    std::vector<std::string> query; ///< BM25 query (verbatim or entity + attribute)
    int doc = -1;                   ///< the known supporting document, -1 when not given
};

struct RagWorld {
    std::vector<RagDoc> docs;
    std::vector<std::string> domains;
    std::vector<RagFact> facts;
    std::vector<RagQuestion> questions;
    std::vector<std::vector<std::string>> values; ///< per domain: the value vocabulary of a guess
    bool synthetic = true;
    int emptySkipped = 0; ///< empty user documents skipped
};

struct SyntheticConfig {
    int domains = 4, entities = 50, attributes = 6, values = 8, questions = 60, distractors = 1;
};

/// The spec's synthetic knowledge base: fact documents "dom<d> e<i> attr<a> is v<d>x<k>" padded
/// with filler, \a distractors documents per fact naming the entity and attribute with a wrong
/// value (no domain word), and c.questions questions on random facts (query = entity + attribute).
RagWorld makeSyntheticWorld(const SyntheticConfig& c, Rng rng);

/// The filler words of documents and answers (BM25 tokens).
const std::vector<std::string>& fillerWords();

} // namespace pl::prefetchrag
