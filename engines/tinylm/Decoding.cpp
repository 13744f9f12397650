#include "Decoding.h"

#include "TransformerForward.h"
#include "core/Rng.h"

#include <algorithm>
#include <deque>
#include <map>

namespace pl::tinylm {

namespace {

void poll(const DecodeConfig& c) {
    if (c.tick && *c.tick)
        (*c.tick)();
}

int viewKeys(int len, int budget) {
    return budget > 0 ? std::min(len, budget) : len;
}

/// Greedy tokens of a verification chain: row0 predicts y1; chain row i (token c_i) predicts y_{i+1}.
/// Returns how many of the chain's tokens equal the greedy ones.
int matchChain(const BatchOutput& o, const std::vector<int>& chainTokens, const std::vector<int>& chainRows,
               std::vector<int>& ys) {
    ys.assign(1, argmaxRow(o.logits, 0));
    int m = 0;
    for (size_t i = 0; i < chainTokens.size(); ++i) {
        if (chainTokens[i] != ys.back())
            break;
        ++m;
        ys.push_back(argmaxRow(o.logits, chainRows[i]));
    }
    return m;
}

} // namespace

Prefill prefillPrompt(const TransformerModel& m, const std::vector<int>& prompt, int capacity) {
    Prefill p;
    p.cache = KvCache(int(m.layers.size()), m.dModel(), capacity);
    p.scores = H2oView(int(m.layers.size()), m.nHeads, 0, 0);
    std::vector<RowSpec> rows;
    for (size_t i = 0; i + 1 < prompt.size(); ++i) {
        RowSpec r;
        r.token = prompt[i];
        r.pos = int(i);
        for (size_t j = 0; j < i; ++j)
            r.batchKeys.push_back(int(j));
        rows.push_back(std::move(r));
    }
    p.current = prompt.back();
    if (rows.empty())
        return p;
    ForwardOptions opt;
    opt.observer = &p.scores;
    opt.observeRows.assign(rows.size(), 1);
    const BatchOutput o = forwardBatch(m, p.cache, rows, opt);
    for (size_t i = 0; i < rows.size(); ++i)
        commitRow(p.cache, o, int(i));
    p.scores.grow(p.cache.length());
    return p;
}

DecodeStats decodeGreedy(const TransformerModel& m, const Prefill& p, const DecodeConfig& c, KvView* view,
                         int budget) {
    DecodeStats s;
    KvCache cache = p.cache;
    int cur = p.current;
    ForwardOptions opt;
    opt.observer = view;
    opt.observeRows = {1};
    while (int(s.tokens.size()) < c.gen) {
        poll(c);
        RowSpec r;
        r.token = cur;
        r.pos = cache.length();
        r.view = view;
        const BatchOutput o = forwardBatch(m, cache, {r}, opt);
        s.cost += 1 + c.kvCost * (viewKeys(cache.length(), view ? budget : 0) + 1) / 1000.0;
        ++s.forwards;
        commitRow(cache, o, 0);
        if (view)
            view->grow(cache.length());
        cur = argmaxRow(o.logits, 0);
        s.tokens.push_back(cur);
        s.source.push_back(0);
        s.acceptLens.push_back(1);
    }
    return s;
}

namespace {

/// The n-gram pool: continuations (N-1 tokens) keyed by their first token, newest first.
class NgramPool {
public:
    explicit NgramPool(int cap) : m_cap(cap) {}
    void add(int key, std::vector<int> cont) {
        auto& l = m_map[key];
        const auto it = std::find(l.begin(), l.end(), cont);
        if (it != l.end())
            l.erase(it);
        l.push_front(std::move(cont));
        if (int(l.size()) > m_cap)
            l.pop_back();
    }
    const std::deque<std::vector<int>>* find(int key) const {
        const auto it = m_map.find(key);
        return it == m_map.end() ? nullptr : &it->second;
    }

private:
    int m_cap;
    std::map<int, std::deque<std::vector<int>>> m_map;
};

} // namespace

DecodeStats decodeLookahead(const TransformerModel& m, const Prefill& p, const std::vector<int>& prompt,
                            const DecodeConfig& c, const LookaheadConfig& la) {
    DecodeStats s;
    KvCache cache = p.cache;
    int cur = p.current;
    const int W = la.window, N = la.ngram, P = m.maxPositions();
    Rng rng(la.seed);
    std::vector<int> window(static_cast<size_t>(W));
    for (int& w : window)
        w = prompt[size_t(rng.uniformInt(prompt.size()))];
    std::deque<std::vector<int>> hist; // the last N-1 windows fed, oldest first
    NgramPool pool(la.pool);
    ForwardOptions opt;
    opt.observer = la.view;
    std::vector<int> ys, bestYs;
    for (int step = 0; int(s.tokens.size()) < c.gen; ++step) {
        poll(c);
        const int len = cache.length();
        std::vector<RowSpec> rows(1);
        rows[0].token = cur;
        rows[0].pos = len;
        std::vector<std::vector<int>> candTok, candRows;
        if (const auto* cands = pool.find(cur))
            for (const auto& cont : *cands) {
                std::vector<int> idx;
                for (size_t i = 0; i < cont.size() && len + 1 + int(i) < P; ++i) {
                    RowSpec r;
                    r.token = cont[i];
                    r.pos = len + 1 + int(i);
                    r.batchKeys.push_back(0);
                    r.batchKeys.insert(r.batchKeys.end(), idx.begin(), idx.end());
                    idx.push_back(int(rows.size()));
                    rows.push_back(std::move(r));
                }
                candTok.emplace_back(cont.begin(), cont.begin() + std::ptrdiff_t(idx.size()));
                candRows.push_back(std::move(idx));
            }
        const int firstLook = int(rows.size());
        for (int k = 0; k < W && len + 1 + k < P; ++k) {
            RowSpec r;
            r.token = window[size_t(k)];
            r.pos = len + 1 + k;
            r.view = la.view;
            r.batchKeys.push_back(0);
            for (int j = 0; j < k; ++j)
                r.batchKeys.push_back(firstLook + j);
            rows.push_back(std::move(r));
        }
        const int nLook = int(rows.size()) - firstLook;
        opt.observeRows.assign(rows.size(), 0);
        opt.observeRows[0] = 1;
        std::vector<std::vector<int>> mask;
        opt.maskOut = la.recordStep >= 0 && step >= la.recordStep && s.mask.empty() && !candTok.empty()
                          ? &mask
                          : nullptr;
        opt.maskLayer = int(m.layers.size()) - 1;
        const BatchOutput o = forwardBatch(m, cache, rows, opt);
        double keys = 0;
        for (size_t r = 0; r < rows.size(); ++r)
            keys += (rows[r].view ? viewKeys(len, la.budget) : len) + double(rows[r].batchKeys.size()) + 1;
        s.cost += 1 + c.kvCost * keys / 1000.0;
        ++s.forwards;
        if (opt.maskOut) {
            s.mask = mask;
            s.maskCacheLength = len;
            s.maskRowKind.assign(rows.size(), 1);
            s.maskRowKind[0] = 0;
            for (int r = firstLook; r < int(rows.size()); ++r)
                s.maskRowKind[size_t(r)] = 2;
        }
        // Verification: the longest chain that agrees with the greedy tokens.
        int best = -1, bestM = 0;
        bestYs.assign(1, argmaxRow(o.logits, 0));
        for (size_t g = 0; g < candTok.size(); ++g) {
            const int mm = matchChain(o, candTok[g], candRows[g], ys);
            if (mm > bestM) {
                bestM = mm;
                best = int(g);
                bestYs = ys;
            }
        }
        commitRow(cache, o, 0);
        for (int i = 0; i < bestM; ++i)
            commitRow(cache, o, candRows[size_t(best)][size_t(i)]);
        if (la.view)
            la.view->grow(cache.length());
        int taken = 0;
        for (size_t i = 0; i < bestYs.size() && int(s.tokens.size()) < c.gen; ++i, ++taken) {
            s.tokens.push_back(bestYs[i]);
            s.source.push_back(int(i) < bestM ? 1 : 0);
        }
        s.acceptLens.push_back(taken);
        cur = bestYs.back();
        // Lookahead: new window = the predictions; n-grams from the columns of the last N-1 windows.
        std::vector<int> preds(window);
        for (int k = 0; k < nLook; ++k)
            preds[size_t(k)] = argmaxRow(o.logits, firstLook + k);
        hist.push_back(window);
        if (int(hist.size()) > N - 1)
            hist.pop_front();
        if (int(hist.size()) == N - 1)
            for (int k = 0; k < nLook; ++k) {
                std::vector<int> cont;
                for (size_t h = 1; h < hist.size(); ++h)
                    cont.push_back(hist[h][size_t(k)]);
                cont.push_back(preds[size_t(k)]);
                pool.add(hist[0][size_t(k)], std::move(cont));
            }
        window = preds;
    }
    return s;
}

DecodeStats decodeSelfSpeculative(const TransformerModel& m, const Prefill& p, const DecodeConfig& c,
                                  int gamma, int draftLayers) {
    DecodeStats s;
    KvCache cache = p.cache;
    int cur = p.current;
    const int L = int(m.layers.size()), P = m.maxPositions();
    ForwardOptions draft;
    draft.skipAttention.assign(size_t(L), 0);
    int subTotal = 0, subRun = 0;
    for (int l = 0; l < L; ++l) {
        draft.skipAttention[size_t(l)] = l >= draftLayers ? 1 : 0;
        subTotal += 1 + (m.layers[size_t(l)].hasMlp ? 1 : 0);
        subRun += (l >= draftLayers ? 0 : 1) + (m.layers[size_t(l)].hasMlp ? 1 : 0);
    }
    const double share = double(subRun) / double(std::max(1, subTotal));
    std::vector<int> ys;
    while (int(s.tokens.size()) < c.gen) {
        poll(c);
        const int len = cache.length();
        std::vector<int> drafts;
        int tok = cur;
        for (int i = 0; i < gamma && len + 1 + i < P; ++i) {
            RowSpec r;
            r.token = tok;
            r.pos = len + i;
            const BatchOutput o = forwardBatch(m, cache, {r}, draft);
            s.cost += share * (1 + c.kvCost * (cache.length() + 1) / 1000.0);
            ++s.draftForwards;
            commitRow(cache, o, 0);
            tok = argmaxRow(o.logits, 0);
            drafts.push_back(tok);
        }
        cache.truncate(len);
        std::vector<RowSpec> rows(1);
        rows[0].token = cur;
        rows[0].pos = len;
        std::vector<int> chainRows;
        for (size_t i = 0; i < drafts.size(); ++i) {
            RowSpec r;
            r.token = drafts[i];
            r.pos = len + 1 + int(i);
            for (size_t j = 0; j <= i; ++j)
                r.batchKeys.push_back(int(j));
            chainRows.push_back(int(rows.size()));
            rows.push_back(std::move(r));
        }
        const BatchOutput o = forwardBatch(m, cache, rows);
        double keys = 0;
        for (const RowSpec& r : rows)
            keys += len + double(r.batchKeys.size()) + 1;
        s.cost += 1 + c.kvCost * keys / 1000.0;
        ++s.forwards;
        const int mm = matchChain(o, drafts, chainRows, ys);
        commitRow(cache, o, 0);
        for (int i = 0; i < mm; ++i)
            commitRow(cache, o, chainRows[size_t(i)]);
        int taken = 0;
        for (size_t i = 0; i < ys.size() && int(s.tokens.size()) < c.gen; ++i, ++taken) {
            s.tokens.push_back(ys[i]);
            s.source.push_back(int(i) < mm ? 1 : 0);
        }
        s.acceptLens.push_back(taken);
        cur = ys.back();
    }
    return s;
}

} // namespace pl::tinylm
