#include "PrmPlus.h"

#include "Simplex.h"

#include <algorithm>
#include <cmath>

namespace pl::games {

PrmPlus::PrmPlus(const Eigen::MatrixXd& A, bool alternating, int averagingPower, SolverWork& work)
    : m_A(A), m_alternating(alternating), m_power(averagingPower), m_work(work) {
    const Eigen::Index n = A.rows(), m = A.cols();
    m_Rx = m_mx = Eigen::VectorXd::Zero(n);
    m_Ry = m_my = Eigen::VectorXd::Zero(m);
    m_x = Eigen::VectorXd::Constant(n, 1.0 / double(n));
    m_y = Eigen::VectorXd::Constant(m, 1.0 / double(m));
    m_gx = Eigen::VectorXd::Zero(m);
    m_gy = Eigen::VectorXd::Zero(n);
    m_avgX = m_x;
    m_avgY = m_y;
    m_avgAy = Eigen::VectorXd::Zero(n);
    m_avgAtx = Eigen::VectorXd::Zero(m);
}

void PrmPlus::strategy(const Eigen::VectorXd& R, const Eigen::VectorXd& m, Eigen::VectorXd& out) {
    const Eigen::Index n = R.size();
    const double* r = R.data();
    const double* p = m.data();
    double* o = out.data();
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double v = std::max(r[i] + p[i], 0.0);
        o[i] = v;
        sum += v;
    }
    if (sum > 0) {
        const double inv = 1.0 / sum;
        for (Eigen::Index i = 0; i < n; ++i)
            o[i] *= inv;
    } else {
        out.setConstant(1.0 / double(n));
    }
}

namespace {

/// r = u - <u, s> 1; prediction <- r; R <- [R + r]^+ (one fused pass).
void regretUpdate(const Eigen::VectorXd& u, double sign, const Eigen::VectorXd& s, Eigen::VectorXd& R,
                  Eigen::VectorXd& pred) {
    const Eigen::Index n = u.size();
    const double base = sign * u.dot(s);
    const double* up = u.data();
    double* rp = R.data();
    double* mp = pred.data();
    for (Eigen::Index i = 0; i < n; ++i) {
        const double r = sign * up[i] - base;
        mp[i] = r;
        rp[i] = std::max(rp[i] + r, 0.0);
    }
}

/// avg += a (v - avg) and avgG += a (g - avgG) in one pass.
void averageUpdate(double a, const Eigen::VectorXd& v, const Eigen::VectorXd& g, Eigen::VectorXd& avg,
                   Eigen::VectorXd& avgG) {
    const Eigen::Index n = v.size();
    const double* vp = v.data();
    const double* gp = g.data();
    double* ap = avg.data();
    double* bp = avgG.data();
    for (Eigen::Index i = 0; i < n; ++i) {
        ap[i] += a * (vp[i] - ap[i]);
        bp[i] += a * (gp[i] - bp[i]);
    }
}

} // namespace

void PrmPlus::step() {
    ++m_t;
    const double n = double(m_A.rows()), m = double(m_A.cols());
    strategy(m_Rx, m_mx, m_x);
    if (m_alternating) {
        // The column player (minimiser, utility -A^T x) evaluates its current strategy against
        // the new x, updates its regrets and plays its new strategy; the row player then
        // evaluates x_t against that y_t (CFR+-style alternation).
        m_gx.noalias() = m_A.transpose() * m_x;
        m_work.matvec();
        regretUpdate(m_gx, -1.0, m_y, m_Ry, m_my);
        strategy(m_Ry, m_my, m_y);
        m_gy.noalias() = m_A * m_y;
        m_work.matvec();
    } else {
        strategy(m_Ry, m_my, m_y);
        m_gx.noalias() = m_A.transpose() * m_x;
        m_gy.noalias() = m_A * m_y;
        m_work.matvec();
        m_work.matvec();
        regretUpdate(m_gx, -1.0, m_y, m_Ry, m_my);
    }
    regretUpdate(m_gy, 1.0, m_x, m_Rx, m_mx);

    // Weighted averages of (x_t, y_t) and of (A y_t, A^T x_t).
    const double w = m_power == 0 ? 1.0 : (m_power == 1 ? double(m_t) : double(m_t) * double(m_t));
    m_weightSum += w;
    const double a = w / m_weightSum;
    averageUpdate(a, m_x, m_gy, m_avgX, m_avgAy);
    averageUpdate(a, m_y, m_gx, m_avgY, m_avgAtx);
    m_work.add(14.0 * (n + m));
}

ZeroSumCertificate PrmPlus::exactAverageCertificate() {
    m_avgAy.noalias() = m_A * m_avgY;
    m_avgAtx.noalias() = m_A.transpose() * m_avgX;
    m_work.matvec();
    m_work.matvec();
    ZeroSumCertificate c;
    c.upper = m_avgAy.maxCoeff();
    c.lower = m_avgAtx.minCoeff();
    c.value = m_avgX.dot(m_avgAy);
    return c;
}

} // namespace pl::games
