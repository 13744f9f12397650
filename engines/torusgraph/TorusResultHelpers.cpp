#include "TorusResultHelpers.h"
#include "TorusGraphKeys.h"

#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>

namespace pl::torusgraph::detail {

namespace {
namespace A = torusgraph::keys::attr;
} // namespace
Matrix toMatrix(const Mat& m, const std::string& prefix) {
    return matrixOf(m, prefix, prefix, 1);
}

Matrix nodeMatrix(const Mat& m, const std::vector<std::string>& names) {
    Matrix out = toMatrix(m, "ch");
    if (names.size() == size_t(m.rows())) {
        out.rowLabels = names;
        out.colLabels = names;
    }
    return out;
}

/// Area under the ROC curve of scores for the pairs j < k against a 0/1 adjacency (ties averaged),
/// and the curve itself.
double rocAuc(const Mat& score, const Mat& adj, Series* roc) {
    const int d = int(score.rows());
    std::vector<std::pair<double, int>> v;
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k)
            v.push_back({score(j, k), adj(j, k) > 0.5 ? 1 : 0});
    int64_t pos = 0, neg = 0;
    for (auto& p : v)
        (p.second ? pos : neg)++;
    if (pos == 0 || neg == 0)
        return kNaN;
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first > b.first; });
    double auc = 0, tp = 0, fp = 0;
    if (roc) {
        roc->x = {0};
        roc->y = {0};
        roc->xlabel = "false-positive rate";
        roc->ylabel = "true-positive rate";
    }
    for (size_t i = 0; i < v.size();) {
        size_t j = i;
        double tpi = 0, fpi = 0;
        while (j < v.size() && v[j].first == v[i].first) {
            (v[j].second ? tpi : fpi) += 1;
            ++j;
        }
        auc += fpi * (tp + 0.5 * tpi);
        tp += tpi;
        fp += fpi;
        if (roc) {
            roc->x.push_back(fp / double(neg));
            roc->y.push_back(tp / double(pos));
        }
        i = j;
    }
    return auc / (double(pos) * double(neg));
}

/// Least-squares slope of log y against log x (points with y > 0).
double logSlope(const std::vector<double>& x, const std::vector<double>& y, double xMin) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (size_t i = 0; i < x.size(); ++i)
        if (y[i] > 0 && x[i] >= xMin) {
            const double a = std::log(x[i]), b = std::log(y[i]);
            sx += a;
            sy += b;
            sxx += a * a;
            sxy += a * b;
            ++n;
        }
    if (n < 2)
        return kNaN;
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Model-based bivariate density of (x_i, x_j): the fitted conditional p(x_i, x_j | x_−ij) (a two-node
/// torus graph whose univariate terms absorb the other channels) averaged over up to 500 samples of
/// the other channels, on a G × G grid (rows: x_i, columns: x_j), in 1/rad².
Mat pairDensity(const Vec& eta, const RowMat& x, int i, int j, int G) {
    const int d = int(x.cols());
    const TorusLayout L(d);
    Vec ell;
    Mat W;
    toQuadratic(eta, d, &ell, &W);
    const int a = std::min(i, j), b = std::max(i, j);
    const Eigen::Vector4d phi = eta.segment<4>(L.pairOffset(a, b));
    Vec cu(G), su(G);
    for (int r = 0; r < G; ++r) {
        cu(r) = std::cos(kTau * (r + 0.5) / G);
        su(r) = std::sin(kTau * (r + 0.5) / G);
    }
    Mat pairF(G, G); // exp(pair terms), rows u = x_i, columns v = x_j
    for (int r = 0; r < G; ++r)
        for (int c = 0; c < G; ++c) {
            const double u = kTau * (r + 0.5) / G, v = kTau * (c + 0.5) / G;
            const double xa = i < j ? u : v, xb = i < j ? v : u;
            pairF(r, c) = phi(0) * std::cos(xa - xb) + phi(1) * std::sin(xa - xb) +
                          phi(2) * std::cos(xa + xb) + phi(3) * std::sin(xa + xb);
        }
    pairF = (pairF.array() - pairF.maxCoeff()).exp().matrix();
    Mat acc = Mat::Zero(G, G);
    const int64_t n = x.rows(), step = std::max<int64_t>(1, n / 500);
    int count = 0;
    Vec z(2 * d);
    for (int64_t t = 0; t < n; t += step) {
        for (int k = 0; k < d; ++k) {
            z(k) = std::cos(x(t, k));
            z(d + k) = std::sin(x(t, k));
        }
        z(i) = z(d + i) = z(j) = z(d + j) = 0; // condition on the others only
        const Vec v = ell + W * z;
        Vec ei = v(i) * cu + v(d + i) * su, ej = v(j) * cu + v(d + j) * su;
        ei = (ei.array() - ei.maxCoeff()).exp().matrix();
        ej = (ej.array() - ej.maxCoeff()).exp().matrix();
        Mat q = ei.asDiagonal() * pairF * ej.asDiagonal();
        acc += q / q.sum();
        ++count;
    }
    const double cell = (kTau / G) * (kTau / G);
    return acc / (double(std::max(1, count)) * cell);
}

Graph couplingGraph(const Mat& strength, const Mat& pValue, double alpha, const Mat* coords,
                    const std::vector<std::string>& names, bool haveTests) {
    Graph g;
    const int d = int(strength.rows());
    for (int j = 0; j < d; ++j) {
        GraphNode n;
        n.id = j;
        n.label = names.size() == size_t(d) ? names[size_t(j)] : "ch" + std::to_string(j + 1);
        double deg = 0;
        for (int k = 0; k < d; ++k)
            if (k != j)
                deg += strength(j, k);
        n.attrs[A::kStrength] = deg;
        if (coords) {
            n.attrs[A::kX] = (*coords)(j, 0);
            n.attrs[A::kY] = (*coords)(j, 1);
        }
        g.nodes.push_back(n);
    }
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k) {
            const bool sig = haveTests ? pValue(j, k) < alpha : true;
            if (!(strength(j, k) > 1e-12))
                continue;
            GraphEdge e;
            e.source = j;
            e.target = k;
            e.weight = strength(j, k);
            e.attrs[A::kPValue] = haveTests ? pValue(j, k) : kNaN;
            e.attrs[A::kSignificant] = sig ? 1.0 : 0.0;
            g.edges.push_back(e);
        }
    return g;
}

} // namespace pl::torusgraph::detail
