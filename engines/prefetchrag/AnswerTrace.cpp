#include "AnswerTrace.h"

#include "tinylm/MlpLm.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace pl::prefetchrag {

int LmVocab::of(const std::string& w) const {
    const auto it = ids.find(w);
    return it == ids.end() ? 0 : it->second;
}

LmVocab vocabOf(const RagWorld& w) {
    LmVocab v;
    auto add = [&](const std::string& s) {
        if (v.ids.emplace(s, int(v.words.size())).second)
            v.words.push_back(s);
    };
    add("<pad>");
    add("is");
    add(".");
    for (const auto& f : fillerWords())
        add(f);
    for (const RagFact& f : w.facts) {
        for (const auto& t : f.entity)
            add(t);
        for (const auto& t : f.attribute)
            add(t);
        add(f.value);
    }
    for (const auto& d : w.values)
        for (const auto& s : d)
            add(s);
    return v;
}

QueryGenerator::QueryGenerator(const Bm25Index& index, const RagWorld& w, int window, int terms)
    : m_index(index), m_window(window), m_terms(terms) {
    for (const RagFact& f : w.facts) {
        for (const auto& t : f.attribute)
            m_cue.emplace(t, 2.0);
        for (const auto& t : f.entity)
            m_cue[t] = 3.0;
    }
}

std::vector<std::string> QueryGenerator::query(const std::vector<std::string>& words, int end) const {
    std::map<std::string, double> best;
    const int from = std::max(0, end - m_window + 1);
    int sentence = from; // words after the last sentence end weigh 4x (the current sentence)
    for (int i = from; i <= end && i < int(words.size()); ++i)
        if (words[size_t(i)] == ".")
            sentence = i + 1;
    for (int i = from; i <= end && i < int(words.size()); ++i)
        for (const auto& t : bm25Tokens(words[size_t(i)])) {
            const auto c = m_cue.find(t);
            const double wgt =
                m_index.idf(t) * (c == m_cue.end() ? 1.0 : c->second) * (i >= sentence ? 4.0 : 1.0);
            double& b = best[t];
            b = std::max(b, wgt);
        }
    std::vector<std::pair<double, std::string>> ranked;
    for (const auto& [t, wgt] : best)
        ranked.push_back({-wgt, t});
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> q;
    for (size_t i = 0; i < ranked.size() && int(i) < m_terms; ++i)
        q.push_back(ranked[i].second);
    return q;
}

std::vector<std::vector<int>> lmSequences(const std::vector<Answer>& answers, const LmVocab& vocab) {
    std::vector<std::vector<int>> out;
    for (const Answer& a : answers) {
        std::vector<int> s;
        for (const auto& w : a.words)
            s.push_back(vocab.of(w));
        out.push_back(std::move(s));
    }
    return out;
}

AnswerTrace traceAnswer(Answer a, const tinylm::MlpLmModel& lm, const LmVocab& vocab, const RagWorld& w,
                        const QueryGenerator& qg, const Bm25Index& index, const DomainMonitor& mon, int topk,
                        std::map<std::string, int>& keys) {
    AnswerTrace tr;
    const int n = int(a.words.size());
    for (const auto& x : a.words)
        tr.ids.push_back(vocab.of(x));
    std::vector<std::vector<int>> ctx;
    for (int t = 0; t < n; ++t)
        ctx.push_back(tinylm::mlpContext(lm, tr.ids, t + 1));
    const tinylm::MlpOutput o = tinylm::mlpForward(lm, ctx);
    tr.hidden = o.hidden;
    std::set<std::string> entityWords, attrWords;
    for (const RagFact& f : w.facts) {
        entityWords.insert(f.entity.begin(), f.entity.end());
        attrWords.insert(f.attribute.begin(), f.attribute.end());
    }
    double since = 16, cue = 0;
    for (int t = 0; t < n; ++t) {
        const auto row = o.logits.row(t);
        const double mx = row.maxCoeff();
        const Eigen::RowVectorXd e = (row.array() - mx).exp();
        const double z = e.sum();
        double h = 0;
        for (Eigen::Index j = 0; j < e.size(); ++j)
            if (e(j) > 0)
                h -= e(j) / z * std::log(e(j) / z);
        tr.entropy.push_back(h);
        const std::string& word = a.words[size_t(t)];
        since = entityWords.count(word) ? 0 : std::min(16.0, since + 1);
        if (a.slotFact[size_t(t)] >= 0)
            cue = 0;
        else if (attrWords.count(word))
            cue = 1;
        tr.sinceEntity.push_back(since);
        tr.cue.push_back(cue);
        const std::vector<std::string> q = qg.query(a.words, t);
        std::vector<int> docs;
        for (const Bm25Hit& hit : index.topK(q, topk))
            docs.push_back(hit.doc);
        tr.queryDocs.push_back(std::move(docs));
        std::vector<std::string> sorted = q;
        std::sort(sorted.begin(), sorted.end());
        std::string key;
        for (const auto& s : sorted)
            key += s + " ";
        tr.queryKey.push_back(q.empty() ? -1 : keys.emplace(key, int(keys.size())).first->second);
        tr.posterior.push_back(mon.posterior(a.words, t));
        tr.queryPosterior.push_back(mon.posterior(q, int(q.size()) - 1));
    }
    tr.answer = std::move(a);
    return tr;
}

} // namespace pl::prefetchrag
