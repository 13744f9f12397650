#pragma once
/// The retrieval predictor of PrefetchRAG: logistic regression on the mlp_lm hidden state plus
/// scalar features (next-token entropy, its slope, tokens since the last entity word, an
/// attribute-cue indicator, whether the generated query's best document is already in context),
/// trained with Adam (L2 1e-3) on y_t = 1[a slot whose document is missing lies in [t+a, t+b]].
/// Features are standardised with the training means and deviations. Immutable once trained.
#include "core/Rng.h"
#include "prefetchrag/AnswerTrace.h"

#include <Eigen/Core>
#include <functional>
#include <vector>

namespace pl::prefetchrag {

/// y_t for one answer, given the documents in context (fixed; the training view).
std::vector<int> horizonLabels(const AnswerTrace& tr, const RagWorld& w, const std::vector<int>& context,
                               int a, int b);

class RetrievalPredictor {
public:
    /// Trains on \a traces with \a contexts[i] the documents in context for traces[i].
    static RetrievalPredictor train(const std::vector<AnswerTrace>& traces,
                                    const std::vector<std::vector<int>>& contexts, const RagWorld& w, int a,
                                    int b, int iterations, const std::function<void(double)>& tick);
    /// The logit at position t with the covered feature at 0.
    double baseLogit(const AnswerTrace& tr, int t) const;
    /// The logit change when the covered feature is 1.
    double coveredWeight() const;
    /// Probability at t given whether the query's best document is in context.
    double probability(const AnswerTrace& tr, int t, bool covered) const;
    double trainLoss() const { return m_loss; }

private:
    Eigen::VectorXd features(const AnswerTrace& tr, int t, bool covered) const;
    Eigen::VectorXd m_w, m_mean, m_sd;
    double m_bias = 0, m_loss = 0;
};

} // namespace pl::prefetchrag
