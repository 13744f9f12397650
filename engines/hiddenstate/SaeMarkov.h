#pragma once
/// The first-order Markov chain of SAE feature hand-overs between layers (sae-domain-ood, spec §18),
/// fitted on in-domain train texts only: P₀(i) = (Σₓw₁ᵢ+α)/(ΣᵢΣₓw₁ᵢ+αm), P_l(j|i) =
/// (Σₓw_li·w_{l+1,j}+α)/(ΣⱼΣₓw_li·w_{l+1,j}+αm); score = (1/L)[Σᵢw₁ᵢ log P₀(i) + Σ_{l<L}Σᵢⱼ
/// w_li·w_{l+1,j} log P_l(j|i)], high = in-domain. Dense m x m counts. Also the single-layer
/// naive-Bayes baseline on k-hot codes. Plain value after fit; const methods are thread-safe.

#include "hiddenstate/SaeCodes.h"

#include <vector>

namespace pl::hiddenstate {

/// codes[l][x]: the code of text x at layer l.
using LayerCodes = std::vector<std::vector<SparseCode>>;

class MarkovTransitions {
public:
    /// Fits on the texts \a rows of \a codes; \a m latents per layer.
    void fit(const LayerCodes& codes, const std::vector<int>& rows, int m, double alpha);
    /// The score of text \a x.
    double score(const LayerCodes& codes, int x) const;
    /// log P_l(j|i), m x m, for l = 0 .. L−2.
    const Eigen::MatrixXd& logTransition(int l) const { return m_logP[size_t(l)]; }
    /// log P₀, m.
    const Eigen::VectorXd& logInitial() const { return m_logP0; }

private:
    Eigen::VectorXd m_logP0;
    std::vector<Eigen::MatrixXd> m_logP;
};

/// Bernoulli naive Bayes on the k-hot code of one layer: p_i = (c_i + α)/(n + 2α) over the train
/// rows; score(x) = Σ_i [z_i log p_i + (1 − z_i) log(1 − p_i)]. One score per text of \a codes.
std::vector<double> naiveBayesScores(const std::vector<SparseCode>& codes, const std::vector<int>& rows,
                                     int m, double alpha);

} // namespace pl::hiddenstate
