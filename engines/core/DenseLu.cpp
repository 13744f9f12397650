#include "DenseLu.h"

#include <Eigen/LU>

namespace pl {

Eigen::VectorXd luSolve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b) {
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(A);
    return lu.solve(b);
}

Eigen::MatrixXd luInverse(const Eigen::MatrixXd& A) {
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(A);
    return lu.inverse();
}

} // namespace pl
