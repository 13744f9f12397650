// libFuzzer target: the prefetch-rag JSONL readers (pl::prefetchrag::parseCorpusJsonl and
// parseQuestionsJsonl) and the join of a corpus with questions. Parsing must return consistent
// staging objects or throw pl::InputError; accepted text is valid UTF-8; BM25 over the accepted
// corpus returns corpus indices with descending scores.
#include "core/Errors.h"
#include "prefetchrag/Bm25.h"
#include "prefetchrag/RagInputs.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace pl::prefetchrag;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::shared_ptr<CorpusInput> corpus;
    try {
        corpus = parseCorpusJsonl(bytes, "fuzz.jsonl");
        const size_t n = corpus->ids.size();
        if (n == 0 || corpus->texts.size() != n || corpus->domains.size() != n ||
            firstInvalidUtf8(bytes) >= 0)
            __builtin_trap();
        std::vector<std::vector<std::string>> docs;
        for (const auto& t : corpus->texts)
            docs.push_back(bm25Tokens(t));
        const Bm25Index idx(docs);
        const auto hits = idx.topK(docs.front(), 5);
        for (size_t i = 0; i < hits.size(); ++i)
            if (hits[i].doc < 0 || size_t(hits[i].doc) >= n || (i > 0 && hits[i].score > hits[i - 1].score))
                __builtin_trap();
    } catch (const pl::InputError&) {
    }
    try {
        const auto q = parseQuestionsJsonl(bytes, "fuzz.jsonl");
        if (q->questions.empty())
            __builtin_trap();
        if (corpus) {
            const RagWorld w = worldFromInputs(*corpus, *q);
            if (w.facts.size() != q->questions.size())
                __builtin_trap();
            for (const RagFact& f : w.facts)
                if (f.doc < 0 || size_t(f.doc) >= w.docs.size())
                    __builtin_trap();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
