#include "Bm25.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace pl::prefetchrag {

std::vector<std::string> bm25Tokens(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            cur.push_back(char(c));
        else if (c >= 'A' && c <= 'Z')
            cur.push_back(char(c - 'A' + 'a'));
        else if (!cur.empty()) {
            out.push_back(cur);
            cur.clear();
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

Bm25Index::Bm25Index(const std::vector<std::vector<std::string>>& docs, double k1, double b)
    : m_n(int(docs.size())), m_k1(k1), m_b(b) {
    m_len.reserve(docs.size());
    double total = 0;
    std::unordered_map<std::string, int> tf;
    for (int d = 0; d < m_n; ++d) {
        tf.clear();
        for (const auto& t : docs[size_t(d)])
            ++tf[t];
        // postings in corpus order: each document appends once per distinct term
        for (const auto& [t, c] : tf)
            m_postings[t].push_back({d, c});
        m_len.push_back(double(docs[size_t(d)].size()));
        total += m_len.back();
    }
    m_avgLen = m_n ? total / m_n : 0.0;
}

double Bm25Index::idf(const std::string& term) const {
    const auto it = m_postings.find(term);
    const double df = it == m_postings.end() ? 0.0 : double(it->second.size());
    return std::log(1.0 + (double(m_n) - df + 0.5) / (df + 0.5));
}

std::vector<double> Bm25Index::scores(const std::vector<std::string>& query) const {
    std::vector<double> s(size_t(m_n), 0.0);
    std::unordered_set<std::string> seen;
    for (const auto& q : query) {
        if (!seen.insert(q).second)
            continue;
        const auto it = m_postings.find(q);
        if (it == m_postings.end())
            continue;
        const double w = idf(q);
        for (const Posting& p : it->second) {
            const double norm = m_avgLen > 0 ? m_len[size_t(p.doc)] / m_avgLen : 1.0;
            const double tf = double(p.tf);
            s[size_t(p.doc)] += w * tf * (m_k1 + 1) / (tf + m_k1 * (1 - m_b + m_b * norm));
        }
    }
    return s;
}

std::vector<Bm25Hit> Bm25Index::topK(const std::vector<std::string>& query, int k) const {
    // sparse accumulation over the postings of the distinct query terms (same order of additions as
    // scores(): query order), then a partial sort of the touched documents
    k = std::max(0, std::min(k, m_n));
    std::vector<double> acc(size_t(m_n), 0.0);
    std::vector<int> touched;
    std::unordered_set<std::string> seen;
    for (const auto& q : query) {
        if (!seen.insert(q).second)
            continue;
        const auto it = m_postings.find(q);
        if (it == m_postings.end())
            continue;
        const double w = idf(q);
        for (const Posting& p : it->second) {
            const double norm = m_avgLen > 0 ? m_len[size_t(p.doc)] / m_avgLen : 1.0;
            const double tf = double(p.tf);
            double& a = acc[size_t(p.doc)];
            if (a == 0.0)
                touched.push_back(p.doc);
            a += w * tf * (m_k1 + 1) / (tf + m_k1 * (1 - m_b + m_b * norm));
        }
    }
    std::vector<Bm25Hit> hits;
    // every contribution is positive (idf > 0), so a document enters `touched` once
    hits.reserve(touched.size());
    for (int d : touched)
        if (acc[size_t(d)] > 0)
            hits.push_back({d, acc[size_t(d)]});
    auto better = [](const Bm25Hit& a, const Bm25Hit& b) {
        return a.score > b.score || (a.score == b.score && a.doc < b.doc);
    };
    const size_t top = std::min(hits.size(), size_t(k));
    std::partial_sort(hits.begin(), hits.begin() + std::ptrdiff_t(top), hits.end(), better);
    hits.resize(top);
    // fill with zero-score documents in corpus order
    for (int i = 0; int(hits.size()) < k && i < m_n; ++i) {
        if (!(acc[size_t(i)] > 0))
            hits.push_back({i, 0.0});
    }
    return hits;
}

} // namespace pl::prefetchrag
