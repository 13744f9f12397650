#pragma once
/// Metrics of early-exit classifiers (eefp-early-exit panel): confidences from logits, AUROC with
/// ties counted 1/2, expected calibration error, temperature fitting, a small L2 logistic
/// regression (the EEFP exit model), threshold sweeps of an exit policy, the normalised area
/// under the accuracy-FLOPs curve and Spearman's rho. Pure functions; any thread. No Qt.
#include <Eigen/Dense>

#include <string>
#include <vector>

namespace pl::smallnets {

enum class ConfidenceKind { MaxProb, Margin, Entropy };

/// Row-wise softmax of logits / T (N x C).
Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd& logits, double temperature = 1.0);

/// Per-row confidence of probabilities: max p, p_(1) - p_(2), or 1 - H(p)/ln C.
Eigen::VectorXd confidence(const Eigen::MatrixXd& probs, ConfidenceKind kind);

/// Per-row argmax (first index on ties).
std::vector<int> argmaxRows(const Eigen::MatrixXd& m);

/// AUROC of \a score for positives vs negatives (ties count 1/2); NaN if a class is empty.
double auroc(const Eigen::VectorXd& score, const std::vector<char>& positive);

/// ECE with \a bins equal-width bins (bin of c: min(floor(c B), B - 1)):
/// sum_b |sum_{i in b} (correct_i - conf_i)| / N.
double ece(const Eigen::VectorXd& conf, const std::vector<char>& correct, int bins);

/// Reliability bins: per bin, mean confidence and accuracy (NaN for empty bins) and count.
struct Reliability {
    std::vector<double> meanConf, accuracy, count;
};
Reliability reliability(const Eigen::VectorXd& conf, const std::vector<char>& correct, int bins);

/// Mean negative log-likelihood of labels under softmax(logits / T).
double meanNll(const Eigen::MatrixXd& logits, const std::vector<int>& labels, double temperature);

/// The temperature minimising meanNll over log T in [log 0.05, log 20] (golden-section search on
/// log T to an interval of 1e-9; the end points are compared too).
double fitTemperature(const Eigen::MatrixXd& logits, const std::vector<int>& labels);

/// L2-regularised logistic regression as scikit-learn's default LogisticRegression(C = 1):
/// minimises C sum_i logloss + |w|^2 / 2 (intercept unpenalised) by Newton's method.
struct Logistic {
    Eigen::VectorXd w;
    double b = 0;
    Eigen::VectorXd predict(const Eigen::MatrixXd& X) const; ///< P(y = 1)
};
Logistic fitLogistic(const Eigen::MatrixXd& X, const std::vector<char>& y, double C = 1.0);

/// Threshold sweep of the policy "exit at the first k with score_k >= t, else the last":
/// for t_i = i / T, i = 0..T, the mean cost (cumulative FLOPs of the exit / last exit's) and the
/// accuracy. O(N K + T) (prefix maxima and difference arrays).
struct SweepCurve {
    std::vector<double> cost, accuracy;
};
SweepCurve thresholdSweep(const std::vector<Eigen::VectorXd>& score,
                          const std::vector<std::vector<char>>& correct,
                          const std::vector<double>& cumulativeFlops, int thresholds);

/// Normalised area under the best-accuracy-at-cost envelope of a curve, over cost in
/// [c0, 1] where c0 = flops_0 / flops_last; the points "all exit at 0" (c0, a0) and "all go to the
/// end" (1, a_last) are included.
double curveArea(const SweepCurve& c, double c0, double a0, double aLast);

/// Best accuracy among the curve points with cost <= budget (NaN when none).
double accuracyAtBudget(const SweepCurve& c, double budget);

/// Spearman's rho (average ranks for ties).
double spearman(const std::vector<double>& a, const std::vector<double>& b);

} // namespace pl::smallnets
