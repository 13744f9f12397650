#include "equicov/KelvinMandel.h"

#include "core/Errors.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>

namespace pl::equicov {

namespace {

constexpr double kS2 = std::numbers::sqrt2;

/// The tensor whose Kelvin-Mandel vector is e_k.
Eigen::Matrix3d unitTensor(int k) {
    Vec6 e = Vec6::Zero();
    e(k) = 1;
    return tensorOf(e);
}

Eigen::Matrix<double, 21, 21> actionOnSym6(const Mat6& g) {
    // Column j: svec(G B_j + B_j G^T) for the orthonormal basis B_j of sym(6).
    Eigen::Matrix<double, 21, 21> a;
    int j = 0;
    for (int p = 0; p < 6; ++p)
        for (int q = p; q < 6; ++q) {
            Mat6 b = Mat6::Zero();
            if (p == q)
                b(p, p) = 1;
            else
                b(p, q) = b(q, p) = 1 / kS2;
            a.col(j++) = svec(g * b + b * g.transpose());
        }
    return a;
}

} // namespace

Vec6 kelvinMandel(const Eigen::Matrix3d& t) {
    Vec6 v;
    v << t(0, 0), t(1, 1), t(2, 2), kS2 * t(1, 2), kS2 * t(0, 2), kS2 * t(0, 1);
    return v;
}

Eigen::Matrix3d tensorOf(const Vec6& v) {
    Eigen::Matrix3d t;
    t << v(0), v(5) / kS2, v(4) / kS2, v(5) / kS2, v(1), v(3) / kS2, v(4) / kS2, v(3) / kS2, v(2);
    return t;
}

Mat6 rho(const Eigen::Matrix3d& r) {
    Mat6 m;
    for (int k = 0; k < 6; ++k)
        m.col(k) = kelvinMandel(r * unitTensor(k) * r.transpose());
    return m;
}

std::array<Mat6, 3> inducedGenerators() {
    std::array<Mat6, 3> g;
    for (int a = 0; a < 3; ++a) {
        Eigen::Matrix3d l = Eigen::Matrix3d::Zero();
        const int i = (a + 1) % 3, j = (a + 2) % 3;
        l(i, j) = -1;
        l(j, i) = 1;
        for (int k = 0; k < 6; ++k) {
            const Eigen::Matrix3d e = unitTensor(k);
            g[size_t(a)].col(k) = kelvinMandel(l * e + e * l.transpose());
        }
    }
    return g;
}

Eigen::Matrix<double, 21, 1> svec(const Mat6& s) {
    Eigen::Matrix<double, 21, 1> v;
    int j = 0;
    for (int p = 0; p < 6; ++p)
        for (int q = p; q < 6; ++q)
            v(j++) = p == q ? s(p, p) : kS2 * 0.5 * (s(p, q) + s(q, p));
    return v;
}

Eigen::Vector3d IrrepDecomposition::power(const Mat6& s) const {
    const Eigen::Matrix<double, 21, 1> x = svec(s);
    Eigen::Vector3d p;
    for (int l = 0; l < 3; ++l)
        p(l) = (bases[size_t(l)].transpose() * x).squaredNorm();
    return p;
}

const IrrepDecomposition& irrepDecomposition() {
    static const IrrepDecomposition d = [] {
        IrrepDecomposition r;
        r.casimir.setZero();
        for (const Mat6& g : inducedGenerators()) {
            const Eigen::Matrix<double, 21, 21> a = actionOnSym6(g);
            r.casimir -= a * a;
        }
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 21, 21>> es(0.5 *
                                                                        (r.casimir + r.casimir.transpose()));
        r.eigenvalues = es.eigenvalues();
        const double target[] = {0, 6, 20};
        for (int l = 0; l < 3; ++l) {
            std::vector<int> cols;
            for (int k = 0; k < 21; ++k)
                if (std::abs(r.eigenvalues(k) - target[l]) < 1e-8)
                    cols.push_back(k);
            r.dims[size_t(l)] = int(cols.size());
            r.bases[size_t(l)].resize(21, Eigen::Index(cols.size()));
            for (size_t c = 0; c < cols.size(); ++c)
                r.bases[size_t(l)].col(Eigen::Index(c)) = es.eigenvectors().col(cols[c]);
        }
        return r;
    }();
    return d;
}

} // namespace pl::equicov
