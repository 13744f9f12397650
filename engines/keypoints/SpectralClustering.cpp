#include "SpectralClustering.h"

#include "core/Errors.h"
#include "core/SymmetricEigen.h"

#include <Eigen/SparseCholesky>
#include <Spectra/SymEigsShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace pl::keypoints {

SpMat normalisedLaplacian(const SpMat& W) {
    if (W.rows() != W.cols())
        throw std::invalid_argument("normalisedLaplacian: W must be square");
    const Eigen::Index n = W.rows();
    Eigen::VectorXd deg = Eigen::VectorXd::Zero(n);
    for (int k = 0; k < W.outerSize(); ++k)
        for (SpMat::InnerIterator it(W, k); it; ++it)
            deg(it.row()) += it.value();
    Eigen::VectorXd dis(n);
    for (Eigen::Index i = 0; i < n; ++i)
        dis(i) = deg(i) > 0 ? 1.0 / std::sqrt(deg(i)) : 0.0;
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(size_t(W.nonZeros() + n));
    for (Eigen::Index i = 0; i < n; ++i)
        t.emplace_back(i, i, 1.0);
    for (int k = 0; k < W.outerSize(); ++k)
        for (SpMat::InnerIterator it(W, k); it; ++it)
            t.emplace_back(it.row(), it.col(), -it.value() * dis(it.row()) * dis(it.col()));
    SpMat L(n, n);
    L.setFromTriplets(t.begin(), t.end());
    return L;
}

namespace {

/// Spectra operator y = (A - sigma I)^{-1} x with Eigen's sparse LDLT (A - sigma I is SPD here,
/// sigma < 0 and A PSD). Spectra's own SparseSymShiftSolve uses SparseLU, which is slower for
/// this symmetric case.
class LdltShiftSolve {
public:
    using Scalar = double;
    explicit LdltShiftSolve(const SpMat& A) : m_A(A) {}
    Eigen::Index rows() const { return m_A.rows(); }
    Eigen::Index cols() const { return m_A.cols(); }
    void set_shift(double sigma) {
        SpMat I(m_A.rows(), m_A.cols());
        I.setIdentity();
        m_solver.compute(m_A - sigma * I);
        if (m_solver.info() != Eigen::Success)
            throw EngineError("sparse LDLT of L - sigma I failed");
    }
    void perform_op(const double* x, double* y) const {
        Eigen::Map<const Eigen::VectorXd> xv(x, m_A.rows());
        Eigen::Map<Eigen::VectorXd> yv(y, m_A.rows());
        yv = m_solver.solve(xv);
    }

private:
    const SpMat& m_A;
    Eigen::SimplicialLDLT<SpMat> m_solver;
};

} // namespace

EigenPairs smallestEigenpairs(const SpMat& L, int nev, const std::function<void()>& poll) {
    const int n = int(L.rows());
    if (nev < 1 || n < 2)
        throw EngineError("eigensolver: need at least 2 nodes and 1 eigenpair");
    EigenPairs out;
    if (nev >= n - 1 || n <= 24) {
        // Too small for a Krylov method (Spectra needs nev < ncv <= n): dense solve.
        const SymmetricEigen es = symmetricEigen(Eigen::MatrixXd(L));
        nev = std::min(nev, n);
        out.values = es.values.head(nev);
        out.vectors = es.vectors.leftCols(nev);
        return out;
    }
    LdltShiftSolve op(L);
    const int ncv = std::min(n, std::max(2 * nev + 1, 24));
    const double sigma = -1e-3;
    Spectra::SymEigsShiftSolver<LdltShiftSolve> eigs(op, nev, ncv, sigma);
    eigs.init();
    if (poll)
        poll();
    const int nconv =
        int(eigs.compute(Spectra::SortRule::LargestMagn, 2000, 1e-10, Spectra::SortRule::SmallestAlge));
    if (eigs.info() != Spectra::CompInfo::Successful || nconv < nev)
        throw EngineError("Spectra shift-invert Lanczos did not converge (" + std::to_string(nconv) + " of " +
                          std::to_string(nev) + " eigenpairs)");
    out.values = eigs.eigenvalues();
    out.vectors = eigs.eigenvectors();
    out.iterations = int(eigs.num_iterations());
    // Fix the sign of each vector (largest-magnitude entry positive) so results are reproducible.
    for (Eigen::Index j = 0; j < out.vectors.cols(); ++j) {
        Eigen::Index imax = 0;
        out.vectors.col(j).cwiseAbs().maxCoeff(&imax);
        if (out.vectors(imax, j) < 0)
            out.vectors.col(j) *= -1;
    }
    return out;
}

int eigengapClusters(const Eigen::VectorXd& values, int kMin) {
    int best = std::max(1, kMin);
    double gap = -1;
    for (int k = std::max(1, kMin); k < values.size(); ++k) {
        const double g = values(k) - values(k - 1);
        if (g > gap) {
            gap = g;
            best = k;
        }
    }
    return best;
}

