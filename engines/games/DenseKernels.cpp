#include "DenseKernels.h"

#include <Eigen/Cholesky>
#include <algorithm>

namespace pl::games {

namespace {
constexpr Eigen::Index kPanel = 64; // Cholesky panel width
constexpr double kBlockFlops = 8e6; // work between two checks
} // namespace

void gramPlusShift(const Eigen::MatrixXd& C, double alpha, double shift, double extra, Eigen::MatrixXd& out,
                   const CheckFn& check) {
    const Eigen::Index r = C.rows(), k = C.cols();
    out.resize(k, k);
    const Eigen::Index strip = std::max<Eigen::Index>(
        16, Eigen::Index(kBlockFlops / std::max<double>(1.0, 2.0 * double(r) * double(k))));
    for (Eigen::Index j0 = 0; j0 < k; j0 += strip) {
        const Eigen::Index jb = std::min(strip, k - j0);
        // Lower part of columns j0..j0+jb: rows j0..k.
        out.block(j0, j0, k - j0, jb).noalias() =
            alpha * C.rightCols(k - j0).transpose() * C.middleCols(j0, jb);
        if (check)
            check();
    }
    out.diagonal().array() += shift;
    if (extra != 0)
        out.array() += extra;
}

bool choleskyInPlace(Eigen::MatrixXd& G, const CheckFn& check) {
    const Eigen::Index k = G.rows();
    for (Eigen::Index j0 = 0; j0 < k; j0 += kPanel) {
        const Eigen::Index jb = std::min(kPanel, k - j0);
        auto A11 = G.block(j0, j0, jb, jb);
        Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(A11); // factors A11 in place (lower)
        if (llt.info() != Eigen::Success)
            return false;
        const Eigen::Index rest = k - j0 - jb;
        if (rest > 0) {
            auto A21 = G.block(j0 + jb, j0, rest, jb);
            // A21 <- A21 L11^{-T}
            A11.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(A21);
            // Trailing update A22 -= A21 A21^T (lower part), in column strips.
            const Eigen::Index strip = std::max<Eigen::Index>(
                kPanel, Eigen::Index(kBlockFlops / std::max<double>(1.0, 2.0 * double(rest) * double(jb))));
            for (Eigen::Index c0 = 0; c0 < rest; c0 += strip) {
                const Eigen::Index cb = std::min(strip, rest - c0);
                G.block(j0 + jb + c0, j0 + jb + c0, rest - c0, cb).noalias() -=
                    A21.bottomRows(rest - c0) * A21.middleRows(c0, cb).transpose();
                if (check)
                    check();
            }
        }
    }
    for (Eigen::Index i = 0; i < k; ++i)
        if (!(G(i, i) > 0))
            return false;
    return true;
}

void choleskySolveInPlace(const Eigen::MatrixXd& L, Eigen::Ref<Eigen::VectorXd> b) {
    L.triangularView<Eigen::Lower>().solveInPlace(b);
    L.triangularView<Eigen::Lower>().transpose().solveInPlace(b);
}

} // namespace pl::games
