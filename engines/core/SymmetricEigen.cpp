#include "SymmetricEigen.h"

#include <Eigen/Eigenvalues>

namespace pl {

SymmetricEigen symmetricEigen(const Eigen::MatrixXd& A) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(A);
    SymmetricEigen out;
    out.ok = es.info() == Eigen::Success;
    out.values = es.eigenvalues();
    out.vectors = es.eigenvectors();
    return out;
}

} // namespace pl
