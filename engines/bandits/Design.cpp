#include "Design.h"

#include "core/Errors.h"

#include <ClpSimplex.hpp>
#include <Eigen/Dense>

#include <cmath>
#include <limits>

namespace pl::bandits {

Eigen::MatrixXd spanBasis(const Eigen::MatrixXd& X) {
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(X, Eigen::ComputeThinV);
    const Eigen::VectorXd& s = svd.singularValues();
    int r = 0;
    const double tol = std::max(1e-10, 1e-9 * (s.size() ? s[0] : 0.0));
    while (r < s.size() && s[r] > tol)
        ++r;
    return svd.matrixV().leftCols(r);
}

DesignResult gOptimalDesign(const Eigen::MatrixXd& Xfull, double eps, const std::vector<int>& active,
                            int maxIterations, const std::function<void()>& poll) {
    std::vector<int> rows = active;
    if (rows.empty())
        for (int i = 0; i < int(Xfull.rows()); ++i)
            rows.push_back(i);
    const int n = int(rows.size());
    Eigen::MatrixXd Xa(n, Xfull.cols());
    for (int i = 0; i < n; ++i)
        Xa.row(i) = Xfull.row(rows[size_t(i)]);
    // Work in coordinates of the span so that V(λ) is invertible.
    const Eigen::MatrixXd B = spanBasis(Xa);
    const int r = int(B.cols());
    DesignResult res;
    res.rank = r;
    res.weights = Eigen::VectorXd::Zero(Xfull.rows());
    if (r == 0 || n == 0)
        return res;
    const Eigen::MatrixXd Y = Xa * B; // n x r
    Eigen::VectorXd lam = Eigen::VectorXd::Constant(n, 1.0 / n);
    Eigen::MatrixXd V = Y.transpose() * lam.asDiagonal() * Y;
    Eigen::MatrixXd Vinv = V.ldlt().solve(Eigen::MatrixXd::Identity(r, r));
    Eigen::VectorXd g = (Y * Vinv).cwiseProduct(Y).rowwise().sum();
    Eigen::VectorXd u(r), yu(n);
    int it = 0;
    for (;; ++it) {
        Eigen::Index istar = 0;
        const double gmax = g.maxCoeff(&istar);
        res.gOverRank.push_back(gmax / r);
        res.gmax = gmax;
        if (gmax <= r * (1.0 + eps)) {
            res.converged = true;
            break;
        }
        if (it >= maxIterations)
            break;
        if (poll && it % 256 == 255)
            poll();
        const double gamma = (gmax / r - 1.0) / (gmax - 1.0);
        lam *= (1.0 - gamma);
        lam[istar] += gamma;
        // V' = (1-γ)V + γ y yᵀ  ⇒  V'⁻¹ = [V⁻¹ − c u uᵀ]/(1−γ), u = V⁻¹y, c = γ'/(1 + γ' yᵀu), γ' = γ/(1−γ).
        const double gp = gamma / (1.0 - gamma);
        u.noalias() = Vinv * Y.row(istar).transpose();
        const double c = gp / (1.0 + gp * gmax);
        yu.noalias() = Y * u;
        Vinv.noalias() -= c * u * u.transpose();
        Vinv /= (1.0 - gamma);
        g = (g - c * yu.cwiseAbs2()) / (1.0 - gamma);
        if (it % 64 == 63) { // refresh against drift of the rank-one updates
            V = Y.transpose() * lam.asDiagonal() * Y;
            Vinv = V.ldlt().solve(Eigen::MatrixXd::Identity(r, r));
            g = (Y * Vinv).cwiseProduct(Y).rowwise().sum();
        }
    }
    res.iterations = it;
    for (int i = 0; i < n; ++i)
        res.weights[rows[size_t(i)]] = lam[i];
    return res;
}

double designGmax(const Eigen::MatrixXd& X, const Eigen::VectorXd& weights) {
    const Eigen::MatrixXd B = spanBasis(X);
    if (B.cols() == 0)
        return 0;
    const Eigen::MatrixXd Y = X * B;
    const Eigen::MatrixXd V = Y.transpose() * weights.asDiagonal() * Y;
    const Eigen::MatrixXd Vinv = V.ldlt().solve(Eigen::MatrixXd::Identity(V.rows(), V.cols()));
    return (Y * Vinv).cwiseProduct(Y).rowwise().sum().maxCoeff();
}

FloorDesign floorDesign(const Eigen::MatrixXd& X) {
    const int K = int(X.rows()), d = int(X.cols());
    const double inf = std::numeric_limits<double>::infinity();
    // Columns: λ_1..λ_K, t. Rows: d coordinate rows (Σ_i λ_i x_ij − t ≥ 0), one simplex row.
    std::vector<CoinBigIndex> start;
    std::vector<int> index;
    std::vector<double> value;
    for (int i = 0; i < K; ++i) {
        start.push_back(CoinBigIndex(index.size()));
        for (int j = 0; j < d; ++j)
            if (X(i, j) != 0) {
                index.push_back(j);
                value.push_back(X(i, j));
            }
        index.push_back(d);
        value.push_back(1.0);
    }
    start.push_back(CoinBigIndex(index.size()));
    for (int j = 0; j < d; ++j) {
        index.push_back(j);
        value.push_back(-1.0);
    }
    start.push_back(CoinBigIndex(index.size()));
    std::vector<double> collb(size_t(K) + 1, 0.0), colub(size_t(K) + 1, inf), obj(size_t(K) + 1, 0.0);
    collb[size_t(K)] = -inf;
    obj[size_t(K)] = 1.0;
    std::vector<double> rowlb(size_t(d) + 1, 0.0), rowub(size_t(d) + 1, inf);
    rowlb[size_t(d)] = rowub[size_t(d)] = 1.0;
    ClpSimplex model;
    model.setLogLevel(0);
    model.loadProblem(K + 1, d + 1, start.data(), index.data(), value.data(), collb.data(), colub.data(),
                      obj.data(), rowlb.data(), rowub.data());
    model.setOptimizationDirection(-1);
    model.dual();
    if (!model.isProvenOptimal())
        throw EngineError("floor design: CLP did not reach an optimum (status " +
                          std::to_string(model.status()) + ")");
    FloorDesign out;
    out.weights.resize(K);
    const double* sol = model.primalColumnSolution();
    double sum = 0;
    for (int i = 0; i < K; ++i) {
        out.weights[i] = std::max(0.0, sol[i]);
        sum += out.weights[i];
    }
    if (sum > 0)
        out.weights /= sum;
    out.floor = (X.transpose() * out.weights).minCoeff();
    return out;
}

} // namespace pl::bandits
