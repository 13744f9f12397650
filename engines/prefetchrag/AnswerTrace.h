#pragma once
/// What the generator side knows along one written answer: token ids of the tinylm mlp_lm trained on
/// the writer's text, its hidden state and next-token entropy after every token, the query
/// generator's query (IDF x cue weight over the last W tokens) with its BM25 top-k, and the context
/// monitor's domain posterior. Built once per answer and shared by every policy. Plain data.
#include "prefetchrag/Bm25.h"
#include "prefetchrag/ContextMonitor.h"
#include "prefetchrag/TemplateWriter.h"
#include "tinylm/TinyModel.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace pl::prefetchrag {

/// The mlp_lm vocabulary: id 0 is the padding, then every word the writer can emit.
struct LmVocab {
    std::vector<std::string> words;
    std::unordered_map<std::string, int> ids;
    int of(const std::string& w) const;
};
LmVocab vocabOf(const RagWorld& w);

/// Terms ranked by idf x cue weight (entity words 3, attribute words 2, others 1) x recency (4 for
/// words after the window's last sentence end) over the last `window` words; the best `terms` of
/// them (ties by term) form the query.
class QueryGenerator {
public:
    QueryGenerator(const Bm25Index& index, const RagWorld& w, int window, int terms);
    std::vector<std::string> query(const std::vector<std::string>& words, int end) const;

private:
    const Bm25Index& m_index;
    std::unordered_map<std::string, double> m_cue;
    int m_window, m_terms;
};

struct AnswerTrace {
    Answer answer;
    std::vector<int> ids;
    tinylm::Mat hidden;                              ///< n x h: mlp_lm state after token t
    std::vector<double> entropy;                     ///< n: entropy of the next token after t (nats)
    std::vector<std::vector<int>> queryDocs;         ///< n: BM25 top-k of the generated query at t
    std::vector<int> queryKey;                       ///< n: id of the query's term set (-1: empty)
    std::vector<std::vector<double>> posterior;      ///< n: domain posterior of the last W tokens
    std::vector<std::vector<double>> queryPosterior; ///< n: domain posterior of the query's terms
    std::vector<double> sinceEntity;                 ///< n: tokens since the last entity word (capped 16)
    std::vector<double> cue;                         ///< n: 1 when an attribute word came after the last slot
};

/// Builds the trace of \a a; \a keys maps query term sets to ids (grows; call sequentially).
AnswerTrace traceAnswer(Answer a, const tinylm::MlpLmModel& lm, const LmVocab& vocab, const RagWorld& w,
                        const QueryGenerator& qg, const Bm25Index& index, const DomainMonitor& mon, int topk,
                        std::map<std::string, int>& keys);

/// The LM's training sequences of \a answers (token ids).
std::vector<std::vector<int>> lmSequences(const std::vector<Answer>& answers, const LmVocab& vocab);

} // namespace pl::prefetchrag
