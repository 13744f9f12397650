#include "TmScore.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pl::protein {

double tmD0(int lengthRef) {
    if (lengthRef <= 21)
        return 0.5;
    return std::max(0.5, 1.24 * std::cbrt(double(lengthRef) - 15.0) - 1.8);
}

namespace {

/// Superposition on a subset of pairs (indices into the matched arrays).
Superposition fitSubset(const Eigen::Matrix3Xd& x, const Eigen::Matrix3Xd& y, const std::vector<int>& idx) {
    Eigen::Matrix3Xd a(3, Eigen::Index(idx.size())), b(3, Eigen::Index(idx.size()));
    for (size_t k = 0; k < idx.size(); ++k) {
        a.col(Eigen::Index(k)) = x.col(idx[k]);
        b.col(Eigen::Index(k)) = y.col(idx[k]);
    }
    return kabsch(a, b);
}

struct Scored {
    double score = 0;
    int gdt[4] = {0, 0, 0, 0}; ///< pairs within 1, 2, 4, 8 A
};

/// Scores one superposition and collects the pairs within the cutoff d (relaxed by 0.5 A while
/// fewer than 3 qualify).
Scored scoreAndCut(const Eigen::Matrix3Xd& x, const Eigen::Matrix3Xd& y, const Superposition& s, double d,
                   double d0, int lengthRef, std::vector<double>& dist, std::vector<int>& cut) {
    const long n = x.cols();
    dist.resize(size_t(n));
    Scored r;
    double sum = 0;
    const double d02 = d0 * d0;
    for (long i = 0; i < n; ++i) {
        const double di = (s.rotation * x.col(i) + s.translation - y.col(i)).norm();
        dist[size_t(i)] = di;
        sum += 1.0 / (1.0 + di * di / d02);
        r.gdt[0] += di < 1.0;
        r.gdt[1] += di < 2.0;
        r.gdt[2] += di < 4.0;
        r.gdt[3] += di < 8.0;
    }
    r.score = sum / double(lengthRef);
    double dc = d;
    while (true) {
        cut.clear();
        for (long i = 0; i < n; ++i)
            if (dist[size_t(i)] < dc)
                cut.push_back(int(i));
        if (cut.size() < 3 && n > 3)
            dc += 0.5;
        else
            break;
    }
    return r;
}

} // namespace

TmResult tmScore(const Eigen::Matrix3Xd& mobile, const Eigen::Matrix3Xd& reference, int lengthRef,
                 const std::function<void()>& poll) {
    const int n = int(mobile.cols());
    if (reference.cols() != n || n < 1)
        throw std::invalid_argument("tmScore: matched sets differ in size or are empty");
    TmResult res;
    res.common = n;
    res.lengthRef = std::max(lengthRef, n);
    res.d0 = tmD0(res.lengthRef);
    const double d0Search = std::clamp(res.d0, 4.5, 8.0);
    const Superposition global = kabsch(mobile, reference);
    res.rmsdCommon = global.rmsd;

    // Seed lengths n, n/2, n/4, ... ending with the minimum 4 (or n when n < 4).
    const int minLen = std::min(n, 4);
    std::vector<int> lengths;
    for (int k = 0; k < 5; ++k) {
        int len = n >> k;
        if (len <= minLen) {
            len = minLen;
            lengths.push_back(len);
            break;
        }
        lengths.push_back(len);
        if (k == 4)
            lengths.push_back(minLen);
    }

    double bestScore = -1;
    int bestGdt[4] = {0, 0, 0, 0};
    std::vector<double> dist;
    std::vector<int> cut, prevSet, seed;
    auto consider = [&](const Superposition& s, const Scored& sc) {
        if (sc.score > bestScore) {
            bestScore = sc.score;
            res.best = s;
        }
        for (int g = 0; g < 4; ++g)
            bestGdt[g] = std::max(bestGdt[g], sc.gdt[g]);
    };
    int seeds = 0;
    for (const int len : lengths) {
        for (int start = 0; start + len <= n; ++start) {
            if (poll && (++seeds % 64) == 0)
                poll();
            seed.resize(size_t(len));
            for (int k = 0; k < len; ++k)
                seed[size_t(k)] = start + k;
            Superposition s = fitSubset(mobile, reference, seed);
            Scored sc = scoreAndCut(mobile, reference, s, d0Search - 1.0, res.d0, res.lengthRef, dist, cut);
            consider(s, sc);
            // Extension: superpose on the close pairs (first from the narrow cutoff d0_search - 1,
            // then the wider d0_search + 1) until the set of close pairs stops changing.
            for (int it = 0; it < 20; ++it) {
                prevSet = cut;
                s = fitSubset(mobile, reference, prevSet);
                sc = scoreAndCut(mobile, reference, s, d0Search + 1.0, res.d0, res.lengthRef, dist, cut);
                consider(s, sc);
                if (cut == prevSet)
                    break;
            }
        }
    }
    res.tmScore = bestScore;
    res.gdtTs = (bestGdt[0] + bestGdt[1] + bestGdt[2] + bestGdt[3]) / (4.0 * double(res.lengthRef));
    res.deviation.resize(size_t(n));
    for (int i = 0; i < n; ++i)
        res.deviation[size_t(i)] =
            (res.best.rotation * mobile.col(i) + res.best.translation - reference.col(i)).norm();
    return res;
}

} // namespace pl::protein
