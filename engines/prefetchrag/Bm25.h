#pragma once
/// BM25 (Okapi) over an inverted index: k1 = 1.2, b = 0.75 by default, tokens = lower-cased runs of
/// ASCII letters and digits (any other byte separates), idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
/// each distinct query term counted once, ties broken by corpus index (lower first). Immutable once
/// built; queries are const and may run on several threads.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace pl::prefetchrag {

/// The BM25 tokens of \a text: lower-cased maximal runs of [A-Za-z0-9].
std::vector<std::string> bm25Tokens(const std::string& text);

/// One hit of a query: corpus index and score.
struct Bm25Hit {
    int doc = 0;
    double score = 0;
};

class Bm25Index {
public:
    /// Builds the index of \a docs (each a token list). \a k1, \a b: the BM25 constants.
    explicit Bm25Index(const std::vector<std::vector<std::string>>& docs, double k1 = 1.2, double b = 0.75);
    /// The \a k best documents for the distinct terms of \a query, best first (score descending,
    /// then corpus index ascending). Documents scoring 0 are included only to fill k when the
    /// corpus has that many documents.
    std::vector<Bm25Hit> topK(const std::vector<std::string>& query, int k) const;
    /// The score of every document for \a query (distinct terms).
    std::vector<double> scores(const std::vector<std::string>& query) const;
    /// idf of \a term (the formula above; 0 df gives ln(1 + (N + 0.5) / 0.5)).
    double idf(const std::string& term) const;
    int size() const { return m_n; }

private:
    struct Posting {
        int doc;
        int tf;
    };
    int m_n = 0;
    double m_k1, m_b, m_avgLen = 0;
    std::vector<double> m_len;
    std::unordered_map<std::string, std::vector<Posting>> m_postings;
};

} // namespace pl::prefetchrag
