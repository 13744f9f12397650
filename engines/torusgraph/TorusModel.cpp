#include "TorusModel.h"

#include <cmath>
#include <numbers>

namespace pl::torusgraph {

void TorusLayout::pairNodes(int p, int* j, int* k) const {
    int jj = 0;
    while (p >= d - 1 - jj) {
        p -= d - 1 - jj;
        ++jj;
    }
    *j = jj;
    *k = jj + 1 + p;
}

Vec sufficientStats(const Eigen::Ref<const Vec>& x) {
    const int d = int(x.size());
    const TorusLayout L(d);
    Vec s(L.dim());
    for (int j = 0; j < d; ++j) {
        s(2 * j) = std::cos(x(j));
        s(2 * j + 1) = std::sin(x(j));
    }
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k) {
            const int64_t o = L.pairOffset(j, k);
            s(o) = std::cos(x(j) - x(k));
            s(o + 1) = std::sin(x(j) - x(k));
            s(o + 2) = std::cos(x(j) + x(k));
            s(o + 3) = std::sin(x(j) + x(k));
        }
    return s;
}

Mat statsJacobian(const Eigen::Ref<const Vec>& x) {
    const int d = int(x.size());
    const TorusLayout L(d);
    Mat D = Mat::Zero(L.dim(), d);
    for (int j = 0; j < d; ++j) {
        D(2 * j, j) = -std::sin(x(j));
        D(2 * j + 1, j) = std::cos(x(j));
    }
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k) {
            const int64_t o = L.pairOffset(j, k);
            const double sd = std::sin(x(j) - x(k)), cd = std::cos(x(j) - x(k));
            const double ss = std::sin(x(j) + x(k)), cs = std::cos(x(j) + x(k));
            D(o, j) = -sd;
            D(o, k) = sd;
            D(o + 1, j) = cd;
            D(o + 1, k) = -cd;
            D(o + 2, j) = -ss;
            D(o + 2, k) = -ss;
            D(o + 3, j) = cs;
            D(o + 3, k) = cs;
        }
    return D;
}

Vec statsLaplacianNeg(const Eigen::Ref<const Vec>& x) {
    // Each marginal harmonic has Σ_j ∂² = −1 × itself; each pair harmonic (frequencies ±1, ±1) −2 × itself.
    const int d = int(x.size());
    Vec h = sufficientStats(x);
    h.tail(h.size() - 2 * d) *= 2.0;
    return h;
}

void toQuadratic(const Vec& eta, int d, Vec* ell, Mat* W) {
    const TorusLayout L(d);
    ell->resize(2 * d);
    for (int j = 0; j < d; ++j) {
        (*ell)(j) = eta(2 * j);
        (*ell)(d + j) = eta(2 * j + 1);
    }
    W->setZero(2 * d, 2 * d);
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k) {
            const int64_t o = L.pairOffset(j, k);
            const double a = eta(o), b = eta(o + 1), c = eta(o + 2), e = eta(o + 3);
            // a cos(xj−xk) + b sin(xj−xk) + c cos(xj+xk) + e sin(xj+xk)
            //   = cj ck (a+c) + sj sk (a−c) + sj ck (b+e) + cj sk (e−b)
            (*W)(j, k) = (*W)(k, j) = a + c;
            (*W)(d + j, d + k) = (*W)(d + k, d + j) = a - c;
            (*W)(d + j, k) = (*W)(k, d + j) = b + e;
            (*W)(j, d + k) = (*W)(d + k, j) = e - b;
        }
}

Vec fromQuadraticGradient(const Vec& dEll, const Mat& dW, int d) {
    const TorusLayout L(d);
    Vec g(L.dim());
    for (int j = 0; j < d; ++j) {
        g(2 * j) = dEll(j);
        g(2 * j + 1) = dEll(d + j);
    }
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k) {
            const int64_t o = L.pairOffset(j, k);
            const double cc = dW(j, k) + dW(k, j), ss = dW(d + j, d + k) + dW(d + k, d + j);
            const double sc = dW(d + j, k) + dW(k, d + j), cs = dW(j, d + k) + dW(d + k, j);
            g(o) = cc + ss;
            g(o + 1) = sc - cs;
            g(o + 2) = cc - ss;
            g(o + 3) = sc + cs;
        }
    return g;
}

Mat energyGradient(const Mat& C, const Mat& S, const Vec& ell, const Mat& W) {
    const int d = int(C.cols());
    Mat Z(C.rows(), 2 * d);
    Z << C, S;
    Mat V = Z * W;
    V.rowwise() += ell.transpose();
    return (C.array() * V.rightCols(d).array() - S.array() * V.leftCols(d).array()).matrix();
}

Mat couplingStrength(const Vec& eta, int d) {
    const TorusLayout L(d);
    Mat m = Mat::Zero(d, d);
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k)
            m(j, k) = m(k, j) = eta.segment(L.pairOffset(j, k), 4).norm();
    return m;
}

Mat pairParameters(const Vec& eta, int d) {
    const TorusLayout L(d);
    Mat m(L.pairs(), 4);
    for (int p = 0; p < L.pairs(); ++p)
        m.row(p) = eta.segment(2ll * d + 4ll * p, 4).transpose();
    return m;
}

double wrapAngle(double a) {
    const double tau = 2.0 * std::numbers::pi;
    double r = std::fmod(a, tau);
    if (r < 0)
        r += tau;
    if (r >= tau)
        r = 0;
    return r;
}

} // namespace pl::torusgraph
