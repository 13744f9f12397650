#include "Simplex.h"

#include <algorithm>
#include <functional>

namespace pl::games {

void projectSimplex(const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> out) {
    const Eigen::Index n = v.size();
    std::vector<double> u(v.data(), v.data() + n);
    std::sort(u.begin(), u.end(), std::greater<double>());
    // theta = (sum_{j<=rho} u_j - 1) / rho with rho the largest j such that u_j > theta_j.
    double cumsum = 0;
    double theta = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        cumsum += u[size_t(j)];
        const double t = (cumsum - 1.0) / double(j + 1);
        if (u[size_t(j)] - t > 0)
            theta = t;
    }
    for (Eigen::Index i = 0; i < n; ++i)
        out[i] = std::max(v[i] - theta, 0.0);
}

Eigen::VectorXd projectSimplex(const Eigen::VectorXd& v) {
    Eigen::VectorXd out(v.size());
    projectSimplex(v, out);
    return out;
}

std::vector<int> supportOf(const Eigen::Ref<const Eigen::VectorXd>& x, double threshold) {
    std::vector<int> s;
    for (Eigen::Index i = 0; i < x.size(); ++i)
        if (x[i] > threshold)
            s.push_back(int(i));
    return s;
}

Eigen::MatrixXd simplexProjectionJacobian(const Eigen::VectorXd& v) {
    const Eigen::VectorXd p = projectSimplex(v);
    const std::vector<int> S = supportOf(p);
    Eigen::MatrixXd D = Eigen::MatrixXd::Zero(v.size(), v.size());
    const double inv = S.empty() ? 0.0 : 1.0 / double(S.size());
    for (int i : S)
        for (int j : S)
            D(i, j) = (i == j ? 1.0 : 0.0) - inv;
    return D;
}

void normalizeOrUniform(Eigen::Ref<Eigen::VectorXd> v) {
    const double s = v.sum();
    if (s > 0)
        v /= s;
    else
        v.setConstant(1.0 / double(v.size()));
}

} // namespace pl::games
