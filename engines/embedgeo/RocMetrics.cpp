#include "RocMetrics.h"

#include "core/Numeric.h"

#include <algorithm>
#include <numeric>

namespace pl::embedgeo {

namespace {

std::vector<size_t> descending(const std::vector<double>& score) {
    std::vector<size_t> o(score.size());
    std::iota(o.begin(), o.end(), size_t(0));
    std::stable_sort(o.begin(), o.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
    return o;
}

} // namespace

double auroc(const std::vector<double>& score, const std::vector<int>& positive) {
    const size_t n = score.size();
    std::vector<size_t> o(n);
    std::iota(o.begin(), o.end(), size_t(0));
    std::sort(o.begin(), o.end(), [&](size_t a, size_t b) { return score[a] < score[b]; });
    double rankSum = 0, nPos = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && score[o[j]] == score[o[i]])
            ++j;
        const double midRank = 0.5 * double(i + 1 + j); // average of ranks i+1 .. j
        for (size_t t = i; t < j; ++t)
            if (positive[o[t]]) {
                rankSum += midRank;
                nPos += 1;
            }
        i = j;
    }
    const double nNeg = double(n) - nPos;
    if (nPos == 0 || nNeg == 0)
        return kNaN;
    return (rankSum - nPos * (nPos + 1) / 2) / (nPos * nNeg);
}

double fpr95(const std::vector<double>& score, const std::vector<int>& positive) {
    const auto o = descending(score);
    double nPos = 0;
    for (int p : positive)
        nPos += p != 0;
    const double nNeg = double(score.size()) - nPos;
    if (nPos == 0 || nNeg == 0)
        return kNaN;
    double tp = 0, fp = 0;
    for (size_t i = 0; i < o.size();) {
        size_t j = i;
        while (j < o.size() && score[o[j]] == score[o[i]]) {
            (positive[o[j]] ? tp : fp) += 1;
            ++j;
        }
        if (tp / nPos >= 0.95)
            return fp / nNeg;
        i = j;
    }
    return 1.0;
}

RocCurve rocCurve(const std::vector<double>& score, const std::vector<int>& positive, int maxPoints) {
    const auto o = descending(score);
    double nPos = 0;
    for (int p : positive)
        nPos += p != 0;
    const double nNeg = double(score.size()) - nPos;
    RocCurve all;
    all.fpr.push_back(0);
    all.tpr.push_back(0);
    double tp = 0, fp = 0;
    for (size_t i = 0; i < o.size();) {
        size_t j = i;
        while (j < o.size() && score[o[j]] == score[o[i]]) {
            (positive[o[j]] ? tp : fp) += 1;
            ++j;
        }
        all.fpr.push_back(nNeg > 0 ? fp / nNeg : 0);
        all.tpr.push_back(nPos > 0 ? tp / nPos : 0);
        i = j;
    }
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
