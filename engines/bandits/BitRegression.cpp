#include "BitRegression.h"

#include <Eigen/Cholesky>

namespace pl::bandits {

void BitRegression::fit(const PackedFingerprints& fp, const std::vector<int64_t>& rows,
                        const std::vector<double>& y, double noise, double priorScale) {
    const int D = 1 + fp.bits();
    Eigen::MatrixXd A = Eigen::MatrixXd::Identity(D, D) / (priorScale * priorScale);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(D);
    std::vector<int> idx(size_t(fp.bits()) + 1);
    const double w = 1.0 / (noise * noise);
    for (size_t k = 0; k < rows.size(); ++k) {
        idx[0] = 0;
        const int n = 1 + fp.setBits(rows[k], idx.data() + 1);
        for (int i = 1; i < n; ++i)
            ++idx[size_t(i)]; // feature index = 1 + bit
        for (int i = 0; i < n; ++i) {
            b[idx[size_t(i)]] += w * y[k];
            for (int j = 0; j < n; ++j)
                A(idx[size_t(i)], idx[size_t(j)]) += w;
        }
    }
    const Eigen::LLT<Eigen::MatrixXd> llt(A);
    m_cov = llt.solve(Eigen::MatrixXd::Identity(D, D));
    m_mean = m_cov * b;
}

void BitRegression::predict(const PackedFingerprints& fp, int64_t r, int* scratch, double& mean,
                            double& variance) const {
    const int n = fp.setBits(r, scratch);
    double m = m_mean[0];
    double v = m_cov(0, 0);
    for (int i = 0; i < n; ++i) {
        const int a = scratch[i] + 1;
        m += m_mean[a];
        const double* col = m_cov.data() + Eigen::Index(a) * m_cov.rows();
        double s = col[0]; // Σ_{a,0}
        for (int j = 0; j < i; ++j)
            s += col[scratch[j] + 1];
        v += 2 * s + col[a];
    }
    mean = m;
    variance = v;
}

} // namespace pl::bandits
