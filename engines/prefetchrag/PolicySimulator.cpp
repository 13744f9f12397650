#include "PolicySimulator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace pl::prefetchrag {

std::string policyName(Policy p) {
    switch (p) {
    case Policy::NoRag:
        return "norag";
    case Policy::Sync:
        return "sync";
    case Policy::FixedWindow:
        return "fixed_window";
    case Policy::StaleQuery:
        return "stale_query";
    case Policy::Predictive:
        return "predictive";
    case Policy::Oracle:
        return "oracle";
    }
    return "?";
}

namespace {

struct Request {
    double arrive = 0;
    std::vector<int> docs;
    int key = -1, firedAt = -1;
    std::vector<double> posterior;
};

class Sim {
public:
    Sim(Policy p, const SimInput& in, const SimConfig& c) : m_p(p), m_in(in), m_c(c), m_ctx(c.budget) {}
    SimOutcome run();

private:
    const std::vector<std::string>& words() const { return m_in.trace->answer.words; }
    void span(double a, double b, int kind) {
        if (b > a)
            m_out.spans.push_back({a, b, kind});
    }
    double nextLatency() {
        ++m_out.requests;
        return m_in.latencies[size_t(m_lat++) % m_in.latencies.size()];
    }
    void issue(std::vector<int> docs, int key, int at, int t) {
        Request r{m_T + nextLatency(), std::move(docs), key, at, {}};
        if (t >= 0)
            r.posterior = m_in.trace->queryPosterior[size_t(t)];
        // kept sorted by arrival (ties: issue order)
        const auto pos = std::upper_bound(m_pending.begin(), m_pending.end(), r.arrive,
                                          [](double a, const Request& x) { return a < x.arrive; });
        m_pending.insert(pos, std::move(r));
    }
    void insert(const std::vector<int>& docs, int firedAt) {
        int tokens = 0;
        for (int d : docs)
            if (m_ctx.insert(d)) {
                tokens += int(m_in.world->docs[size_t(d)].tokens.size());
                if (firedAt >= 0)
                    m_firedFor[d] = firedAt;
            }
        const double cost = m_c.prefillMsPerToken * tokens;
        span(m_T, m_T + cost, 4);
        m_T += cost;
    }
    void deliverDue() {
        while (!m_pending.empty() && m_pending.front().arrive <= m_T) {
            const Request r = m_pending.front();
            m_pending.erase(m_pending.begin());
            insert(r.docs, r.firedAt);
        }
    }
    static constexpr int kAny = -2;
    /// Stalls until the earliest pending request with \a key (kAny: any) arrives; false if none.
    bool waitFor(int key) {
        const auto it = std::find_if(m_pending.begin(), m_pending.end(),
                                     [&](const Request& r) { return key == kAny || r.key == key; });
        if (it == m_pending.end())
            return false;
        const double to = std::max(m_T, it->arrive);
        span(m_T, to, 3);
        m_out.stallMs += to - m_T;
        m_T = to;
        deliverDue(); // everything that arrived meanwhile, the awaited request included
        return true;
    }
    void blocking(const std::vector<int>& docs) {
        const double to = m_T + nextLatency();
        span(m_T, to, 3);
        m_out.stallMs += to - m_T;
        m_T = to;
        insert(docs, -1);
    }
    void monitorPending(int t);
    void slot(int t, int fact);
    void afterToken(int t);