Eigen::MatrixXd njwEmbedding(const Eigen::MatrixXd& vectors, int k) {
    Eigen::MatrixXd X = vectors.leftCols(k);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double nrm = X.row(i).norm();
        if (nrm > 0)
            X.row(i) /= nrm;
    }
    return X;
}

KMeansResult kmeans(const Eigen::MatrixXd& X, int k, Rng& rng, int restarts, int maxIter) {
    const Eigen::Index n = X.rows(), d = X.cols();
    if (k < 1 || n < k)
        throw EngineError("k-means: need at least k points");
    KMeansResult best;
    best.inertia = std::numeric_limits<double>::infinity();
    std::vector<double> dist(static_cast<size_t>(n));
    for (int rs = 0; rs < restarts; ++rs) {
        Eigen::MatrixXd C(k, d);
        // k-means++ seeding.
        C.row(0) = X.row(Eigen::Index(rng.uniformInt(uint64_t(n))));
        const Eigen::MatrixXd XS = X.transpose();
        for (Eigen::Index i = 0; i < n; ++i)
            dist[size_t(i)] = (XS.col(i) - C.row(0).transpose()).squaredNorm();
        for (int c = 1; c < k; ++c) {
            double total = 0;
            for (double v : dist)
                total += v;
            Eigen::Index pick = 0;
            if (total > 0) {
                double u = rng.uniform() * total;
                for (pick = 0; pick < n - 1; ++pick) {
                    u -= dist[size_t(pick)];
                    if (u < 0)
                        break;
                }
            } else {
                pick = Eigen::Index(rng.uniformInt(uint64_t(n)));
            }
            C.row(c) = X.row(pick);
            for (Eigen::Index i = 0; i < n; ++i)
                dist[size_t(i)] = std::min(dist[size_t(i)], (XS.col(i) - C.row(c).transpose()).squaredNorm());
        }
        std::vector<int> lab(static_cast<size_t>(n), -1);
        double inertia = 0;
        // Assignment through one GEMM: |x - c|^2 = |x|^2 - 2 x.c + |c|^2 (points as columns).
        const Eigen::MatrixXd XT = X.transpose();
        const Eigen::VectorXd xn = XT.colwise().squaredNorm().transpose();
        Eigen::MatrixXd G(k, n);
        for (int it = 0; it < maxIter; ++it) {
            bool changed = false;
            inertia = 0;
            const Eigen::VectorXd cn = C.rowwise().squaredNorm();
            G.noalias() = C * XT;
            for (Eigen::Index i = 0; i < n; ++i) {
                int bi = 0;
                double bd = std::numeric_limits<double>::infinity();
                for (int c = 0; c < k; ++c) {
                    const double v = cn(c) - 2 * G(c, i);
                    if (v < bd) {
                        bd = v;
                        bi = c;
                    }
                }
                inertia += std::max(0.0, bd + xn(i));
                if (lab[size_t(i)] != bi) {
                    lab[size_t(i)] = bi;
                    changed = true;
                }
            }
            if (!changed)
                break;
            Eigen::MatrixXd S = Eigen::MatrixXd::Zero(d, k);
            std::vector<int> cnt(static_cast<size_t>(k), 0);
            for (Eigen::Index i = 0; i < n; ++i) {
                S.col(lab[size_t(i)]) += XT.col(i);
                ++cnt[size_t(lab[size_t(i)])];
            }
            for (int c = 0; c < k; ++c)
                if (cnt[size_t(c)] > 0)
                    C.row(c) = S.col(c).transpose() / cnt[size_t(c)];
        }
        if (inertia < best.inertia) {
            best.inertia = inertia;
            best.labels = lab;
            best.centres = C;
        }
    }
    // Relabel clusters in order of their first member (row-major) for stable colours.
    std::vector<int> remap(size_t(k), -1);
    int next = 0;
    for (int& l : best.labels) {
        if (remap[size_t(l)] < 0)
            remap[size_t(l)] = next++;
        l = remap[size_t(l)];
    }
    Eigen::MatrixXd C2 = best.centres;
    for (int c = 0; c < k; ++c)
        if (remap[size_t(c)] >= 0)
            C2.row(remap[size_t(c)]) = best.centres.row(c);
    best.centres = C2;
    return best;
}

double adjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b) {
    std::map<std::pair<int, int>, double> nij;
    std::map<int, double> ai, bj;
    double n = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] < 0 || b[i] < 0)
            continue;
        nij[{a[i], b[i]}] += 1;
        ai[a[i]] += 1;
        bj[b[i]] += 1;
        n += 1;
    }
    auto c2 = [](double x) { return x * (x - 1) / 2; };
    double sij = 0, sa = 0, sb = 0;
    for (const auto& [k, v] : nij)
        sij += c2(v);
    for (const auto& [k, v] : ai)
        sa += c2(v);
    for (const auto& [k, v] : bj)
        sb += c2(v);
    const double expected = n > 1 ? sa * sb / c2(n) : 0;
    const double maxIndex = 0.5 * (sa + sb);
    if (maxIndex - expected == 0)
        return 1.0;
    return (sij - expected) / (maxIndex - expected);
}

} // namespace pl::keypoints
