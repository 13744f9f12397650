#include "Selectors.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace pl::distill {

std::vector<int> herding(const Eigen::MatrixXd& phi, const Eigen::RowVectorXd& mu, int count) {
    const int n = int(phi.rows());
    count = std::clamp(count, 0, n);
    std::vector<int> S;
    std::vector<char> used(size_t(n), 0);
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(phi.cols());
    for (int k = 1; k <= count; ++k) {
        double best = std::numeric_limits<double>::infinity();
        int arg = -1;
        for (int i = 0; i < n; ++i) {
            if (used[size_t(i)])
                continue;
            const double d = (mu - (sum + phi.row(i)) / double(k)).squaredNorm();
            if (d < best) {
                best = d;
                arg = i;
            }
        }
        used[size_t(arg)] = 1;
        sum += phi.row(arg);
        S.push_back(arg);
    }
    return S;
}

std::vector<int> kcenter(const Eigen::MatrixXd& phi, const Eigen::RowVectorXd& mu, int count) {
    const int n = int(phi.rows());
    count = std::clamp(count, 0, n);
    std::vector<int> S;
    if (count == 0)
        return S;
    Eigen::Index first = 0;
    (phi.rowwise() - mu).rowwise().squaredNorm().minCoeff(&first); // lowest index on ties
    S.push_back(int(first));
    Eigen::VectorXd dmin = (phi.rowwise() - phi.row(first)).rowwise().squaredNorm();
    std::vector<char> used(size_t(n), 0);
    used[size_t(first)] = 1;
    while (int(S.size()) < count) {
        double best = -1;
        int arg = -1;
        for (int i = 0; i < n; ++i)
            if (!used[size_t(i)] && dmin(i) > best) {
                best = dmin(i);
                arg = i;
            }
        used[size_t(arg)] = 1;
        S.push_back(arg);
        dmin = dmin.cwiseMin((phi.rowwise() - phi.row(arg)).rowwise().squaredNorm());
    }
    return S;
}

std::vector<int> selectWith(Selector s, const Eigen::MatrixXd& phi, const Eigen::RowVectorXd& mu, int count) {
    return s == Selector::Herding ? herding(phi, mu, count) : kcenter(phi, mu, count);
}

std::vector<int> randomSubset(int n, int count, Rng& rng) {
    std::vector<int> idx(size_t(std::max(0, n)));
    std::iota(idx.begin(), idx.end(), 0);
    count = std::clamp(count, 0, n);
    for (int i = 0; i < count; ++i)
        std::swap(idx[size_t(i)], idx[size_t(i) + size_t(rng.uniformInt(uint64_t(n - i)))]);
    idx.resize(size_t(count));
    return idx;
}

} // namespace pl::distill