    Policy m_p;
    const SimInput& m_in;
    const SimConfig& m_c;
    ContextBudget m_ctx;
    std::vector<Request> m_pending;
    std::set<int> m_keys;
    std::map<int, int> m_firedFor;
    SimOutcome m_out;
    double m_T = 0;
    int m_lat = 0;
};

/// The context monitor drops pending prefetches whose query's domain the recent window no longer
/// supports: KL(query posterior || window posterior) > theta_shift.
void Sim::monitorPending(int t) {
    const auto& now = m_in.trace->posterior[size_t(t)];
    for (size_t i = 0; i < m_pending.size();) {
        const Request& r = m_pending[i];
        if (r.key >= 0 && DomainMonitor::kl(r.posterior, now) > m_c.thetaShift) {
            m_keys.erase(r.key);
            ++m_out.invalidated;
            m_pending.erase(m_pending.begin() + std::ptrdiff_t(i));
        } else
            ++i;
    }
}

void Sim::slot(int t, int fact) {
    const RagFact& f = m_in.world->facts[size_t(fact)];
    if (!m_ctx.has(f.doc) && m_p != Policy::NoRag) {
        const std::vector<int>& flare = m_in.trace->queryDocs[size_t(std::max(0, t - 1))];
        if (m_p == Policy::Sync)
            blocking(flare);
        else if (m_c.stall && m_p == Policy::Predictive) {
            // wait for the prefetch of the current need (if pending), else retrieve blocking
            const int key = m_in.trace->queryKey[size_t(std::max(0, t - 1))];
            while (!m_ctx.has(f.doc) && waitFor(key)) {
            }
            if (!m_ctx.has(f.doc))
                blocking(flare);
        } else if (m_c.stall) {
            while (!m_ctx.has(f.doc) && waitFor(kAny)) {
            }
        }
    }
    const bool has = m_ctx.has(f.doc);
    const size_t nv = std::max<size_t>(1, m_in.world->values[size_t(f.domain)].size());
    const double u = m_in.slotDraws[size_t(t)];
    ++m_out.slots;
    m_out.correct += has ? u < 0.95 : u < 1.0 / double(nv);
    if (has && m_p == Policy::Predictive) {
        const auto it = m_firedFor.find(f.doc);
        if (it != m_firedFor.end())
            m_out.leads.push_back(t - it->second);
    }
}

void Sim::afterToken(int t) {
    const int W = m_c.window, n = int(words().size());
    auto rawQuery = [&](int from, int to) {
        std::vector<std::string> q;
        for (int i = std::max(0, from); i < to; ++i)
            for (auto& s : bm25Tokens(words()[size_t(i)]))
                q.push_back(std::move(s));
        std::vector<int> docs;
        for (const Bm25Hit& h : m_in.index->topK(q, m_c.topk))
            docs.push_back(h.doc);
        return docs;
    };
    if (m_p == Policy::FixedWindow && (t + 1) % W == 0 && t + 1 < n)
        issue(rawQuery(t + 1 - W, t + 1), -1, -1, -1);
    else if (m_p == Policy::StaleQuery && (t + 1) % std::max(1, W / 2) == 0 && t + 1 >= W && t + 1 < n)
        issue(rawQuery(t + 1 - W - W / 2, t + 1 - W / 2), -1, -1, -1);
    else if (m_p == Policy::Oracle) {
        const auto& st = m_in.trace->answer.sentenceStart;
        const auto it = std::find(st.begin(), st.end(), t + 1);
        if (it != st.end())
            issue({m_in.world->facts[size_t(m_in.trace->answer.sentenceFact[size_t(it - st.begin())])].doc},
                  -1, -1, -1);
    } else if (m_p == Policy::Predictive) {
        monitorPending(t);
        const auto& q = m_in.trace->queryDocs[size_t(t)];
        const bool covered = !q.empty() && m_ctx.has(q[0]);
        const double p = m_in.predictor->probability(*m_in.trace, t, covered);
        m_out.p.push_back(p);
        const int key = m_in.trace->queryKey[size_t(t)];
        if (p > m_c.thetaP && key >= 0 && !covered && !m_keys.count(key)) {
            m_keys.insert(key);
            m_out.fires.push_back(t);
            issue(q, key, t, t);
        }
    }
}

SimOutcome Sim::run() {
    m_T = m_c.prefillMsPerToken * m_in.questionTokens;
    span(0, m_T, 4);
    if (m_p == Policy::Sync)
        blocking(m_in.questionDocs);
    else if (m_p == Policy::Oracle)
        issue({m_in.world->facts[size_t(m_in.trace->answer.sentenceFact[0])].doc}, -1, -1, -1);
    else if (m_p != Policy::NoRag)
        issue(m_in.questionDocs, -1, -1, -1);
    const int n = int(words().size());
    for (int t = 0; t < n; ++t) {
        deliverDue();
        const int fact = m_in.trace->answer.slotFact[size_t(t)];
        if (fact >= 0)
            slot(t, fact);
        span(m_T, m_T + m_c.tokenMs, m_pending.empty() ? 1 : 2);
        m_T += m_c.tokenMs;
        if (t == 0)
            m_out.ttftMs = m_T;
        afterToken(t);
    }
    m_out.latencyMs = m_T;
    return m_out;
}

} // namespace

SimOutcome simulate(Policy policy, const SimInput& in, const SimConfig& c) {
    return Sim(policy, in, c).run();
}

} // namespace pl::prefetchrag
