#include "nn/MatrixFunctionOps.h"

#include "core/Errors.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>
#include <string>

namespace pl::nn {

namespace {

Tape& tapeOf(Var a) {
    if (!a.tape || a.id < 0)
        throw EngineError("nn: invalid Var");
    return *a.tape;
}

/// Row k of a batch as an n x n matrix.
Mat unpack(const Mat& batch, Eigen::Index k, int n) {
    Mat m(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            m(i, j) = batch(k, i * n + j);
    return m;
}

void pack(const Mat& m, Mat& batch, Eigen::Index k) {
    const Eigen::Index n = m.rows();
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
            batch(k, i * n + j) = m(i, j);
}

/// Asymptotic log K_nu(z) for large z (Abramowitz & Stegun 9.7.2).
double logBesselKAsymptotic(double nu, double z) {
    const double mu = 4 * nu * nu;
    double term = 1, sum = 1;
    for (int k = 1; k <= 8; ++k) {
        term *= (mu - double((2 * k - 1) * (2 * k - 1))) / (double(k) * 8.0 * z);
        sum += term;
    }
    return 0.5 * std::log(std::numbers::pi / (2 * z)) - z + std::log(sum);
}

constexpr double kAsymptoticFrom = 600.0;

} // namespace

double logBesselKValue(double nu, double z) {
    if (!(z > 0))
        throw EngineError("nn::logBesselK: argument must be positive, got " + std::to_string(z));
    if (z > kAsymptoticFrom)
        return logBesselKAsymptotic(nu, z);
    return std::log(std::cyl_bessel_k(std::abs(nu), z));
}

double logBesselKDerivative(double nu, double z) {
    // K_{nu-1} + K_{nu+1} over K_nu, as differences of logs so that large z does not underflow.
    const double l = logBesselKValue(nu, z);
    const double a = logBesselKValue(std::abs(nu - 1), z) - l, b = logBesselKValue(std::abs(nu + 1), z) - l;
    return -0.5 * (std::exp(a) + std::exp(b));
}

namespace {

/// symExpm for matrices of a size known at compile time (N = 6: fixed-size Eigen, the equivariant-
/// covariance case; N = -1: dynamic). Forward values into \a out; the eigen pairs for the backward into \a
/// vecs / \a vals.
template <int N>
void symExpmForward(const Mat& in, int n, Mat& out, std::vector<Mat>& vecs,
                    std::vector<Eigen::VectorXd>& vals) {
    using M = Eigen::Matrix<double, N, N, Eigen::RowMajor>;
    Eigen::SelfAdjointEigenSolver<M> es;
    for (Eigen::Index k = 0; k < in.rows(); ++k) {
        const M s = Eigen::Map<const M>(in.row(k).eval().data(), n, n);
        es.compute(0.5 * (s + s.transpose()));
        const M e = es.eigenvectors() * es.eigenvalues().array().exp().matrix().asDiagonal() *
                    es.eigenvectors().transpose();
        out.row(k) = Eigen::Map<const Eigen::RowVectorXd>(e.data(), n * n);
        vecs[size_t(k)] = es.eigenvectors();
        vals[size_t(k)] = es.eigenvalues();
    }
}

template <int N>
Mat symExpmBackward(const Mat& g, int n, const std::vector<Mat>& vecs,
                    const std::vector<Eigen::VectorXd>& vals) {
    using M = Eigen::Matrix<double, N, N, Eigen::RowMajor>;
    Mat gin(g.rows(), g.cols());
    M f(n, n);
    for (Eigen::Index k = 0; k < g.rows(); ++k) {
        const M u = vecs[size_t(k)];
        const Eigen::VectorXd& l = vals[size_t(k)];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const double d = l(i) - l(j);
                f(i, j) = std::abs(d) < 1e-9 * (1 + std::abs(l(i))) ? std::exp(0.5 * (l(i) + l(j)))
                                                                    : (std::exp(l(i)) - std::exp(l(j))) / d;
            }
        const M gk = Eigen::Map<const M>(g.row(k).eval().data(), n, n);
        const M gx = u * f.cwiseProduct(u.transpose() * gk * u) * u.transpose();
        const M sym = 0.5 * (gx + gx.transpose());
        gin.row(k) = Eigen::Map<const Eigen::RowVectorXd>(sym.data(), n * n);
    }
    return gin;
}

} // namespace

Var symExpm(Var batch, int n) {
    Tape& t = tapeOf(batch);
    const Mat& in = batch.value();
    if (n <= 0 || in.cols() != Eigen::Index(n) * n)
        throw EngineError("nn::symExpm: expected rows of " + std::to_string(n * n) + " entries, got " +
                          std::to_string(in.cols()));
    const Eigen::Index count = in.rows();
    Mat out(count, in.cols());
    std::vector<Mat> vecs(static_cast<size_t>(count));
    std::vector<Eigen::VectorXd> vals(static_cast<size_t>(count));
    if (n == 6)
        symExpmForward<6>(in, n, out, vecs, vals);
    else
        symExpmForward<Eigen::Dynamic>(in, n, out, vecs, vals);
    return t.push(std::move(out), t.requiresGrad(batch),
                  [batch, n, vecs = std::move(vecs), vals = std::move(vals)](Tape& t, const Mat& g) {
                      t.accumulate(batch, n == 6 ? symExpmBackward<6>(g, n, vecs, vals)
                                                 : symExpmBackward<Eigen::Dynamic>(g, n, vecs, vals));
                  });
}

Var rowQuadForm(Var r, Var m) {
    Tape& t = tapeOf(r);
    const Eigen::Index n = r.cols();
    if (m.rows() != r.rows() || m.cols() != n * n)
        throw EngineError("nn::rowQuadForm: r is " + std::to_string(r.rows()) + "x" + std::to_string(n) +
                          ", m must be " + std::to_string(r.rows()) + "x" + std::to_string(n * n));
    Mat q(r.rows(), 1);
    for (Eigen::Index k = 0; k < r.rows(); ++k) {
        const Eigen::VectorXd rk = r.value().row(k).transpose();
        q(k, 0) = rk.dot(unpack(m.value(), k, int(n)) * rk);
    }
    return t.push(std::move(q), t.requiresGrad(r) || t.requiresGrad(m), [r, m, n](Tape& t, const Mat& g) {
        Mat gr(r.rows(), n), gm(m.rows(), m.cols());
        for (Eigen::Index k = 0; k < r.rows(); ++k) {
            const Eigen::VectorXd rk = r.value().row(k).transpose();
            const Mat mk = unpack(m.value(), k, int(n));
            gr.row(k) = (g(k, 0) * (mk + mk.transpose()) * rk).transpose();
            pack(g(k, 0) * rk * rk.transpose(), gm, k);
        }
        if (t.requiresGrad(r))
            t.accumulate(r, gr);
        if (t.requiresGrad(m))
            t.accumulate(m, gm);
    });
}

Var logBesselK(Var z, double nu) {
    Tape& t = tapeOf(z);
    Mat out = z.value().unaryExpr([nu](double x) { return logBesselKValue(nu, x); });
    return t.push(std::move(out), t.requiresGrad(z), [z, nu](Tape& t, const Mat& g) {
        t.accumulate(
            z, g.cwiseProduct(z.value().unaryExpr([nu](double x) { return logBesselKDerivative(nu, x); })));
    });
}

} // namespace pl::nn
