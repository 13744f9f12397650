#include "RagWorld.h"

namespace pl::prefetchrag {

const std::vector<std::string>& fillerWords() {
    static const std::vector<std::string> w = {
        "the",   "of",     "and",    "a",     "known", "widely", "record", "indeed", "that",  "its",
        "for",   "in",     "on",     "as",    "with",  "was",    "it",     "by",     "then",  "also",
        "noted", "listed", "report", "often", "said",  "thus",   "very",   "much",   "still", "here"};
    return w;
}

namespace {

void pad(std::vector<std::string>& t, int n, Rng& rng) {
    const auto& f = fillerWords();
    for (int i = 0; i < n; ++i)
        t.push_back(f[size_t(rng.uniformInt(f.size()))]);
}

} // namespace

RagWorld makeSyntheticWorld(const SyntheticConfig& c, Rng rng) {
    RagWorld w;
    for (int d = 0; d < c.domains; ++d) {
        w.domains.push_back("dom" + std::to_string(d));
        std::vector<std::string> v;
        for (int k = 0; k < c.values; ++k)
            v.push_back("v" + std::to_string(d) + "x" + std::to_string(k));
        w.values.push_back(v);
    }
    for (int d = 0; d < c.domains; ++d)
        for (int e = 0; e < c.entities; ++e)
            for (int a = 0; a < c.attributes; ++a) {
                RagFact f;
                f.entity = {w.domains[size_t(d)], "e" + std::to_string(e)};
                f.attribute = {"attr" + std::to_string(a)};
                f.value = w.values[size_t(d)][size_t(rng.uniformInt(size_t(c.values)))];
                f.domain = d;
                f.entityKey = d * c.entities + e;
                f.doc = int(w.docs.size());
                RagDoc doc;
                doc.id = "fact-" + std::to_string(d) + "-" + std::to_string(e) + "-" + std::to_string(a);
                doc.domain = d;
                doc.tokens = {f.entity[0], f.entity[1], f.attribute[0], "is", f.value};
                pad(doc.tokens, 4 + int(rng.uniformInt(9)), rng);
                w.docs.push_back(std::move(doc));
                w.facts.push_back(f);
            }
    const size_t nFacts = w.facts.size();
    for (size_t i = 0; i < nFacts; ++i)
        for (int k = 0; k < c.distractors; ++k) {
            const RagFact& f = w.facts[i];
            RagDoc doc;
            doc.id = "distractor-" + std::to_string(i) + "-" + std::to_string(k);
            doc.domain = int(rng.uniformInt(size_t(c.domains)));
            std::string wrong = f.value;
            while (c.values > 1 && wrong == f.value)
                wrong = w.values[size_t(f.domain)][size_t(rng.uniformInt(size_t(c.values)))];
            pad(doc.tokens, 1 + int(rng.uniformInt(3)), rng);
            doc.tokens.insert(doc.tokens.end(), {f.entity[1], f.attribute[0], "was", wrong});
            pad(doc.tokens, 3 + int(rng.uniformInt(8)), rng);
            w.docs.push_back(std::move(doc));
        }
    for (int q = 0; q < c.questions; ++q) {
        RagQuestion qu;
        qu.id = "q" + std::to_string(q);
        qu.fact = int(rng.uniformInt(nFacts));
        const RagFact& f = w.facts[size_t(qu.fact)];
        qu.query = f.entity;
        qu.query.insert(qu.query.end(), f.attribute.begin(), f.attribute.end());
        qu.doc = f.doc;
        w.questions.push_back(std::move(qu));
    }
    return w;
}

} // namespace pl::prefetchrag
