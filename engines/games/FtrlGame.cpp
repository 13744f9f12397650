#include "FtrlGame.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace pl::games {

int64_t ExactPayoffs::maxAbs() const {
    int64_t m = 0;
    for (int64_t v : a)
        m = std::max<int64_t>(m, v < 0 ? -v : v);
    for (int64_t v : b)
        m = std::max<int64_t>(m, v < 0 ? -v : v);
    return m;
}

std::optional<ExactPayoffs> exactFromDouble(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    if (A.rows() != B.rows() || A.cols() != B.cols() || A.size() == 0)
        return std::nullopt;
    constexpr double kLimit = double(int64_t(1) << 40);
    int64_t denominator = 1;
    for (int k = 0; k <= 6; ++k, denominator *= 10) {
        const double d = double(denominator);
        bool ok = true;
        auto fits = [&](double v) {
            if (!std::isfinite(v))
                return false;
            const double s = v * d;
            const double r = std::nearbyint(s);
            return std::abs(r) < kLimit && std::abs(s - r) <= 1e-12 * std::max(1.0, std::abs(s));
        };
        for (Eigen::Index i = 0; ok && i < A.size(); ++i)
            ok = fits(A.data()[i]) && fits(B.data()[i]);
        if (!ok)
            continue;
        ExactPayoffs e;
        e.rows = int(A.rows());
        e.cols = int(A.cols());
        e.denominator = denominator;
        e.a.resize(size_t(A.size()));
        e.b.resize(size_t(A.size()));
        for (int i = 0; i < e.rows; ++i)
            for (int j = 0; j < e.cols; ++j) {
                const size_t k2 = size_t(i) * size_t(e.cols) + size_t(j);
                e.a[k2] = int64_t(std::nearbyint(A(i, j) * d));
                e.b[k2] = int64_t(std::nearbyint(B(i, j) * d));
            }
        return e;
    }
    return std::nullopt;
}

void fillFromExact(FtrlGame& game) {
    const ExactPayoffs& e = *game.exact;
    game.A.resize(e.rows, e.cols);
    game.B.resize(e.rows, e.cols);
    const double d = double(e.denominator);
    for (int i = 0; i < e.rows; ++i)
        for (int j = 0; j < e.cols; ++j) {
            game.A(i, j) = double(e.aAt(i, j)) / d;
            game.B(i, j) = double(e.bAt(i, j)) / d;
        }
}

std::pair<int, int> bestPureNash(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    std::pair<int, int> best{-1, -1};
    double bestValue = -std::numeric_limits<double>::infinity();
    const Eigen::VectorXd colMax = A.colwise().maxCoeff(); // best row payoff against each column
    const Eigen::VectorXd rowMax = B.rowwise().maxCoeff(); // best column payoff against each row
    for (int i = 0; i < int(A.rows()); ++i)
        for (int j = 0; j < int(A.cols()); ++j) {
            if (A(i, j) < colMax(j) || B(i, j) < rowMax(i))
                continue;
            const double v = A(i, j) + B(i, j);
            if (v > bestValue) {
                bestValue = v;
                best = {i, j};
            }
        }
    return best;
}

} // namespace pl::games
