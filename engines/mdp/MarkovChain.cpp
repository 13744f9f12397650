#include "mdp/MarkovChain.h"

#include "core/Errors.h"

#include <Eigen/LU>

namespace pl::mdp {

Eigen::VectorXd stationaryLaw(const Eigen::MatrixXd& P) {
    const Eigen::Index n = P.rows();
    Eigen::MatrixXd M = P.transpose() - Eigen::MatrixXd::Identity(n, n);
    M.row(n - 1).setOnes();
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n);
    rhs(n - 1) = 1;
    Eigen::FullPivLU<Eigen::MatrixXd> lu(M);
    if (!lu.isInvertible())
        throw EngineError("the behaviour chain has no unique stationary law (more than one closed class)");
    Eigen::VectorXd pi = lu.solve(rhs);
    pi = pi.cwiseMax(0.0);
    return pi / pi.sum();
}

MixingProfile mixingProfile(const Eigen::MatrixXd& P, const Eigen::VectorXd& pi, int minSteps, int maxSteps) {
    MixingProfile out;
    Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(P.rows(), P.cols());
    const Eigen::RowVectorXd piRow = pi.transpose();
    for (int t = 0; t <= maxSteps; ++t) {
        const double tv = 0.5 * (Q.rowwise() - piRow).cwiseAbs().rowwise().sum().maxCoeff();
        out.tv.push_back(tv);
        if (out.tMix < 0 && tv <= 0.25)
            out.tMix = t;
        if (out.tMix >= 0 && t >= minSteps)
            break;
        Q = Q * P;
    }
    return out;
}

} // namespace pl::mdp
