#include "ContextMonitor.h"

#include "prefetchrag/Bm25.h"

#include <algorithm>
#include <cmath>

namespace pl::prefetchrag {

DomainMonitor::DomainMonitor(const RagWorld& w, int window) : m_window(window), m_domains(w.domains.size()) {
    std::unordered_map<std::string, std::vector<double>> counts;
    std::vector<double> total(m_domains, 0.0);
    for (const RagDoc& d : w.docs)
        for (const auto& t : d.tokens) {
            auto& c = counts[t];
            if (c.empty())
                c.assign(m_domains, 0.0);
            c[size_t(d.domain)] += 1;
            total[size_t(d.domain)] += 1;
        }
    const double V = double(counts.size()) + 1;
    m_logUnseen.resize(m_domains);
    for (size_t d = 0; d < m_domains; ++d)
        m_logUnseen[d] = std::log(1.0 / (total[d] + V));
    for (auto& [t, c] : counts) {
        std::vector<double> lp(m_domains);
        for (size_t d = 0; d < m_domains; ++d)
            lp[d] = std::log((c[d] + 1.0) / (total[d] + V));
        m_logp.emplace(t, std::move(lp));
    }
}

std::vector<double> DomainMonitor::posterior(const std::vector<std::string>& words, int end) const {
    std::vector<double> s(m_domains, 0.0);
    for (int i = std::max(0, end - m_window + 1); i <= end && i < int(words.size()); ++i)
        for (const auto& t : bm25Tokens(words[size_t(i)])) {
            const auto it = m_logp.find(t);
            for (size_t d = 0; d < m_domains; ++d)
                s[d] += it == m_logp.end() ? m_logUnseen[d] : it->second[d];
        }
    const double mx = s.empty() ? 0.0 : *std::max_element(s.begin(), s.end());
    double z = 0;
    for (double& v : s)
        z += (v = std::exp(v - mx));
    for (double& v : s)
        v /= z;
    return s;
}

double DomainMonitor::kl(const std::vector<double>& p, const std::vector<double>& q) {
    double k = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (p[i] > 0)
            k += p[i] * std::log(p[i] / std::max(q[i], 1e-12));
    return k;
}

bool ContextBudget::has(int doc) const {
    return std::find(m_docs.begin(), m_docs.end(), doc) != m_docs.end();
}

bool ContextBudget::insert(int doc) {
    if (has(doc))
        return false;
    m_docs.push_back(doc);
    while (int(m_docs.size()) > m_budget)
        m_docs.pop_front();
    return true;
}

} // namespace pl::prefetchrag
