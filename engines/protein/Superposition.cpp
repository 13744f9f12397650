#include "Superposition.h"

#include <Eigen/Dense>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace pl::protein {

Eigen::Matrix3Xd Superposition::apply(const Eigen::Matrix3Xd& x) const {
    return (rotation * x).colwise() + translation;
}

Eigen::Matrix3d kabschRotation(const Eigen::Matrix3d& H) {
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Eigen::Matrix3d U = svd.matrixU();
    const Eigen::Matrix3d V = svd.matrixV();
    const double d = (V * U.transpose()).determinant() < 0 ? -1.0 : 1.0;
    Eigen::Matrix3d D = Eigen::Matrix3d::Identity();
    D(2, 2) = d;
    return V * D * U.transpose();
}

Superposition kabsch(const Eigen::Matrix3Xd& mobile, const Eigen::Matrix3Xd& target) {
    if (mobile.cols() != target.cols() || mobile.cols() < 1)
        throw std::invalid_argument("kabsch: point sets differ in size or are empty");
    const Eigen::Vector3d cm = mobile.rowwise().mean();
    const Eigen::Vector3d ct = target.rowwise().mean();
    const Eigen::Matrix3Xd x = mobile.colwise() - cm;
    const Eigen::Matrix3Xd y = target.colwise() - ct;
    Superposition s;
    s.rotation = kabschRotation(x * y.transpose());
    s.translation = ct - s.rotation * cm;
    s.rmsd = std::sqrt(std::max(0.0, ((s.rotation * x) - y).squaredNorm() / double(x.cols())));
    return s;
}

double qcpRmsd(const Eigen::Matrix3d& H, double G1, double G2, long n) {
    // Horn's symmetric, traceless 4x4 quaternion matrix K; its largest eigenvalue lambda gives
    // the minimal squared deviation G1 + G2 - 2 lambda. For a traceless K the characteristic
    // polynomial is l^4 + c2 l^2 + c1 l + c0 with c2 = -tr(K^2)/2, c1 = -tr(K^3)/3, c0 = det K
    // (Newton's identities); Newton's method from the upper bound (G1 + G2)/2 converges to the
    // largest root monotonically (Theobald 2005).
    const double Sxx = H(0, 0), Sxy = H(0, 1), Sxz = H(0, 2);
    const double Syx = H(1, 0), Syy = H(1, 1), Syz = H(1, 2);
    const double Szx = H(2, 0), Szy = H(2, 1), Szz = H(2, 2);
    Eigen::Matrix4d K;
    K << Sxx + Syy + Szz, Syz - Szy, Szx - Sxz, Sxy - Syx, //
        Syz - Szy, Sxx - Syy - Szz, Sxy + Syx, Szx + Sxz,  //
        Szx - Sxz, Sxy + Syx, -Sxx + Syy - Szz, Syz + Szy, //
        Sxy - Syx, Szx + Sxz, Syz + Szy, -Sxx - Syy + Szz;
    const Eigen::Matrix4d K2 = K * K;
    const double c2 = -0.5 * K2.trace();
    const double c1 = -(K2.cwiseProduct(K.transpose())).sum() / 3.0;
    const double c0 = K.determinant();
    const double E0 = 0.5 * (G1 + G2);
    double l = E0;
    for (int it = 0; it < 50; ++it) {
        const double l2 = l * l;
        const double p = l2 * l2 + c2 * l2 + c1 * l + c0;
        const double dp = 4 * l2 * l + 2 * c2 * l + c1;
        if (dp == 0)
            break;
        const double step = p / dp;
        l -= step;
        if (std::abs(step) < 1e-11 * std::abs(l))
            break;
    }
    return std::sqrt(std::max(0.0, 2.0 * (E0 - l) / double(n)));
}

double rmsdNoFit(const Eigen::Matrix3Xd& a, const Eigen::Matrix3Xd& b) {
    if (a.cols() != b.cols() || a.cols() == 0)
        throw std::invalid_argument("rmsd: point sets differ in size or are empty");
    return std::sqrt((a - b).squaredNorm() / double(a.cols()));
}

