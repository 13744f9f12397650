#include "StateClustering.h"

#include "core/SymmetricEigen.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace pl::protein {

namespace {

std::vector<int> assignToMedoids(const Eigen::MatrixXd& D, const std::vector<int>& med, double* cost) {
    const long n = D.rows();
    std::vector<int> lab(size_t(n), 0);
    double c = 0;
    for (long i = 0; i < n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        for (size_t m = 0; m < med.size(); ++m)
            if (D(i, med[m]) < best) {
                best = D(i, med[m]);
                lab[size_t(i)] = int(m);
            }
        c += best;
    }
    if (cost)
        *cost = c;
    return lab;
}

/// Renumbers clusters by decreasing size (ties: smallest first member).
std::vector<int> canonical(const std::vector<int>& lab) {
    std::map<int, int> size, first;
    for (size_t i = 0; i < lab.size(); ++i) {
        ++size[lab[i]];
        first.emplace(lab[i], int(i));
    }
    std::vector<int> ids;
    for (auto& [id, s] : size)
        ids.push_back(id);
    std::sort(ids.begin(), ids.end(),
              [&](int a, int b) { return size[a] != size[b] ? size[a] > size[b] : first[a] < first[b]; });
    std::map<int, int> remap;
    for (size_t r = 0; r < ids.size(); ++r)
        remap[ids[r]] = int(r);
    std::vector<int> out(lab.size());
    for (size_t i = 0; i < lab.size(); ++i)
        out[i] = remap[lab[i]];
    return out;
}

} // namespace

std::vector<int> kMedoids(const Eigen::MatrixXd& D, int k) {
    const long n = D.rows();
    if (n == 0)
        return {};
    k = std::clamp(k, 1, int(n));
    // BUILD: first medoid minimises the total distance, then greedily the largest cost decrease.
    std::vector<int> med;
    Eigen::VectorXd nearest = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
    {
        long best = 0;
        double bestSum = std::numeric_limits<double>::infinity();
        for (long i = 0; i < n; ++i)
            if (D.row(i).sum() < bestSum) {
                bestSum = D.row(i).sum();
                best = i;
            }
        med.push_back(int(best));
        nearest = D.col(best);
    }
    while (int(med.size()) < k) {
        long best = -1;
        double bestGain = -1;
        for (long c = 0; c < n; ++c) {
            if (std::find(med.begin(), med.end(), int(c)) != med.end())
                continue;
            double gain = 0;
            for (long i = 0; i < n; ++i)
                gain += std::max(0.0, nearest(i) - D(i, c));
            if (gain > bestGain) {
                bestGain = gain;
                best = c;
            }
        }
        med.push_back(int(best));
        nearest = nearest.cwiseMin(D.col(best));
    }
    // SWAP: best improving (medoid, non-medoid) exchange until none improves; the change of
    // cost of a swap comes from each point's nearest and second-nearest medoid distances, O(n).
    for (int round = 0; round < 200; ++round) {
        std::vector<int> lab(static_cast<size_t>(n));
        Eigen::VectorXd d1(n), d2(n);
        for (long i = 0; i < n; ++i) {
            double a = std::numeric_limits<double>::infinity(), b2 = a;
            int la = 0;
            for (size_t m = 0; m < med.size(); ++m) {
                const double v = D(i, med[m]);
                if (v < a) {
                    b2 = a;
                    a = v;
                    la = int(m);
                } else if (v < b2) {
                    b2 = v;
                }
            }
            lab[size_t(i)] = la;
            d1(i) = a;
            d2(i) = b2;
        }
        double bestDelta = -1e-12;
        int bm = -1;
        long bc = -1;
        for (long c = 0; c < n; ++c) {
            if (std::find(med.begin(), med.end(), int(c)) != med.end())
                continue;
            for (size_t m = 0; m < med.size(); ++m) {
                double delta = 0;
                for (long i = 0; i < n; ++i) {
                    const double dc = D(i, c);
                    if (lab[size_t(i)] == int(m))
                        delta += std::min(d2(i), dc) - d1(i);
                    else if (dc < d1(i))
                        delta += dc - d1(i);
                }
                if (delta < bestDelta) {
                    bestDelta = delta;
                    bm = int(m);
                    bc = c;
                }
            }
        }
        if (bm < 0)
            break;
        med[size_t(bm)] = int(bc);
    }
    return canonical(assignToMedoids(D, med, nullptr));
}

