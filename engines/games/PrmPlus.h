#pragma once
/// Predictive Regret Matching+ (Farina, Kroer, Sandholm 2021) for a zero-sum matrix game in
/// which the row player maximises x^T A y. Per player: regrets R >= 0, prediction m = the last
/// instantaneous regret, strategy proportional to [R + m]^+ (uniform when zero), R <- [R + r]^+.
/// Alternating (CFR+ style: each player's regret is evaluated against the opponent's newest
/// strategy) or simultaneous updates; averages weighted by t^p (p = 0, 1 linear, 2 quadratic).
/// Two products with A per iteration; the averaged iterate's duality gap is tracked from the
/// running averages of those products at no extra product. Not thread-safe; holds a reference
/// to A, which must outlive it.

#include "NashGap.h"
#include "SolverWork.h"

#include <Eigen/Core>
#include <cstdint>

namespace pl::games {

class PrmPlus {
public:
    PrmPlus(const Eigen::MatrixXd& A, bool alternating, int averagingPower, SolverWork& work);

    /// One iteration (two products with A).
    void step();
    /// Iterations done so far.
    int64_t iteration() const { return m_t; }

    /// Duality gap of the averaged strategies from the running averages of A y_t and A^T x_t
    /// (free, accurate to rounding).
    double averageGapEstimate() const { return m_avgAy.maxCoeff() - m_avgAtx.minCoeff(); }
    /// Exact certificate of the averaged strategies (two products); also re-synchronises the
    /// running averages used by averageGapEstimate().
    ZeroSumCertificate exactAverageCertificate();
    /// Duality gap of the last iterate (x_t, y_t) (free).
    double lastIterateGap() const { return m_gy.maxCoeff() - m_gx.minCoeff(); }

    const Eigen::VectorXd& averageX() const { return m_avgX; }
    const Eigen::VectorXd& averageY() const { return m_avgY; }
    /// A * averageY() and A^T * averageX() as of the last exactAverageCertificate() (or running).
    const Eigen::VectorXd& averageAy() const { return m_avgAy; }
    const Eigen::VectorXd& averageAtx() const { return m_avgAtx; }
    const Eigen::VectorXd& lastX() const { return m_x; }
    const Eigen::VectorXd& lastY() const { return m_y; }

private:
    static void strategy(const Eigen::VectorXd& R, const Eigen::VectorXd& m, Eigen::VectorXd& out);

    const Eigen::MatrixXd& m_A;
    bool m_alternating;
    int m_power;
    SolverWork& m_work;
    int64_t m_t = 0;
    double m_weightSum = 0;
    Eigen::VectorXd m_Rx, m_Ry, m_mx, m_my; // regrets and predictions
    Eigen::VectorXd m_x, m_y;               // current strategies
    Eigen::VectorXd m_gx, m_gy;             // A^T x_t and A y_t
    Eigen::VectorXd m_avgX, m_avgY, m_avgAy, m_avgAtx;
};

} // namespace pl::games