bool wellConditioned(const Eigen::Matrix3Xd& x) {
    if (x.cols() < 3)
        return false;
    const Eigen::Matrix3Xd c = x.colwise() - x.rowwise().mean();
    // Singular values of the 3 x n cloud = those of R in c^T = QR; the 3 x 3 Jacobi SVD is the
    // one Kabsch already uses (a dynamic-size JacobiSVD would double this file's compile time).
    const Eigen::HouseholderQR<Eigen::MatrixX3d> qr(c.transpose());
    const Eigen::Matrix3d R = qr.matrixQR().topRows<3>().triangularView<Eigen::Upper>();
    const Eigen::Vector3d s = Eigen::JacobiSVD<Eigen::Matrix3d>(R).singularValues();
    return s(0) > 0 && s(1) / s(0) >= 1e-8;
}

Eigen::MatrixXd rmsdMatrix(const std::vector<Eigen::Matrix3Xd>& models,
                           const std::function<void(double)>& poll, int threads) {
    const long N = long(models.size());
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(N, N);
    if (N == 0)
        return out;
    const long L = models.front().cols();
    // Centred coordinates stacked as a (3N x L) matrix: all cross-covariances come from one GEMM
    // C = X X^T (3N x 3N), block (i, j) being H_ij = x_i y_j^T.
    Eigen::MatrixXd X(3 * N, L);
    Eigen::VectorXd G(N);
    for (long i = 0; i < N; ++i) {
        if (models[size_t(i)].cols() != L)
            throw std::invalid_argument("rmsdMatrix: models differ in residue count");
        const Eigen::Matrix3Xd c = models[size_t(i)].colwise() - models[size_t(i)].rowwise().mean();
        X.middleRows(3 * i, 3) = c;
        G(i) = c.squaredNorm();
    }
    // Row blocks keep memory at O(block * N) instead of the full (3N)^2 product.
    const long block = std::max(1L, std::min(N, 4096L * 64 / std::max(1L, N)));
    const int nThreads = std::max(1, threads);
    for (long r0 = 0; r0 < N; r0 += block) {
        const long r1 = std::min(N, r0 + block);
        // Only the upper triangle is needed: columns from r0 on.
        const Eigen::MatrixXd C =
            X.middleRows(3 * r0, 3 * (r1 - r0)) * X.bottomRows(3 * (N - r0)).transpose();
        auto work = [&](long from, long to) {
            for (long i = from; i < to; ++i)
                for (long j = i + 1; j < N; ++j) {
                    const Eigen::Matrix3d H = C.block<3, 3>(3 * (i - r0), 3 * (j - r0));
                    const double v = qcpRmsd(H, G(i), G(j), L);
                    out(i, j) = v;
                    out(j, i) = v;
                }
        };
        if (nThreads == 1 || r1 - r0 < 2 * nThreads) {
            work(r0, r1);
        } else {
            std::vector<std::thread> pool;
            const long per = (r1 - r0 + nThreads - 1) / nThreads;
            for (int t = 0; t < nThreads; ++t) {
                const long a = r0 + t * per, b = std::min(r1, a + per);
                if (a < b)
                    pool.emplace_back(work, a, b);
            }
            for (auto& th : pool)
                th.join();
        }
        if (poll)
            poll(double(r1) / double(N));
    }
    return out;
}

std::vector<Eigen::Matrix3Xd> iterativeAlign(const std::vector<Eigen::Matrix3Xd>& models, int iterations) {
    std::vector<Eigen::Matrix3Xd> out = models;
    if (models.empty())
        return out;
    Eigen::Matrix3Xd ref = models.front();
    for (int it = 0; it < std::max(1, iterations); ++it) {
        Eigen::Matrix3Xd mean = Eigen::Matrix3Xd::Zero(3, ref.cols());
        for (size_t i = 0; i < models.size(); ++i) {
            out[i] = kabsch(models[i], ref).apply(models[i]);
            mean += out[i];
        }
        ref = mean / double(models.size());
    }
    return out;
}

} // namespace pl::protein
