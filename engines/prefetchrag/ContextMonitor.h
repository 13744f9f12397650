#pragma once
/// The context monitor of PrefetchRAG: per-domain unigram models (add-one smoothing over the corpus
/// vocabulary) score the last W tokens; the domain posterior of a pending prefetch's query is compared
/// with the current window's by KL(query || recent) (our choice of direction: large when the recent
/// window no longer supports the prefetch's domain) to invalidate stale prefetches. Plus the context
/// budget: at most C documents, the oldest inserted leaves first. Immutable models; ContextBudget is
/// a value owned by one simulation.
#include "prefetchrag/RagWorld.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace pl::prefetchrag {

class DomainMonitor {
public:
    DomainMonitor(const RagWorld& w, int window);
    /// Posterior over domains of the window of \a window words ending at position \a end
    /// (inclusive) of \a words (uniform prior; unknown tokens score alike in every domain).
    std::vector<double> posterior(const std::vector<std::string>& words, int end) const;
    /// KL(p || q) in nats (q floored at 1e-12).
    static double kl(const std::vector<double>& p, const std::vector<double>& q);

private:
    int m_window;
    size_t m_domains;
    std::unordered_map<std::string, std::vector<double>> m_logp; ///< token -> log p_d(token)
    std::vector<double> m_logUnseen;                             ///< log p_d(unseen token)
};

/// The documents in context, oldest first, at most `budget`.
class ContextBudget {
public:
    explicit ContextBudget(int budget) : m_budget(budget) {}
    bool has(int doc) const;
    /// Inserts \a doc unless present (evicting the oldest beyond the budget); true when inserted.
    bool insert(int doc);
    const std::deque<int>& docs() const { return m_docs; }

private:
    int m_budget;
    std::deque<int> m_docs;
};

} // namespace pl::prefetchrag
