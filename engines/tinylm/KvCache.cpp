#include "KvCache.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace pl::tinylm {

KvCache::KvCache(int layers, int dModel, int capacity) {
    for (int l = 0; l < layers; ++l) {
        m_k.emplace_back(RowMat::Zero(capacity, dModel));
        m_v.emplace_back(RowMat::Zero(capacity, dModel));
    }
}

void KvCache::append(const std::vector<const double*>& k, const std::vector<const double*>& v) {
    if (m_len >= capacity())
        throw std::length_error("KV cache full");
    const Eigen::Index d = m_k.empty() ? 0 : m_k[0].cols();
    for (size_t l = 0; l < m_k.size(); ++l) {
        m_k[l].row(m_len) = Eigen::Map<const Eigen::RowVectorXd>(k[l], d);
        m_v[l].row(m_len) = Eigen::Map<const Eigen::RowVectorXd>(v[l], d);
    }
    ++m_len;
}

void KvCache::truncate(int length) {
    m_len = std::clamp(length, 0, m_len);
}

void StreamingView::select(const KvCache& c, int, int, int, const double*, std::vector<int>& out) const {
    out.clear();
    const int n = c.length();
    const int s = std::min(m_sink, n);
    for (int i = 0; i < s; ++i)
        out.push_back(i);
    for (int i = std::max(s, n - m_recent); i < n; ++i)
        out.push_back(i);
}

void QuestView::select(const KvCache& c, int layer, int head, int dHead, const double* q,
                       std::vector<int>& out) const {
    out.clear();
    const int n = c.length();
    if (n <= m_budget) {
        out.resize(size_t(n));
        std::iota(out.begin(), out.end(), 0);
        return;
    }
    const RowMat& K = c.keys(layer);
    const int pages = (n + m_page - 1) / m_page;
    const int keep = std::max(1, (m_budget + m_page - 1) / m_page);
    std::vector<double> bound(static_cast<size_t>(pages));
    const int off = head * dHead;
    for (int p = 0; p < pages; ++p) {
        double ub = 0;
        const int a = p * m_page, b = std::min(n, a + m_page);
        for (int i = 0; i < dHead; ++i) {
            double lo = K(a, off + i), hi = lo;
            for (int r = a + 1; r < b; ++r) {
                lo = std::min(lo, K(r, off + i));
                hi = std::max(hi, K(r, off + i));
            }
            ub += std::max(q[i] * lo, q[i] * hi);
        }
        bound[size_t(p)] = ub;
    }
    bound[size_t(pages - 1)] = std::numeric_limits<double>::infinity(); // the current page always
    std::vector<int> order(static_cast<size_t>(pages));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return bound[size_t(x)] > bound[size_t(y)]; });
    order.resize(size_t(std::min(keep, pages)));
    std::sort(order.begin(), order.end());
    for (int p : order)
        for (int r = p * m_page; r < std::min(n, (p + 1) * m_page); ++r)
            out.push_back(r);
}

H2oView::H2oView(int layers, int heads, int budget, int recent)
    : m_heads(heads), m_budget(budget), m_recent(recent), m_score(size_t(layers * heads)) {}

void H2oView::select(const KvCache& c, int layer, int head, int, const double*, std::vector<int>& out) const {
    out.clear();
    const int n = c.length();
    if (n <= m_budget) {
        out.resize(size_t(n));
        std::iota(out.begin(), out.end(), 0);
        return;
    }
    const int recentStart = n - m_recent;
    const std::vector<double>& s = m_score[size_t(layer * m_heads + head)];
    std::vector<int> older(static_cast<size_t>(recentStart));
    std::iota(older.begin(), older.end(), 0);
    const int heavy = std::min(recentStart, m_budget - m_recent);
    auto score = [&](int i) { return size_t(i) < s.size() ? s[size_t(i)] : 0.0; };
    std::partial_sort(older.begin(), older.begin() + heavy, older.end(),
                      [&](int x, int y) { return score(x) > score(y) || (score(x) == score(y) && x < y); });
    older.resize(size_t(heavy));
    std::sort(older.begin(), older.end());
    out = older;
    for (int i = recentStart; i < n; ++i)
        out.push_back(i);
}

void H2oView::observe(int layer, int head, const std::vector<int>& keys, const std::vector<double>& p) {
    std::vector<double>& s = m_score[size_t(layer * m_heads + head)];
    for (size_t j = 0; j < keys.size(); ++j) {
        if (size_t(keys[j]) >= s.size())
            s.resize(size_t(keys[j]) + 1, 0.0);
        s[size_t(keys[j])] += p[j];
    }
}

void H2oView::grow(int len) {
    for (auto& s : m_score)
        if (int(s.size()) < len)
            s.resize(size_t(len), 0.0);
}

std::unique_ptr<KvView> makeView(const std::string& compressor, int budget, int sink, int page, int layers,
                                 int heads) {
    if (compressor == "streaming")
        return std::make_unique<StreamingView>(std::min(sink, budget), std::max(0, budget - sink));
    if (compressor == "quest")
        return std::make_unique<QuestView>(budget, page);
    if (compressor == "h2o")
        return std::make_unique<H2oView>(layers, heads, budget, std::max(1, budget / 2));
    throw std::invalid_argument("unknown compressor '" + compressor + "'");
}

} // namespace pl::tinylm
