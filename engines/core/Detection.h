#pragma once
/// Threshold-free detection metrics shared by the panels that score detectors: AUROC (ties count
/// 1/2), average precision (AUPR, as sklearn's average_precision_score), FPR at 95 % TPR and the ROC
/// points. "Positive" is the class a high score should indicate (real object, in-domain text).
/// Pure functions; any thread.

#include <vector>

namespace pl {

/// AUROC of \a score for positives vs negatives (ties count 1/2); NaN if a class is empty.
double rankAuroc(const std::vector<double>& score, const std::vector<char>& positive);

/// Average precision Σ_n (R_n − R_{n−1}) P_n over the distinct thresholds, descending (sklearn's
/// average_precision_score); NaN without positives.
double averagePrecision(const std::vector<double>& score, const std::vector<char>& positive);

/// False-positive rate at the first (highest) threshold whose TPR reaches \a tpr (0.95 for
/// FPR@95), thresholds taken at the distinct scores; NaN if a class is empty.
double fprAtTpr(const std::vector<double>& score, const std::vector<char>& positive, double tpr = 0.95);

/// ROC points (FPR, TPR) from (0, 0) through every distinct threshold, descending, to (1, 1).
void rocPoints(const std::vector<double>& score, const std::vector<char>& positive, std::vector<double>& fpr,
               std::vector<double>& tprOut);

} // namespace pl
