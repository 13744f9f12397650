#pragma once
/// The user files of the prefetch-rag panel: a corpus (JSONL `{"id","domain","text"}` per line, or a
/// folder of `.txt` files, one document each, id = file name, domain = "txt") and a question file
/// (JSONL `{"id","entity","attribute","value","doc"?,"query"?}`). Invalid JSON names the line,
/// non-UTF-8 the byte offset, a duplicate id its line; empty documents are skipped and counted.
/// Parsed into immutable staging objects; worldFromInputs() joins the two.
#include "core/Engine.h"
#include "prefetchrag/RagWorld.h"

#include <string>
#include <vector>

namespace pl::prefetchrag {

struct CorpusInput : LoadedInput {
    std::vector<std::string> ids, domains, texts;
    int emptySkipped = 0;
};

struct QuestionSpec {
    std::string id, entity, attribute, value, doc, query;
    int64_t line = 0;
};

struct QuestionsInput : LoadedInput {
    std::vector<QuestionSpec> questions;
};

/// Byte offset of the first invalid UTF-8 sequence in \a s, or -1.
int64_t firstInvalidUtf8(const std::string& s);

/// Parses a corpus JSONL text (\a name for messages).
std::shared_ptr<CorpusInput> parseCorpusJsonl(const std::string& text, const std::string& name);
/// Parses a question JSONL text.
std::shared_ptr<QuestionsInput> parseQuestionsJsonl(const std::string& text, const std::string& name);
/// Loads a `.jsonl` (corpus or questions, told apart by the first object's keys) or a folder of `.txt`.
std::shared_ptr<const LoadedInput> loadRagInput(const std::string& path);

/// The world of a user corpus and its questions: one fact per question (its document: `doc` when
/// given, else the BM25 best match of its query); guesses draw from the values of the questions
/// whose documents share the domain. Throws InputError for a `doc` id not in the corpus.
RagWorld worldFromInputs(const CorpusInput& corpus, const QuestionsInput& questions);

} // namespace pl::prefetchrag
