#include "EmbedGeometry.h"

#include "core/Errors.h"
#include "core/SymmetricEigen.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::embedgeo {

int normaliseRows(Eigen::MatrixXd& X, const std::string& file, const std::string& what) {
    int changed = 0;
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double n = X.row(i).norm();
        if (!(n > 0) || !std::isfinite(n))
            throw InputError(file, what + ": zero or non-finite row " + std::to_string(i));
        if (std::abs(n - 1.0) > 1e-6)
            ++changed;
        X.row(i) /= n;
    }
    return changed;
}

Eigen::MatrixXd unitRows(const Eigen::MatrixXd& X) {
    Eigen::MatrixXd Y = X;
    for (Eigen::Index i = 0; i < Y.rows(); ++i) {
        const double n = Y.row(i).norm();
        if (n > 0)
            Y.row(i) /= n;
    }
    return Y;
}

Eigen::MatrixXd cosineMatrix(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    Eigen::MatrixXd C(A.rows(), B.rows());
    C.noalias() = A * B.transpose();
    return C;
}

Eigen::VectorXd randomUnit(Rng& rng, int d) {
    Eigen::VectorXd v(d);
    for (;;) {
        for (int i = 0; i < d; ++i)
            v(i) = rng.normal();
        const double n = v.norm();
        if (n > 1e-12)
            return v / n;
    }
}

Eigen::VectorXd sampleVmf(Rng& rng, const Eigen::VectorXd& mu, double kappa) {
    const int d = int(mu.size());
    if (kappa <= 0)
        return randomUnit(rng, d);
    const double p1 = d - 1.0;
    const double b = p1 / (2 * kappa + std::sqrt(4 * kappa * kappa + p1 * p1)); // stable form
    const double x0 = (1 - b) / (1 + b);
    const double c = kappa * x0 + p1 * std::log(1 - x0 * x0);
    double w = 0;
    for (;;) {
        const double g1 = rng.gamma(p1 / 2), g2 = rng.gamma(p1 / 2);
        const double z = g1 / (g1 + g2);
        w = (1 - (1 + b) * z) / (1 - (1 - b) * z);
        const double u = rng.uniform();
        if (kappa * w + p1 * std::log(1 - x0 * w) - c >= std::log(u))
            break;
    }
    Eigen::VectorXd v = randomUnit(rng, d);
    v -= v.dot(mu) * mu;
    const double vn = v.norm();
    if (vn < 1e-12)
        return mu;
    return w * mu + std::sqrt(std::max(0.0, 1 - w * w)) * (v / vn);
}

Eigen::MatrixXd Pca::project(const Eigen::MatrixXd& X) const {
    return (X.rowwise() - mean) * axes;
}

Pca fitPca(const Eigen::MatrixXd& X, int m) {
    Pca p;
    const Eigen::Index n = X.rows(), d = X.cols();
    m = int(std::clamp<Eigen::Index>(m, 0, d));
    p.mean = X.colwise().mean();
    const Eigen::MatrixXd Xc = X.rowwise() - p.mean;
    Eigen::MatrixXd C(d, d);
    C.noalias() = Xc.transpose() * Xc;
    C /= double(std::max<Eigen::Index>(1, n - 1));
    const SymmetricEigen e = symmetricEigen(C);
    p.axes.resize(d, m);
    p.variance.resize(m);
    for (int j = 0; j < m; ++j) {
        const Eigen::Index src = d - 1 - j;
        Eigen::VectorXd a = e.vectors.col(src);
        Eigen::Index arg = 0;
        a.cwiseAbs().maxCoeff(&arg);
        if (a(arg) < 0)
            a = -a;
        p.axes.col(j) = a;
        p.variance(j) = std::max(0.0, e.values(src));
    }
    return p;
}

