#pragma once
/// The quadratic one-hidden-layer network of the continual-forgetting panel and its sequential
/// full-batch gradient descent: f(x) = sum_j a_j (w_j^T x)^2 = x^T Q x, Q = W^T diag(a) W, with
/// fixed a_j = +1/m (even j) and -1/m (odd j, 0-based); gradients from the paperlab_nn tape.
/// No Qt; all state in arguments.
#include "smallnets/TaskData.h"

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace pl::smallnets {

enum class MarginLoss { Logistic, Exponential };

/// a_j = +1/m for even j, -1/m for odd j (m = width).
Eigen::VectorXd quadSigns(int width);

/// Mean loss l(y f(x)) of W on a batch (l = log(1 + e^-z) or e^-z). Forward only.
double quadLoss(const Eigen::MatrixXd& W, const Eigen::VectorXd& a, const TaskBatch& b, MarginLoss loss);

/// Mean loss and its gradient with respect to W (m x d), through the tape.
double quadLossGrad(const Eigen::MatrixXd& W, const Eigen::VectorXd& a, const TaskBatch& b, MarginLoss loss,
                    Eigen::MatrixXd& grad);

/// Q = W^T diag(a) W (d x d).
Eigen::MatrixXd quadQ(const Eigen::MatrixXd& W, const Eigen::VectorXd& a);

struct GdSettings {
    double eta = 0.5;       ///< step size
    int iters = 300;        ///< GD steps per task
    int curvePoints = 0;    ///< loss curve samples per task (0 = no curves)
    double snapshotAt = -1; ///< fraction of all steps at which Q is kept (< 0: none)
};

/// Everything one sequential run produces.
struct SequentialRun {
    Eigen::MatrixXd wInit, wFinal;
    Eigen::MatrixXd trainLoss, testLoss;        ///< K x K: row j = after task j, column i = task i
    std::vector<double> curveStep;              ///< global GD step of each curve sample
    std::vector<std::vector<double>> curveLoss; ///< per task: train loss at each curve sample
    Eigen::MatrixXd qSnapshot;                  ///< Q at snapshotAt (empty when not asked)
};

/// Trains W from \a wInit on train.tasks in order (settings.iters GD steps each) and fills the
/// loss matrices on \a train and \a test (same task count). \a poll is called about every
/// 10 steps with the fraction done (it may throw to cancel).
SequentialRun trainSequential(const TaskSet& train, const TaskSet& test, const Eigen::MatrixXd& wInit,
                              MarginLoss loss, const GdSettings& s, const std::function<void(double)>& poll);

/// F_i = L[K][i] - L[i][i] for every task i (the last entry is 0).
Eigen::VectorXd forgetting(const Eigen::MatrixXd& lossMatrix);

/// Mean of F_i over the first K - 1 tasks.
double meanForgetting(const Eigen::MatrixXd& lossMatrix);

} // namespace pl::smallnets
