#include "KMeans.h"

#include "core/SymmetricEigen.h"

#include <algorithm>
#include <limits>

namespace pl::distill {

std::vector<int> nearestCentres(const Eigen::MatrixXd& X, const Eigen::MatrixXd& C, Eigen::VectorXd* d2) {
    const Eigen::VectorXd cn = C.rowwise().squaredNorm();
    const Eigen::VectorXd xn = X.rowwise().squaredNorm();
    std::vector<int> out(size_t(X.rows()), 0);
    if (d2)
        d2->resize(X.rows());
    const Eigen::Index block = 4096; // bounds the N x k scratch matrix
    for (Eigen::Index lo = 0; lo < X.rows(); lo += block) {
        const Eigen::Index n = std::min(block, X.rows() - lo);
        Eigen::MatrixXd G = X.middleRows(lo, n) * C.transpose(); // n x k
        for (Eigen::Index r = 0; r < n; ++r) {
            double best = std::numeric_limits<double>::infinity();
            int arg = 0;
            for (Eigen::Index c = 0; c < C.rows(); ++c) {
                const double v = cn(c) - 2 * G(r, c);
                if (v < best) {
                    best = v;
                    arg = int(c);
                }
            }
            out[size_t(lo + r)] = arg;
            if (d2)
                (*d2)(lo + r) = std::max(0.0, best + xn(lo + r));
        }
    }
    return out;
}

Eigen::MatrixXd kmeansPlusPlus(const Eigen::MatrixXd& X, int k, Rng& rng) {
    const Eigen::Index n = X.rows();
    k = std::clamp(k, 1, int(n));
    Eigen::MatrixXd C(k, X.cols());
    C.row(0) = X.row(Eigen::Index(rng.uniformInt(uint64_t(n))));
    Eigen::VectorXd d2 = (X.rowwise() - C.row(0)).rowwise().squaredNorm();
    for (int j = 1; j < k; ++j) {
        const double total = d2.sum();
        Eigen::Index pick = 0;
        if (total <= 0)
            pick = Eigen::Index(rng.uniformInt(uint64_t(n)));
        else {
            const double u = rng.uniform() * total;
            double acc = 0;
            pick = n - 1;
            for (Eigen::Index i = 0; i < n; ++i) {
                acc += d2(i);
                if (acc > u) {
                    pick = i;
                    break;
                }
            }
        }
        C.row(j) = X.row(pick);
        d2 = d2.cwiseMin((X.rowwise() - C.row(j)).rowwise().squaredNorm());
    }
    return C;
}

namespace {

/// Means of the rows per label; clusters without rows keep \a previous.
Eigen::MatrixXd updateMeans(const Eigen::MatrixXd& X, const std::vector<int>& labels,
                            const Eigen::MatrixXd& previous) {
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(previous.rows(), previous.cols());
    Eigen::VectorXd count = Eigen::VectorXd::Zero(previous.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        sum.row(labels[size_t(i)]) += X.row(i);
        count(labels[size_t(i)]) += 1;
    }
    for (Eigen::Index c = 0; c < sum.rows(); ++c)
        sum.row(c) =
            count(c) > 0 ? Eigen::RowVectorXd(sum.row(c) / count(c)) : Eigen::RowVectorXd(previous.row(c));
    return sum;
}

} // namespace

KMeansResult lloyd(const Eigen::MatrixXd& X, const Eigen::MatrixXd& initial, int iterations) {
    KMeansResult r;
    r.centres = initial;
    for (int it = 0; it < iterations; ++it) {
        const std::vector<int> lab = nearestCentres(X, r.centres);
        r.centres = updateMeans(X, lab, r.centres);
        ++r.iterations;
    }
    Eigen::VectorXd d2;
    r.labels = nearestCentres(X, r.centres, &d2);
    r.inertia = d2.sum();
    return r;
}

KMeansResult kmeans(const Eigen::MatrixXd& X, int k, Rng& rng, int maxIterations,
                    const std::function<void()>& poll) {
    KMeansResult r;
    r.centres = kmeansPlusPlus(X, k, rng);
    r.labels = nearestCentres(X, r.centres);
    for (int it = 0; it < maxIterations; ++it) {
        r.centres = updateMeans(X, r.labels, r.centres);
        ++r.iterations;
        std::vector<int> lab = nearestCentres(X, r.centres);
        const bool same = lab == r.labels;
        r.labels = std::move(lab);
        if (poll)
            poll();
        if (same)
            break;
    }
    Eigen::VectorXd d2;
    nearestCentres(X, r.centres, &d2);
    r.inertia = d2.sum();
    return r;
}

Eigen::MatrixXd pca2(const Eigen::MatrixXd& fit, const Eigen::MatrixXd& X) {
    const Eigen::RowVectorXd mu = fit.colwise().mean();
    const Eigen::MatrixXd Z = fit.rowwise() - mu;
    const Eigen::MatrixXd cov = Z.transpose() * Z / std::max<double>(1.0, double(fit.rows() - 1));
    const SymmetricEigen e = symmetricEigen(cov);
    const Eigen::Index d = cov.rows();
    Eigen::MatrixXd W(d, 2);
    for (int j = 0; j < 2; ++j) {
        Eigen::VectorXd v =
            d - 1 - j >= 0 ? Eigen::VectorXd(e.vectors.col(d - 1 - j)) : Eigen::VectorXd::Zero(d);
        Eigen::Index arg = 0;
        v.cwiseAbs().maxCoeff(&arg);
        if (v(arg) < 0)
            v = -v;
        W.col(j) = v;
    }
    return (X.rowwise() - mu) * W;
}

double meanSquaredSpread(const Eigen::MatrixXd& X) {
    if (X.rows() == 0)
        return 0;
    return (X.rowwise() - X.colwise().mean()).rowwise().squaredNorm().mean();
}

} // namespace pl::distill