std::vector<int> averageLinkage(const Eigen::MatrixXd& D, int k) {
    const long n = D.rows();
    std::vector<int> lab(static_cast<size_t>(n));
    std::iota(lab.begin(), lab.end(), 0);
    if (n == 0)
        return lab;
    k = std::clamp(k, 1, int(n));
    // Cluster-to-cluster average distances (Lance-Williams update), O(n^3) worst case, fine for
    // the ensemble sizes of the panel (clustering is done on at most a few thousand models).
    Eigen::MatrixXd C = D;
    std::vector<int> size(size_t(n), 1);
    std::vector<bool> alive(size_t(n), true);
    int clusters = int(n);
    while (clusters > k) {
        double best = std::numeric_limits<double>::infinity();
        long a = -1, b = -1;
        for (long i = 0; i < n; ++i) {
            if (!alive[size_t(i)])
                continue;
            for (long j = i + 1; j < n; ++j)
                if (alive[size_t(j)] && C(i, j) < best) {
                    best = C(i, j);
                    a = i;
                    b = j;
                }
        }
        for (long m = 0; m < n; ++m) {
            if (!alive[size_t(m)] || m == a || m == b)
                continue;
            const double v =
                (size[size_t(a)] * C(a, m) + size[size_t(b)] * C(b, m)) / (size[size_t(a)] + size[size_t(b)]);
            C(a, m) = v;
            C(m, a) = v;
        }
        size[size_t(a)] += size[size_t(b)];
        alive[size_t(b)] = false;
        for (auto& l : lab)
            if (l == int(b))
                l = int(a);
        --clusters;
    }
    return canonical(lab);
}

double meanSilhouette(const Eigen::MatrixXd& D, const std::vector<int>& labels) {
    const long n = D.rows();
    const int k = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end()) + 1;
    if (k < 2 || n < 2)
        return 0;
    std::vector<int> count(size_t(k), 0);
    for (int l : labels)
        ++count[size_t(l)];
    double total = 0;
    std::vector<double> sum(static_cast<size_t>(k));
    for (long i = 0; i < n; ++i) {
        std::fill(sum.begin(), sum.end(), 0.0);
        for (long j = 0; j < n; ++j)
            sum[size_t(labels[size_t(j)])] += D(i, j);
        const int own = labels[size_t(i)];
        if (count[size_t(own)] <= 1)
            continue; // silhouette 0 for singletons
        const double a = sum[size_t(own)] / (count[size_t(own)] - 1);
        double b = std::numeric_limits<double>::infinity();
        for (int c = 0; c < k; ++c)
            if (c != own && count[size_t(c)] > 0)
                b = std::min(b, sum[size_t(c)] / count[size_t(c)]);
        const double m = std::max(a, b);
        total += m > 0 ? (b - a) / m : 0.0;
    }
    return total / double(n);
}

Clustering clusterStates(const Eigen::MatrixXd& D, const std::string& method, int kMax, double minSilhouette,
                         const std::function<void()>& poll) {
    Clustering out;
    const long n = D.rows();
    out.labels.assign(size_t(n), 0);
    kMax = std::min<long>(kMax, n - 1);
    std::vector<int> bestLab;
    double bestSil = -2;
    int bestK = 1;
    for (int k = 2; k <= kMax; ++k) {
        if (poll)
            poll();
        std::vector<int> lab = method == "average" ? averageLinkage(D, k) : kMedoids(D, k);
        const double s = meanSilhouette(D, lab);
        out.silhouetteByK.push_back(s);
        if (s > bestSil + 1e-12) {
            bestSil = s;
            bestLab = lab;
            bestK = k;
        }
    }
    if (bestK >= 2 && bestSil >= minSilhouette) {
        out.labels = bestLab;
        out.k = bestK;
        out.silhouette = bestSil;
    }
    out.medoids.assign(size_t(out.k), 0);
    for (int c = 0; c < out.k; ++c) {
        double best = std::numeric_limits<double>::infinity();
        for (long i = 0; i < n; ++i) {
            if (out.labels[size_t(i)] != c)
                continue;
            double s = 0;
            for (long j = 0; j < n; ++j)
                if (out.labels[size_t(j)] == c)
                    s += D(i, j);
            if (s < best) {
                best = s;
                out.medoids[size_t(c)] = int(i);
            }
        }
    }
    return out;
}

double adjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b) {
    const size_t n = std::min(a.size(), b.size());
    if (n < 2)
        return 1.0;
    std::map<std::pair<int, int>, double> nij;
    std::map<int, double> ai, bj;
    for (size_t i = 0; i < n; ++i) {
        nij[{a[i], b[i]}] += 1;
        ai[a[i]] += 1;
        bj[b[i]] += 1;
    }
    auto c2 = [](double x) { return x * (x - 1) / 2; };
    double sumIj = 0, sumA = 0, sumB = 0;
    for (auto& [key, v] : nij)
        sumIj += c2(v);
    for (auto& [key, v] : ai)
        sumA += c2(v);
    for (auto& [key, v] : bj)
        sumB += c2(v);
    const double expected = sumA * sumB / c2(double(n));
    const double maxIdx = 0.5 * (sumA + sumB);
    if (maxIdx - expected == 0)
        return 1.0; // both labellings trivial and identical in structure
    return (sumIj - expected) / (maxIdx - expected);
}

PcaMap pcaMap(const std::vector<Eigen::Matrix3Xd>& aligned) {
    PcaMap out;
    const long n = long(aligned.size());
    if (n == 0)
        return out;
    const long d = 3 * aligned.front().cols();
    Eigen::MatrixXd X(n, d);
    for (long i = 0; i < n; ++i)
        X.row(i) = Eigen::Map<const Eigen::RowVectorXd>(aligned[size_t(i)].data(), d);
    X.rowwise() -= X.colwise().mean();
    // Gram matrix (n x n) when there are fewer models than coordinates, else covariance.
    Eigen::VectorXd p1 = Eigen::VectorXd::Zero(n), p2 = Eigen::VectorXd::Zero(n);
    double total = X.squaredNorm();
    if (total <= 0) {
        out.pc1.assign(size_t(n), 0);
        out.pc2.assign(size_t(n), 0);
        return out;
    }
    if (n <= d) {
        const SymmetricEigen es = symmetricEigen(X * X.transpose());
        const long m = es.values.size();
        const Eigen::VectorXd v1 = es.vectors.col(m - 1);
        p1 = v1 * std::sqrt(std::max(0.0, es.values(m - 1)));
        out.explained1 = es.values(m - 1) / total;
        if (m >= 2) {
            p2 = es.vectors.col(m - 2) * std::sqrt(std::max(0.0, es.values(m - 2)));
            out.explained2 = es.values(m - 2) / total;
        }
    } else {
        const SymmetricEigen es = symmetricEigen(X.transpose() * X);
        const long m = es.values.size();
        p1 = X * es.vectors.col(m - 1);
        out.explained1 = es.values(m - 1) / total;
        if (m >= 2) {
            p2 = X * es.vectors.col(m - 2);
            out.explained2 = es.values(m - 2) / total;
        }
    }
    // Fix the sign: the model farthest along each axis is positive (deterministic orientation).
    long i1 = 0, i2 = 0;
    p1.cwiseAbs().maxCoeff(&i1);
    p2.cwiseAbs().maxCoeff(&i2);
    if (p1(i1) < 0)
        p1 = -p1;
    if (p2(i2) < 0)
        p2 = -p2;
    out.pc1.assign(p1.data(), p1.data() + n);
    out.pc2.assign(p2.data(), p2.data() + n);
    return out;
}

} // namespace pl::protein
