#include "Detection.h"

#include "Numeric.h"

#include <algorithm>
#include <numeric>

namespace pl {

namespace {

/// Indices sorted by descending score (stable: equal scores keep input order).
std::vector<size_t> descending(const std::vector<double>& s) {
    std::vector<size_t> idx(s.size());
    std::iota(idx.begin(), idx.end(), size_t(0));
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return s[a] > s[b]; });
    return idx;
}

/// Cumulative (true positives, false positives) at the end of each tie group, descending.
void cumulative(const std::vector<double>& s, const std::vector<char>& pos, std::vector<double>& tp,
                std::vector<double>& fp) {
    const std::vector<size_t> idx = descending(s);
    double t = 0, f = 0;
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j < idx.size() && s[idx[j]] == s[idx[i]]) {
            (pos[idx[j]] ? t : f) += 1;
            ++j;
        }
        tp.push_back(t);
        fp.push_back(f);
        i = j;
    }
}

} // namespace

double rankAuroc(const std::vector<double>& score, const std::vector<char>& pos) {
    const size_t n = score.size();
    std::vector<size_t> idx(n);
    std::iota(idx.begin(), idx.end(), size_t(0));
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return score[a] < score[b]; });
    double rankSum = 0, nPos = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && score[idx[j]] == score[idx[i]])
            ++j;
        const double mid = 0.5 * double(i + 1 + j); // average 1-based rank of the tie group
        for (size_t k = i; k < j; ++k)
            if (pos[idx[k]]) {
                rankSum += mid;
                nPos += 1;
            }
        i = j;
    }
    const double nNeg = double(n) - nPos;
    if (nPos == 0 || nNeg == 0)
        return kNaN;
    return (rankSum - nPos * (nPos + 1) / 2) / (nPos * nNeg);
}

double averagePrecision(const std::vector<double>& score, const std::vector<char>& pos) {
    std::vector<double> tp, fp;
    cumulative(score, pos, tp, fp);
    const double P = tp.empty() ? 0 : tp.back();
    if (P == 0)
        return kNaN;
    double ap = 0, prevRecall = 0;
    for (size_t g = 0; g < tp.size(); ++g) {
        const double recall = tp[g] / P, precision = tp[g] / (tp[g] + fp[g]);
        ap += (recall - prevRecall) * precision;
        prevRecall = recall;
    }
    return ap;
}

double fprAtTpr(const std::vector<double>& score, const std::vector<char>& pos, double tpr) {
    std::vector<double> tp, fp;
    cumulative(score, pos, tp, fp);
    const double P = tp.empty() ? 0 : tp.back(), N = fp.empty() ? 0 : fp.back();
    if (P == 0 || N == 0)
        return kNaN;
    for (size_t g = 0; g < tp.size(); ++g)
        if (tp[g] / P >= tpr)
            return fp[g] / N;
    return 1.0;
}

void rocPoints(const std::vector<double>& score, const std::vector<char>& pos, std::vector<double>& fpr,
               std::vector<double>& tprOut) {
    std::vector<double> tp, fp;
    cumulative(score, pos, tp, fp);
    const double P = tp.empty() ? 0 : tp.back(), N = fp.empty() ? 0 : fp.back();
    fpr.assign(1, 0.0);
    tprOut.assign(1, 0.0);
    for (size_t g = 0; g < tp.size(); ++g) {
        fpr.push_back(N > 0 ? fp[g] / N : 0.0);
        tprOut.push_back(P > 0 ? tp[g] / P : 0.0);
    }
}

} // namespace pl
