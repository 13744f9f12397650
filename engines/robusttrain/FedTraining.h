#pragma once
/// Local training and aggregation of the fedgr-noisy-labels panel (spec §3, FedGR partly our
/// reconstruction): one client's Adam epochs on the paperlab_nn tape with optional FedProx term,
/// EMA-teacher distillation and the global representation regulariser; sample-size weighted
/// averaging (FedAvg); the memorisation rate. Pure; deterministic in the Rng given; any thread.
#include "robusttrain/FederatedData.h"
#include "robusttrain/Mlp.h"

#include <functional>

namespace pl::robusttrain {

/// One client's local objective: (1/sum w) sum_i w_i CE(f(x_i), y_i) + (prox/2) ||theta - w_g||^2
/// + kdWeight T^2 mean_i KL(softmax(f_T(x_i)/T) || softmax(f(x_i)/T)) + repWeight mean_i
/// ||phi(x_i; theta) - phi(x_i; w_g)||^2 (phi = the last hidden layer).
struct LocalConfig {
    int epochs = 2, batch = 32;
    double lr = 0.01;
    double proxMu = 0;
    double kdWeight = 0, kdTemperature = 2;
    double repWeight = 0;
    double emaMomentum = 0.99; ///< teacher <- m teacher + (1 - m) theta after every step
};

/// Labels and cross-entropy weights of a client's rows (weight 0: dropped from the CE term, still
/// distilled and regularised).
struct LocalTargets {
    std::vector<int> y;
    std::vector<double> weight;
};

/// Trains \a net (starting as a copy of \a global; Adam restarted) on the rows \a X with targets
/// \a t. \a teacher (may be null) is distilled from and updated as an EMA. \a poll may throw.
void localTrain(Mlp& net, const Eigen::MatrixXd& X, const LocalTargets& t, const LocalConfig& c,
                const Mlp& global, Mlp* teacher, Rng& rng, const std::function<void()>& poll);

/// sum_k w_k M_k / sum_k w_k, layer by layer (weights and biases); clients of weight 0 are skipped.
Mlp averageModels(const std::vector<Mlp>& models, const std::vector<double>& weights);

/// teacher <- beta global + (1 - beta) teacher (the global revision of the EMA teacher).
void blendInto(Mlp& teacher, const Mlp& global, double beta);

/// Fraction of training rows whose observed label is wrong on which argmax f equals the observed
/// label; NaN when no row is noisy.
double memorisationRate(const Mlp& net, const Federation& f);

/// Row-wise softmax cross-entropy of \a logits against \a y.
std::vector<double> crossEntropyRows(const Eigen::MatrixXd& logits, const std::vector<int>& y);

/// Rows \a idx of \a X.
Eigen::MatrixXd rowsOf(const Eigen::MatrixXd& X, const std::vector<int>& idx);

} // namespace pl::robusttrain
