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

} // namespace pl::embedgeo
