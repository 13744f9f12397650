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
    const int bytes = (fp.bits() + 7) / 8;
    m_byteSums.assign(size_t(bytes) * 256, 0.0);
    for (int k = 0; k < bytes; ++k)
        for (int v = 1; v < 256; ++v)
            for (int bit = 0; bit < 8; ++bit)
                if (((v >> bit) & 1) && 8 * k + bit < fp.bits())
                    m_byteSums[size_t(k) * 256 + size_t(v)] += m_mean[1 + 8 * k + bit];
}

double BitRegression::predictMean(const PackedFingerprints& fp, int64_t r) const {
    const uint64_t* w = fp.row(r);
    const int bytes = (fp.bits() + 7) / 8;
    double m = m_mean[0];
    const double* table = m_byteSums.data();
    for (int k = 0; k < bytes; ++k, table += 256)
        m += table[(w[k >> 3] >> ((k & 7) * 8)) & 0xff];
    return m;
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