Knn exactKnn(const Eigen::MatrixXd& X, int k) {
    const Eigen::Index n = X.rows();
    k = int(std::clamp<Eigen::Index>(k, 0, std::max<Eigen::Index>(0, n - 1)));
    Knn out;
    out.idx.resize(n, k);
    out.dist2.resize(n, k);
    const Eigen::VectorXd sq = X.rowwise().squaredNorm();
    const Eigen::Index block = 256;
    std::vector<int> order(static_cast<size_t>(n));
    std::vector<double> drow(static_cast<size_t>(n));
    Eigen::MatrixXd G;
    for (Eigen::Index b0 = 0; b0 < n; b0 += block) {
        const Eigen::Index bn = std::min(block, n - b0);
        G.noalias() = X.middleRows(b0, bn) * X.transpose();
        for (Eigen::Index r = 0; r < bn; ++r) {
            const Eigen::Index i = b0 + r;
            for (Eigen::Index j = 0; j < n; ++j)
                drow[size_t(j)] = std::max(0.0, sq(i) + sq(j) - 2 * G(r, j));
            auto dist = [&](int j) { return drow[size_t(j)]; };
            std::iota(order.begin(), order.end(), 0);
            order.erase(order.begin() + i);
            auto less = [&](int a, int c) {
                const double da = dist(a), dc = dist(c);
                return da < dc || (da == dc && a < c);
            };
            std::partial_sort(order.begin(), order.begin() + k, order.end(), less);
            for (int t = 0; t < k; ++t) {
                out.idx(i, t) = order[size_t(t)];
                out.dist2(i, t) = dist(order[size_t(t)]);
            }
            order.resize(size_t(n));
        }
    }
    return out;
}

Knn exactKnnSorted(const Eigen::MatrixXd& X, int k) {
    const Eigen::Index n = X.rows();
    k = int(std::clamp<Eigen::Index>(k, 0, std::max<Eigen::Index>(0, n - 1)));
    Knn out;
    out.idx.resize(n, k);
    out.dist2.resize(n, k);
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return X(a, 0) < X(b, 0); });
    std::vector<std::pair<double, int>> heap; // max-heap of (dist2, index): worst on top
    heap.reserve(size_t(k) + 1);
    for (Eigen::Index pos = 0; pos < n; ++pos) {
        const int i = order[size_t(pos)];
        heap.clear();
        auto offer = [&](int j) {
            const double d = (X.row(i) - X.row(j)).squaredNorm();
            const std::pair<double, int> c{d, j};
            if (int(heap.size()) < k) {
                heap.push_back(c);
                std::push_heap(heap.begin(), heap.end());
            } else if (c < heap.front()) {
                std::pop_heap(heap.begin(), heap.end());
                heap.back() = c;
                std::push_heap(heap.begin(), heap.end());
            }
        };
        auto done = [&](int j) {
            const double g = X(j, 0) - X(i, 0);
            return int(heap.size()) == k && g * g > heap.front().first;
        };
        Eigen::Index lo = pos - 1, hi = pos + 1;
        bool left = lo >= 0, right = hi < n;
        while (left || right) {
            if (right) {
                const int j = order[size_t(hi)];
                if (done(j))
                    right = false;
                else {
                    offer(j);
                    right = ++hi < n;
                }
            }
            if (left) {
                const int j = order[size_t(lo)];
                if (done(j))
                    left = false;
                else {
                    offer(j);
                    left = --lo >= 0;
                }
            }
        }
        std::sort_heap(heap.begin(), heap.end());
        for (int t = 0; t < k; ++t) {
            out.idx(i, t) = heap[size_t(t)].second;
            out.dist2(i, t) = heap[size_t(t)].first;
        }
    }
    return out;
}

