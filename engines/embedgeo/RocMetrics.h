#pragma once
/// Detection and classification metrics of the embedding-geometry panels: AUROC (ties count 1/2),
/// FPR at 95% TPR, ROC curve points, binary F1. Positives are the class the score ranks high
/// (in-distribution for OOD scores, hallucinated for APORIA). Pure functions; any thread.
/// AUROC, FPR@95 and ROC points adapt engines/core/Detection to 0/1 int labels.

#include <cstdint>
#include <vector>

namespace pl::embedgeo {

/// AUROC of \a score for positive[i] != 0 vs the rest; NaN if a class is empty. O(n log n).
double auroc(const std::vector<double>& score, const std::vector<int>& positive);

/// The false-positive rate at the highest threshold whose true-positive rate is >= 0.95
/// (score >= threshold counts as positive); NaN if a class is empty.
double fpr95(const std::vector<double>& score, const std::vector<int>& positive);

/// ROC points (fpr, tpr) from (0, 0) to (1, 1), one per distinct threshold, thinned to at most
/// \a maxPoints by even steps.
struct RocCurve {
    std::vector<double> fpr, tpr;
};
RocCurve rocCurve(const std::vector<double>& score, const std::vector<int>& positive, int maxPoints = 200);

/// F1 of class 1 of \a predicted against \a truth over the entries with mask[i] != 0 (all when
/// mask is empty); 0 when there are no true or predicted positives.
double f1Score(const std::vector<int64_t>& predicted, const std::vector<int>& truth,
               const std::vector<char>& mask = {});

} // namespace pl::embedgeo
