#include "LogitLens.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::hiddenstate {

Eigen::VectorXd lensLogNormaliser(const Eigen::MatrixXd& H, const Eigen::MatrixXd& W, double scale) {
    // V x n: each state's logits are one contiguous column (vectorised max and exp).
    const Eigen::MatrixXd z = scale * (W * H.transpose());
    Eigen::VectorXd out(z.cols());
    for (Eigen::Index i = 0; i < z.cols(); ++i) {
        const double m = z.col(i).maxCoeff();
        out(i) = m + std::log((z.col(i).array() - m).exp().sum());
    }
    return out;
}

Eigen::VectorXd lensProbOfToken(const Eigen::MatrixXd& H, const Eigen::MatrixXd& W, double scale, int token,
                                const Eigen::VectorXd& logNormaliser) {
    const Eigen::VectorXd z = scale * (H * W.row(token).transpose());
    return (z - logNormaliser).array().exp().matrix();
}

std::vector<int> topKIndices(const Eigen::VectorXd& v, int k) {
    std::vector<int> idx(size_t(v.size()));
    std::iota(idx.begin(), idx.end(), 0);
    const auto kk = size_t(std::clamp<Eigen::Index>(k, 0, v.size()));
    std::partial_sort(idx.begin(), idx.begin() + std::ptrdiff_t(kk), idx.end(),
                      [&](int a, int b) { return v(a) > v(b) || (v(a) == v(b) && a < b); });
    idx.resize(kk);
    return idx;
}

double cosine(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    const double na = a.norm(), nb = b.norm();
    return na > 0 && nb > 0 ? a.dot(b) / (na * nb) : 0.0;
}

} // namespace pl::hiddenstate