Knn exactKnnGrid(const Eigen::MatrixXd& X, int k) {
    const Eigen::Index n = X.rows();
    const int D = int(std::min<Eigen::Index>(3, X.cols()));
    k = int(std::clamp<Eigen::Index>(k, 0, std::max<Eigen::Index>(0, n - 1)));
    Knn out;
    out.idx.resize(n, k);
    out.dist2.resize(n, k);
    if (n == 0 || k == 0 || D == 0)
        return out;
    double lo[3] = {0, 0, 0}, span = 0;
    for (int a = 0; a < D; ++a) {
        lo[a] = X.col(a).minCoeff();
        span = std::max(span, X.col(a).maxCoeff() - lo[a]);
    }
    const int G = std::max(1, int(std::cbrt(27.0 * double(n) / std::max(1, k)))); // ~k/27 points per cell
    const double h = span > 0 ? span / G * (1 + 1e-12) : 1.0;
    int g[3] = {1, 1, 1};
    for (int a = 0; a < D; ++a)
        g[a] = G;
    auto cellOf = [&](Eigen::Index i, int a) { return std::min(g[a] - 1, int((X(i, a) - lo[a]) / h)); };
    const size_t cells = size_t(g[0]) * size_t(g[1]) * size_t(g[2]);
    std::vector<int> start(cells + 1, 0), items(static_cast<size_t>(n));
    std::vector<size_t> cellIdx(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        const int c0 = cellOf(i, 0), c1 = D > 1 ? cellOf(i, 1) : 0, c2 = D > 2 ? cellOf(i, 2) : 0;
        cellIdx[size_t(i)] = (size_t(c2) * size_t(g[1]) + size_t(c1)) * size_t(g[0]) + size_t(c0);
        ++start[cellIdx[size_t(i)] + 1];
    }
    for (size_t c = 0; c < cells; ++c)
        start[c + 1] += start[c];
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (Eigen::Index i = 0; i < n; ++i)
        items[size_t(fill[cellIdx[size_t(i)]]++)] = int(i);
    std::vector<std::pair<double, int>> heap;
    for (Eigen::Index i = 0; i < n; ++i) {
        heap.clear();
        const int q[3] = {cellOf(i, 0), D > 1 ? cellOf(i, 1) : 0, D > 2 ? cellOf(i, 2) : 0};
        const int maxRing = std::max({g[0], g[1], g[2]});
        for (int r = 0; r <= maxRing; ++r) {
            for (int c2 = std::max(0, q[2] - r); c2 <= std::min(g[2] - 1, q[2] + r); ++c2)
                for (int c1 = std::max(0, q[1] - r); c1 <= std::min(g[1] - 1, q[1] + r); ++c1)
                    for (int c0 = std::max(0, q[0] - r); c0 <= std::min(g[0] - 1, q[0] + r); ++c0) {
                        const int cheb =
                            std::max({std::abs(c0 - q[0]), std::abs(c1 - q[1]), std::abs(c2 - q[2])});
                        if (cheb != r)
                            continue;
                        const size_t c = (size_t(c2) * size_t(g[1]) + size_t(c1)) * size_t(g[0]) + size_t(c0);
                        for (int t = start[c]; t < start[c + 1]; ++t) {
                            const int j = items[size_t(t)];
                            if (j == i)
                                continue;
                            const std::pair<double, int> cand{(X.row(i) - X.row(j)).squaredNorm(), j};
                            if (int(heap.size()) < k) {
                                heap.push_back(cand);
                                std::push_heap(heap.begin(), heap.end());
                            } else if (cand < heap.front()) {
                                std::pop_heap(heap.begin(), heap.end());
                                heap.back() = cand;
                                std::push_heap(heap.begin(), heap.end());
                            }
                        }
                    }
            // Every cell of ring r + 1 is at least r h away (in the grid columns) from row i.
            const double bound = double(r) * h;
            if (int(heap.size()) == k && bound * bound > heap.front().first)
                break;
        }
        std::sort_heap(heap.begin(), heap.end());
        for (int t = 0; t < k; ++t) {
            out.idx(i, t) = heap[size_t(t)].second;
            out.dist2(i, t) = heap[size_t(t)].first;
        }
    }
    return out;
}

} // namespace pl::embedgeo
