#pragma once
/// A small student on the paperlab_nn tape: backbone g(x) = relu(relu(x W1 + b1) W2 + b2), a class
/// head W (logits g Wc + bc) and an optional question head H (g Wq + bq, one block of O option
/// scores per question). Trained with Adam on minibatches by
///   L = gamma * CE(W g, y) + beta * signature(H g, t_y) + kd * T^2 * CE(softmax(z_T / T), softmax(W g / T)),
/// where signature is the mean squared error over the Q*O entries (LaViD's MSE) or the mean over
/// questions of the cross-entropy of softmax(t_{y,q}) against softmax((H g)_q) (KL up to a
/// constant). Evaluated with plain Eigen. Not thread-safe per instance.
#include "core/Rng.h"
#include "nn/Parameter.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::distill {

enum class SignatureLoss { Mse, Kl };

/// What a student is trained with. Empty signatures / teacherLogits switch those terms off.
struct StudentTraining {
    int epochs = 40;
    int batch = 32;
    double lr = 3e-3;
    double gamma = 1.0; ///< weight of the class cross-entropy
    double beta = 1.0;  ///< weight of the signature term
    SignatureLoss loss = SignatureLoss::Mse;
    int options = 1;               ///< O (block width of the question head)
    Eigen::MatrixXd signatures;    ///< classes x (Q*O) targets t_c; empty: no question head term
    Eigen::MatrixXd teacherLogits; ///< rows x classes of a vision teacher; empty: no KD term
    double kdWeight = 1.0;
    double kdTemperature = 4.0;
};

class Student {
public:
    /// Glorot-initialised student: inputs -> hidden -> features, \a classes logits, \a questionOutputs
    /// (Q*O, 0 for none) question-head outputs. Draws from \a rng.
    Student(int inputs, int hidden, int features, int classes, int questionOutputs, Rng& rng);

    /// Trains on rows of \a X with labels \a y (0-based). \a poll is called after every minibatch
    /// with the fraction done (it may throw to cancel). Returns the mean loss per epoch.
    std::vector<double> train(const Eigen::MatrixXd& X, const std::vector<int>& y, const StudentTraining& t,
                              Rng& rng, const std::function<void(double)>& poll);

    Eigen::MatrixXd features(const Eigen::MatrixXd& X) const;       ///< g(X), rows x features
    Eigen::MatrixXd logits(const Eigen::MatrixXd& X) const;         ///< rows x classes
    Eigen::MatrixXd questionScores(const Eigen::MatrixXd& X) const; ///< rows x (Q*O)
    std::vector<int> predict(const Eigen::MatrixXd& X) const; ///< argmax of logits (lowest index on ties)
    int classes() const { return int(m_wc.value.cols()); }
    /// The parameters' values: W1, b1, W2, b2, Wc, bc, Wq, bq (for oracles and exports).
    std::vector<Eigen::MatrixXd> weights() const;

private:
    std::vector<nn::Parameter*> params();
    nn::Parameter m_w1, m_b1, m_w2, m_b2, m_wc, m_bc, m_wq, m_bq;
};

/// Argmax per row (lowest index on ties).
std::vector<int> argmaxRows(const Eigen::MatrixXd& M);
/// Fraction of equal entries.
double accuracyOf(const std::vector<int>& pred, const std::vector<int>& truth);

} // namespace pl::distill
