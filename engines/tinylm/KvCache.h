#pragma once
/// One physical key/value cache of a transformer (per layer, keys and values row per position) and
/// the index-list views of it that compressed-attention schemes read: the full cache, sink +
/// recent (StreamingLLM), Quest (top pages by the query's upper bound on q.k) and H2O (heavy
/// hitters by accumulated attention, plus the recent window). A view never copies keys: it lists
/// the cache positions a query may read. Not thread-safe (one decode loop owns a cache).
#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace pl::tinylm {

using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class KvCache {
public:
    KvCache(int layers, int dModel, int capacity);
    int length() const { return m_len; }
    int capacity() const { return int(m_k.empty() ? 0 : m_k[0].rows()); }
    int layers() const { return int(m_k.size()); }
    const RowMat& keys(int layer) const { return m_k[size_t(layer)]; }
    const RowMat& values(int layer) const { return m_v[size_t(layer)]; }
    /// Appends one position: its key and value rows for every layer (length() grows by one).
    void append(const std::vector<const double*>& k, const std::vector<const double*>& v);
    /// Drops every position from \a length on.
    void truncate(int length);

private:
    std::vector<RowMat> m_k, m_v;
    int m_len = 0;
};

/// The positions of the cache (of length \a len) that a query may read. Implementations hold any
/// state they need (H2O's scores); select() is called per layer and head with the head's query.
class KvView {
public:
    virtual ~KvView() = default;
    /// Writes the visible positions, ascending, into \a out.
    virtual void select(const KvCache& c, int layer, int head, int dHead, const double* q,
                        std::vector<int>& out) const = 0;
    /// Called with the attention a committed full-cache row paid to every cache position (for
    /// views that learn from it, H2O); default: ignored.
    virtual void observe(int /*layer*/, int /*head*/, const std::vector<int>& /*keys*/,
                         const std::vector<double>& /*p*/) {}
    /// Called when the cache grows to \a len positions; default: ignored.
    virtual void grow(int /*len*/) {}
};

/// First `sink` and last `recent` positions.
class StreamingView : public KvView {
public:
    StreamingView(int sink, int recent) : m_sink(sink), m_recent(recent) {}
    void select(const KvCache& c, int layer, int head, int dHead, const double* q,
                std::vector<int>& out) const override;

private:
    int m_sink, m_recent;
};

/// Quest: pages of `page` positions; per layer and head the pages with the largest upper bound
/// sum_i max(q_i min_i, q_i max_i) of q.k, ceil(budget / page) of them (the last page always).
class QuestView : public KvView {
public:
    QuestView(int budget, int page) : m_budget(budget), m_page(page) {}
    void select(const KvCache& c, int layer, int head, int dHead, const double* q,
                std::vector<int>& out) const override;

private:
    int m_budget, m_page;
};

/// H2O-style: the last `recent` positions plus the budget - recent others with the largest
/// attention accumulated (per layer and head) from the rows observed so far.
class H2oView : public KvView {
public:
    H2oView(int layers, int heads, int budget, int recent);
    void select(const KvCache& c, int layer, int head, int dHead, const double* q,
                std::vector<int>& out) const override;
    void observe(int layer, int head, const std::vector<int>& keys, const std::vector<double>& p) override;
    void grow(int len) override;
    /// Changes the budget and recent window, keeping the accumulated scores.
    void setBudget(int budget, int recent) {
        m_budget = budget;
        m_recent = recent;
    }

private:
    int m_heads, m_budget, m_recent;
    std::vector<std::vector<double>> m_score; ///< [layer * heads + head][position]
};

/// "streaming" | "quest" | "h2o" with a total budget (streaming: `sink` + budget - sink recent;
/// H2O: half recent). Throws std::invalid_argument for an unknown name.
std::unique_ptr<KvView> makeView(const std::string& compressor, int budget, int sink, int page, int layers,
                                 int heads);

} // namespace pl::tinylm
