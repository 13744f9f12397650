#include "convimg/Darcy.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include <cmath>
#include <vector>

namespace pl::convimg {

Eigen::MatrixXd defaultSource(int n) {
    Eigen::MatrixXd f = Eigen::MatrixXd::Zero(n, n);
    const double h = 1.0 / n;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const double cx = (x + 0.5) * h, cy = (y + 0.5) * h;
            if (cx <= 0.125 && cy <= 0.125)
                f(y, x) = 10.0;
            else if (cx >= 0.875 && cy >= 0.875)
                f(y, x) = -10.0;
        }
    return f;
}

Eigen::MatrixXd randomPermeability(int n, Rng& rng, int bumps, double amplitude) {
    Eigen::MatrixXd logK = Eigen::MatrixXd::Zero(n, n);
    const double h = 1.0 / n;
    for (int m = 0; m < bumps; ++m) {
        const double a = rng.normal(0.0, amplitude), cx = rng.uniform(), cy = rng.uniform();
        const double l = rng.uniform(0.1, 0.3);
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const double dx = (x + 0.5) * h - cx, dy = (y + 0.5) * h - cy;
                logK(y, x) += a * std::exp(-(dx * dx + dy * dy) / (2 * l * l));
            }
    }
    return logK.array().exp().matrix();
}

void requireCompatibleSource(const Eigen::MatrixXd& f, DarcyTask task) {
    if (task != DarcyTask::Joint)
        return;
    const double s = f.sum(), a = f.cwiseAbs().sum();
    if (std::abs(s) > 1e-9 * a)
        throw EngineError("task = joint (zero flux on every side) needs a compatible source: sum f = 0, but "
                          "sum f = " +
                          formatSignificant(s, 6) + " (sum |f| = " + formatSignificant(a, 6) +
                          "); the net inflow must be zero for a steady state to exist");
}

namespace {

inline double harmonic(double a, double b) {
    return 2 * a * b / (a + b);
}

} // namespace

DarcySolution solveDarcy(const Eigen::MatrixXd& K, const Eigen::MatrixXd& f, DarcyTask task, double g,
                         double tol) {
    const int n = int(K.rows()), N = n * n;
    const double h2 = 1.0 / (double(n) * n);
    std::vector<Eigen::Triplet<double>> trip;
    trip.reserve(size_t(N) * 5);
    Eigen::VectorXd diag = Eigen::VectorXd::Zero(N), b(N);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            b(y * n + x) = f(y, x) * h2;
    auto k = [&](int i) { return K(i / n, i % n); };
    forEachFace(n, task, [&](int a, int c, bool left) {
        if (c < 0) {
            const double T = 2 * k(a);
            diag(a) += T;
            if (left)
                b(a) += T * g;
            return;
        }
        const double T = harmonic(k(a), k(c));
        diag(a) += T;
        diag(c) += T;
        trip.emplace_back(a, c, -T);
        trip.emplace_back(c, a, -T);
    });
    for (int i = 0; i < N; ++i)
        trip.emplace_back(i, i, diag(i));
    Eigen::SparseMatrix<double> A(N, N);
    A.setFromTriplets(trip.begin(), trip.end());
    if (task == DarcyTask::Joint)
        b.array() -= b.mean(); // exact projection onto the range (sum f = 0 was checked by the caller)
    Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower | Eigen::Upper> cg;
    cg.setTolerance(tol);
    cg.setMaxIterations(20 * N);
    cg.compute(A);
    Eigen::VectorXd p = cg.solve(b);
    if (task == DarcyTask::Joint)
        p.array() -= p.mean();
    DarcySolution s;
    s.p.resize(n, n);
    for (int i = 0; i < N; ++i)
        s.p(i / n, i % n) = p(i);
    s.iterations = int(cg.iterations());
    s.error = cg.error();
    if (!std::isfinite(s.error) || s.error > std::max(tol, 1e-8) * 10)
        throw EngineError("Darcy CG did not converge (relative residual " + formatSignificant(s.error, 3) +
                          ")");
    return s;
}

Eigen::MatrixXd fvResidual(const Eigen::MatrixXd& K, const Eigen::MatrixXd& p, const Eigen::MatrixXd& f,
                           DarcyTask task, double g) {
    const int n = int(K.rows());
    const double inv = double(n) * n;
    Eigen::MatrixXd R = -f; // (A p - b) / h^2 = (A p) / h^2 - f - (Dirichlet terms) / h^2
    auto at = [n](Eigen::MatrixXd& m, int i) -> double& { return m(i / n, i % n); };
    auto cv = [n](const Eigen::MatrixXd& m, int i) { return m(i / n, i % n); };
    forEachFace(n, task, [&](int a, int c, bool left) {
        if (c < 0) {
            at(R, a) += 2 * cv(K, a) * (cv(p, a) - (left ? g : 0.0)) * inv;
            return;
        }
        const double flux = harmonic(cv(K, a), cv(K, c)) * (cv(p, a) - cv(p, c)) * inv;
        at(R, a) += flux;
        at(R, c) -= flux;
    });
    return R;
}

namespace {

/// numpy.gradient along one axis (central inside, one-sided first order at the ends), spacing h.
Eigen::MatrixXd gradientAlong(const Eigen::MatrixXd& m, bool alongX, double h) {
    const int n = int(m.rows());
    Eigen::MatrixXd d(n, n);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            auto v = [&](int i) { return alongX ? m(y, i) : m(i, x); };
            const int i = alongX ? x : y;
            d(y, x) = i == 0       ? (v(1) - v(0)) / h
                      : i == n - 1 ? (v(n - 1) - v(n - 2)) / h
                                   : (v(i + 1) - v(i - 1)) / (2 * h);
        }
    return d;
}

} // namespace

Eigen::MatrixXd fdResidual(const Eigen::MatrixXd& K, const Eigen::MatrixXd& p, const Eigen::MatrixXd& f) {
    const double h = 1.0 / double(K.rows());
    const Eigen::MatrixXd px = gradientAlong(p, true, h), py = gradientAlong(p, false, h);
    const Eigen::MatrixXd pxx = gradientAlong(px, true, h), pyy = gradientAlong(py, false, h);
    const Eigen::MatrixXd kx = gradientAlong(K, true, h), ky = gradientAlong(K, false, h);
    return (-(K.array() * pxx.array() + kx.array() * px.array() + K.array() * pyy.array() +
              ky.array() * py.array()) -
            f.array())
        .matrix();
}

} // namespace pl::convimg
