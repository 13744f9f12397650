#pragma once
/// Baselines of the sae-domain-ood panel on one layer's raw activations (Mahalanobis distance to
/// the in-domain train Gaussian, kNN distance to in-domain train texts) and the GRU backend over
/// the layer sequence of SAE weight vectors. Scores are high = in-domain. Pure (the GRU is
/// deterministic in its Rng); any thread.

#include "core/Rng.h"
#include "hiddenstate/SaeMarkov.h"

#include <functional>

namespace pl::hiddenstate {

/// −(a − μ)ᵀ(Σ + 1e-6·tr(Σ)/d·I)⁻¹(a − μ) for every row of \a A, μ, Σ from the rows \a train.
std::vector<double> mahalanobisScores(const Eigen::MatrixXd& A, const std::vector<int>& train);

/// −(Euclidean distance to the \a k-th nearest train row) for each row of \a A listed in
/// \a query (NaN elsewhere); a query that is itself a train row skips itself.
std::vector<double> knnScores(const Eigen::MatrixXd& A, const std::vector<int>& train,
                              const std::vector<int>& query, int k);

struct GruConfig {
    int hidden = 32, steps = 150, batch = 64;
    double lr = 1e-2;
};

/// GRU over the layers: input the dense weight vector of layer l, predicts the weights of layer
/// l + 1 (softmax over m, soft cross-entropy), the first layer from the initial state. Trained on
/// \a train with Adam; score = −mean soft cross-entropy per text (all texts of \a codes).
std::vector<double> gruScores(const LayerCodes& codes, const std::vector<int>& train, int m,
                              const GruConfig& c, Rng rng, const std::function<void()>& poll);

} // namespace pl::hiddenstate
