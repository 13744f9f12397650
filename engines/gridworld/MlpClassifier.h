#pragma once
/// A small multilayer perceptron classifier (ReLU hidden layers, softmax output) trained by
/// minibatch cross-entropy with Adam on the paperlab_nn tape; plain-Eigen inference for rollouts.
/// Deterministic in (data, sizes, seed). Not thread-safe; one object per thread. No Qt.

#include "core/RunContext.h"
#include "nn/Parameter.h"

#include <Eigen/Core>
#include <functional>
#include <vector>

namespace pl::gridworld {

/// Training settings of MlpClassifier::fit.
struct FitOptions {
    int iterations = 300; ///< Adam steps
    int batch = 128;      ///< samples per step (drawn with replacement)
    double learningRate = 3e-3;
    int lossEvery = 10; ///< record the minibatch loss every this many steps
};

class MlpClassifier {
public:
    /// in -> hidden (ReLU) -> hidden (ReLU) -> classes; Glorot weights from \a rng, zero biases.
    MlpClassifier(int in, int hidden, int classes, Rng& rng);

    /// Fits rows of \a x (n x in) to labels \a y (n, in [0, classes)); returns (step, mean loss)
    /// pairs every options.lossEvery steps. Checks ctx.throwIfCancelled() every step.
    std::vector<std::pair<int, double>> fit(const Eigen::MatrixXd& x, const std::vector<int>& y,
                                            const FitOptions& options, Rng& rng, RunContext& ctx);
    /// The same with rows made on demand: row(i, out) writes input row i (length inputs()) into out.
    using RowFn = std::function<void(int, Eigen::RowVectorXd&)>;
    std::vector<std::pair<int, double>> fit(int rows, const RowFn& row, const std::vector<int>& y,
                                            const FitOptions& options, Rng& rng, RunContext& ctx);

    /// Logits of one input row (no tape).
    Eigen::VectorXd logits(const Eigen::VectorXd& x) const;
    /// Mean cross-entropy over all rows of \a x (no tape).
    double loss(const Eigen::MatrixXd& x, const std::vector<int>& y) const;

    int inputs() const { return int(m_w1.value.rows()); }
    int classes() const { return int(m_w3.value.cols()); }

private:
    nn::Parameter m_w1, m_b1, m_w2, m_b2, m_w3, m_b3;
};

} // namespace pl::gridworld
