#include "DrsOperator.h"

#include "Simplex.h"
#include "core/DenseLu.h"
#include "core/Errors.h"

#include <Eigen/SVD>
#include <cmath>
#include <limits>

namespace pl::games {

namespace {

void centre(Eigen::Ref<Eigen::VectorXd> v) {
    if (v.size() > 0)
        v.array() -= v.mean();
}

} // namespace

DrsOperator::DrsOperator(const Eigen::MatrixXd& A, double gamma, SolverWork& work, const CheckFn& check,
                         int luMaxSize)
    : m_A(A), m_gamma(gamma), m_work(work), m_check(check), m_luMaxSize(luMaxSize) {
    if (!(gamma > 0) || !std::isfinite(gamma))
        throw EngineError("DRS step size gamma must be positive and finite");
    const Eigen::Index n = A.rows(), m = A.cols();
    m_factorCols = m <= n;
    const double g2 = gamma * gamma;
    if (m_factorCols) {
        gramPlusShift(A, g2, 1.0, 0.0, m_L, check);
    } else {
        const Eigen::MatrixXd At = A.transpose();
        gramPlusShift(At, g2, 1.0, 0.0, m_L, check);
    }
    const double k = double(std::min(n, m));
    work.add(double(std::max(n, m)) * k * k + k * k * k / 3.0);
    if (!choleskyInPlace(m_L, check))
        throw EngineError("DRS resolvent: I + gamma^2 A^T A is not numerically positive definite");
}

void DrsOperator::project(const Eigen::VectorXd& w, Eigen::VectorXd& z) const {
    const Eigen::Index n = m_A.rows(), m = m_A.cols();
    z.resize(n + m);
    projectSimplex(w.head(n), z.head(n));
    projectSimplex(w.tail(m), z.tail(m));
}

void DrsOperator::resolvent(const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    const Eigen::Index n = m_A.rows(), m = m_A.cols();
    out.resize(n + m);
    const auto a = v.head(n);
    const auto b = v.tail(m);
    if (m_factorCols) {
        // (I + g^2 A^T A) y = b - g A^T a ; x = a + g A y
        m_tmp.noalias() = m_A.transpose() * a;
        out.tail(m) = b - m_gamma * m_tmp;
        choleskySolveInPlace(m_L, out.tail(m));
        m_tmp2.noalias() = m_A * out.tail(m);
        out.head(n) = a + m_gamma * m_tmp2;
    } else {
        // (I + g^2 A A^T) x = a + g A b ; y = b - g A^T x
        m_tmp2.noalias() = m_A * b;
        out.head(n) = a + m_gamma * m_tmp2;
        choleskySolveInPlace(m_L, out.head(n));
        m_tmp.noalias() = m_A.transpose() * out.head(n);
        out.tail(m) = b - m_gamma * m_tmp;
    }
    m_work.matvec();
    m_work.matvec();
    const double k = double(m_L.rows());
    m_work.add(2.0 * k * k + 6.0 * double(n + m));
}

double DrsOperator::residual(const Eigen::VectorXd& w, Eigen::VectorXd& z, Eigen::VectorXd& R) {
    project(w, z);
    const Eigen::VectorXd v = 2.0 * z - w;
    resolvent(v, R);
    R = z - R;
    m_work.add(20.0 * double(w.size()));
    return R.norm();
}

Eigen::VectorXd DrsOperator::lift(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    const Eigen::Index n = m_A.rows(), m = m_A.cols();
    Eigen::VectorXd w(n + m);
    w.head(n) = x + m_gamma * (m_A * y);
    w.tail(m) = y - m_gamma * (m_A.transpose() * x);
    m_work.matvec();
    m_work.matvec();
    return w;
}

Eigen::MatrixXd DrsOperator::centredSubmatrix(const std::vector<int>& Sx, const std::vector<int>& Sy) const {
    const Eigen::Index sx = Eigen::Index(Sx.size()), sy = Eigen::Index(Sy.size());
    Eigen::MatrixXd C(sx, sy);
    for (Eigen::Index j = 0; j < sy; ++j)
        for (Eigen::Index i = 0; i < sx; ++i)
            C(i, j) = m_A(Sx[size_t(i)], Sy[size_t(j)]);
    const Eigen::VectorXd rowMean = C.rowwise().mean();
    C.colwise() -= rowMean;
    const Eigen::RowVectorXd colMean = C.colwise().mean();
    C.rowwise() -= colMean;
    return C;
}

void DrsOperator::applySkew(const Eigen::MatrixXd& C, double mu, const Eigen::VectorXd& p,
                            Eigen::VectorXd& out) const {
    const Eigen::Index sx = C.rows(), sy = C.cols();
    out.resize(sx + sy);
    out.head(sx).noalias() = mu * p.head(sx) - m_gamma * (C * p.tail(sy));
    out.tail(sy).noalias() = mu * p.tail(sy) + m_gamma * (C.transpose() * p.head(sx));
}

bool DrsOperator::solveReducedLu(const Eigen::MatrixXd& C, double mu, const Eigen::VectorXd& f,
                                 Eigen::VectorXd& p) {
    // K = mu I + gamma S + blockdiag(1 1^T / sx, 1 1^T / sy): the constant directions (outside
    // the zero-sum subspace, where S vanishes) get eigenvalue mu + 1 instead of mu.
    const Eigen::Index sx = C.rows(), sy = C.cols(), s = sx + sy;
    Eigen::MatrixXd K(s, s);
    K.topLeftCorner(sx, sx).setConstant(1.0 / double(sx));
    K.bottomRightCorner(sy, sy).setConstant(1.0 / double(sy));
    K.diagonal().array() += mu;
    K.topRightCorner(sx, sy) = -m_gamma * C;
    K.bottomLeftCorner(sy, sx) = m_gamma * C.transpose();
    if (m_check)
        m_check();
    p = luSolve(K, f);
    centre(p.head(sx));
    centre(p.tail(sy));
    m_work.add(2.0 * double(s) * double(s) * double(s) / 3.0 + 2.0 * double(s) * double(s));
    return p.allFinite();
}

bool DrsOperator::solveReducedNormal(const Eigen::MatrixXd& C, double mu, const Eigen::VectorXd& f,
                                     Eigen::VectorXd& p) {
    // (mu I + gamma S)^{-1} = (mu I - gamma S)(mu^2 I + gamma^2 S^T S)^{-1}, S^T S = blockdiag(C C^T,
    // C^T C): two Cholesky factorisations (cancellable), then iterative refinement against the
    // unsquared operator because the normal equations square the condition number.
    const Eigen::Index sx = C.rows(), sy = C.cols();
    const double g2 = m_gamma * m_gamma, mu2 = mu * mu;
    Eigen::MatrixXd Gx, Gy;
    const Eigen::MatrixXd Ct = C.transpose();
    gramPlusShift(Ct, g2, mu2, 1.0 / double(sx), Gx, m_check);
    gramPlusShift(C, g2, mu2, 1.0 / double(sy), Gy, m_check);
    if (!choleskyInPlace(Gx, m_check) || !choleskyInPlace(Gy, m_check))
        return false;
    const double dsx = double(sx), dsy = double(sy);
    m_work.add(dsx * dsy * (dsx + dsy) + (dsx * dsx * dsx + dsy * dsy * dsy) / 3.0);
    const auto solve = [&](const Eigen::VectorXd& rhs, Eigen::VectorXd& out) {
        Eigen::VectorXd gx = rhs.head(sx), gy = rhs.tail(sy);
        choleskySolveInPlace(Gx, gx);
        choleskySolveInPlace(Gy, gy);
        out.resize(sx + sy);
        out.head(sx) = mu * gx + m_gamma * (C * gy);
        out.tail(sy) = mu * gy - m_gamma * (Ct * gx);
        centre(out.head(sx));
        centre(out.tail(sy));
        m_work.add(2.0 * (dsx * dsx + dsy * dsy) + 4.0 * dsx * dsy);
    };
    solve(f, p);
    Eigen::VectorXd res, corr;
    for (int it = 0; it < 4; ++it) {
        applySkew(C, mu, p, res);
        res = f - res;
        m_work.add(4.0 * dsx * dsy);
        if (!(res.norm() > 1e-15 * f.norm()))
            break;
        solve(res, corr);
        p += corr;
    }
    return p.allFinite();
}

bool DrsOperator::newtonDirection(const Eigen::VectorXd& z, const Eigen::VectorXd& R, double mu,
                                  Eigen::VectorXd& d) {
    const Eigen::Index n = m_A.rows(), m = m_A.cols();
    const std::vector<int> Sx = supportOf(z.head(n));
    const std::vector<int> Sy = supportOf(z.tail(m));
    const Eigen::Index sx = Eigen::Index(Sx.size()), sy = Eigen::Index(Sy.size());
    if (sx == 0 || sy == 0)
        return false;

    // Right-hand side r = -(I + gamma M) R, M R = (-A R_y, A^T R_x).
    Eigen::VectorXd r(n + m);
    r.head(n) = -(R.head(n) - m_gamma * (m_A * R.tail(m)));
    r.tail(m) = -(R.tail(m) + m_gamma * (m_A.transpose() * R.head(n)));
    m_work.matvec();
    m_work.matvec();

    // Zero-sum part on the supports: (mu I + gamma S) p = f, S = [[0, -C], [C^T, 0]].
    const Eigen::MatrixXd C = centredSubmatrix(Sx, Sy);
    Eigen::VectorXd f(sx + sy);
    for (Eigen::Index i = 0; i < sx; ++i)
        f[i] = r[Sx[size_t(i)]];
    for (Eigen::Index j = 0; j < sy; ++j)
        f[sx + j] = r[n + Sy[size_t(j)]];
    centre(f.head(sx));
    centre(f.tail(sy));
    Eigen::VectorXd pS;
    const bool ok = sx + sy <= m_luMaxSize ? solveReducedLu(C, mu, f, pS) : solveReducedNormal(C, mu, f, pS);
    if (!ok || !pS.allFinite())
        return false;
    const Eigen::VectorXd px = pS.head(sx), py = pS.tail(sy);
    const double dsx = double(sx), dsy = double(sy);

    // Extend p by zero and form t = (r - gamma M p) / (1 + mu).
    Eigen::VectorXd p = Eigen::VectorXd::Zero(n + m);
    for (Eigen::Index i = 0; i < sx; ++i)
        p[Sx[size_t(i)]] = px[i];
    for (Eigen::Index j = 0; j < sy; ++j)
        p[n + Sy[size_t(j)]] = py[j];
    Eigen::VectorXd t(n + m);
    t.head(n) = (r.head(n) + m_gamma * (m_A * p.tail(m))) / (1.0 + mu);
    t.tail(m) = (r.tail(m) - m_gamma * (m_A.transpose() * p.head(n))) / (1.0 + mu);
    m_work.matvec();
    m_work.matvec();

    // On the supports: d = p + mean of t over the support; off the supports: d = t.
    d = t;
    double meanX = 0, meanY = 0;
    for (int i : Sx)
        meanX += t[i];
    for (int j : Sy)
        meanY += t[n + j];
    meanX /= dsx;
    meanY /= dsy;
    for (int i : Sx)
        d[i] = p[i] + meanX;
    for (int j : Sy)
        d[n + j] = p[n + j] + meanY;
    m_work.add(10.0 * double(n + m));
    return d.allFinite();
}

Eigen::MatrixXd DrsOperator::reducedNewtonMatrix(const Eigen::VectorXd& z, double mu) const {
    const Eigen::Index n = m_A.rows(), m = m_A.cols();
    const std::vector<int> Sx = supportOf(z.head(n));
    const std::vector<int> Sy = supportOf(z.tail(m));
    const Eigen::Index sx = Eigen::Index(Sx.size()), sy = Eigen::Index(Sy.size());
    Eigen::MatrixXd D = Eigen::MatrixXd::Zero(sx + sy, sx + sy);
    D.topLeftCorner(sx, sx).setConstant(-1.0 / double(std::max<Eigen::Index>(sx, 1)));
    D.bottomRightCorner(sy, sy).setConstant(-1.0 / double(std::max<Eigen::Index>(sy, 1)));
    D.diagonal().array() += 1.0;
    Eigen::MatrixXd Ms = Eigen::MatrixXd::Zero(sx + sy, sx + sy);
    for (Eigen::Index i = 0; i < sx; ++i)
        for (Eigen::Index j = 0; j < sy; ++j) {
            const double a = m_A(Sx[size_t(i)], Sy[size_t(j)]);
            Ms(i, sx + j) = -a;
            Ms(sx + j, i) = a;
        }
    Eigen::MatrixXd K = (1.0 + mu) * Eigen::MatrixXd::Identity(sx + sy, sx + sy) - D + m_gamma * Ms * D;
    return K;
}

double DrsOperator::reducedCondition(const Eigen::VectorXd& z, int maxSize) const {
    const Eigen::Index n = m_A.rows(), m = m_A.cols();
    const std::vector<int> Sx = supportOf(z.head(n));
    const std::vector<int> Sy = supportOf(z.tail(m));
    const Eigen::Index k = Eigen::Index(std::min(Sx.size(), Sy.size()));
    if (k > maxSize)
        return std::numeric_limits<double>::quiet_NaN();
    if (Sx.size() != Sy.size())
        return std::numeric_limits<double>::infinity(); // the skew system is singular
    if (k <= 1)
        return 1.0;
    const Eigen::MatrixXd C = centredSubmatrix(Sx, Sy);
    // C is square here (|Sx| = |Sy|), so two-sided Jacobi needs no QR preconditioner: as accurate
    // as BDCSVD (more, for small singular values) and a fifth of its compile time; k <= maxSize.
    Eigen::JacobiSVD<Eigen::MatrixXd, Eigen::NoQRPreconditioner> svd(C);
    const Eigen::VectorXd& s = svd.singularValues(); // descending; the last is the centring zero
    const double smin = s[k - 2];
    if (!(smin > 1e-14 * s[0]))
        return std::numeric_limits<double>::infinity();
    return s[0] / smin;
}

} // namespace pl::games
