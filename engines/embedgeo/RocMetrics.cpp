#include "RocMetrics.h"

#include "core/Detection.h"
#include "core/Numeric.h"

#include <algorithm>
#include <numeric>

namespace pl::embedgeo {

namespace {

std::vector<char> asMask(const std::vector<int>& positive) {
    std::vector<char> m(positive.size());
    for (size_t i = 0; i < positive.size(); ++i)
        m[i] = positive[i] != 0;
    return m;
}

} // namespace

// AUROC, FPR@95 and the ROC points are the shared ones of engines/core/Detection.
double auroc(const std::vector<double>& score, const std::vector<int>& positive) {
    return rankAuroc(score, asMask(positive));
}

double fpr95(const std::vector<double>& score, const std::vector<int>& positive) {
    return fprAtTpr(score, asMask(positive), 0.95);
}

RocCurve rocCurve(const std::vector<double>& score, const std::vector<int>& positive, int maxPoints) {
    RocCurve all;
    rocPoints(score, asMask(positive), all.fpr, all.tpr);
    if (int(all.fpr.size()) <= maxPoints)
        return all;
    RocCurve thin;
    const double step = double(all.fpr.size() - 1) / double(maxPoints - 1);
    for (int t = 0; t < maxPoints; ++t) {
        const size_t i = std::min(all.fpr.size() - 1, size_t(t * step + 0.5));
        thin.fpr.push_back(all.fpr[i]);
        thin.tpr.push_back(all.tpr[i]);
    }
    return thin;
}

double f1Score(const std::vector<int64_t>& predicted, const std::vector<int>& truth,
               const std::vector<char>& mask) {
    double tp = 0, fp = 0, fn = 0;
    for (size_t i = 0; i < truth.size(); ++i) {
        if (!mask.empty() && !mask[i])
            continue;
        const bool p = predicted[i] == 1, t = truth[i] == 1;
        tp += p && t;
        fp += p && !t;
        fn += !p && t;
    }
    return tp > 0 ? 2 * tp / (2 * tp + fp + fn) : 0.0;
}

} // namespace pl::embedgeo
