#include "TileAttention.h"

#include <algorithm>
#include <cmath>

namespace pl::tilesparse {

int TileMask::count() const {
    int n = 0;
    for (uint8_t v : on)
        n += v;
    return n;
}

int TileMask::fetchedBlocks() const {
    int n = 0;
    for (int b = 0; b < blocks; ++b)
        for (int g = 0; g < groups; ++g)
            if (at(g, b)) {
                ++n;
                break;
            }
    return n;
}

namespace {

/// Column-wise softmax in place (max-subtracted); columns are contiguous in Eigen's layout.
void softmaxCols(Mat& St) {
    for (Eigen::Index c = 0; c < St.cols(); ++c) {
        auto col = St.col(c);
        const double m = col.maxCoeff();
        col = (col.array() - m).exp();
        col /= col.sum();
    }
}

} // namespace

Mat denseAttention(const Mat& Q, const Mat& K, const Mat& V, Mat* probs, const Poll& poll) {
    const double scale = 1.0 / std::sqrt(double(Q.cols()));
    Mat O(Q.rows(), V.cols());
    // Chunks of 64 rows keep the score block small and give regular cancellation checks. Scores
    // are kept transposed (keys x rows) so that each row's softmax runs over contiguous memory.
    constexpr Eigen::Index kChunk = 64;
    if (probs)
        probs->resize(Q.rows(), K.rows());
    Mat St;
    for (Eigen::Index r0 = 0; r0 < Q.rows(); r0 += kChunk) {
        if (poll)
            poll();
        const Eigen::Index n = std::min(kChunk, Q.rows() - r0);
        St.noalias() = K * Q.middleRows(r0, n).transpose();
        St *= scale;
        softmaxCols(St);
        O.middleRows(r0, n).noalias() = St.transpose() * V;
        if (probs)
            probs->middleRows(r0, n) = St.transpose();
    }
    return O;
}

Mat attentionProbs(const Mat& Q, const Mat& K, const Poll& poll) {
    const double scale = 1.0 / std::sqrt(double(Q.cols()));
    Mat P(Q.rows(), K.rows());
    constexpr Eigen::Index kChunk = 64;
    Mat St;
    for (Eigen::Index r0 = 0; r0 < Q.rows(); r0 += kChunk) {
        if (poll)
            poll();
        const Eigen::Index n = std::min(kChunk, Q.rows() - r0);
        St.noalias() = K * Q.middleRows(r0, n).transpose();
        St *= scale;
        softmaxCols(St);
        P.middleRows(r0, n) = St.transpose();
    }
    return P;
}

Mat sparseAttention(const Mat& Q, const Mat& K, const Mat& V, const TileGrid& grid, const TileMask& mask,
                    const Poll& poll) {
    const double scale = 1.0 / std::sqrt(double(Q.cols()));
    Mat O = Mat::Zero(Q.rows(), V.cols());
    Mat St, Qt;
    std::vector<int> sel;
    for (int g = 0; g < grid.groups(); ++g) {
        if (poll && (g % 16) == 0)
            poll();
        sel.clear();
        int n = 0;
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask.at(g, b)) {
                sel.push_back(b);
                n += grid.blockEnd(b) - grid.blockBegin(b);
            }
        if (n == 0)
            continue;
        const int r0 = g * grid.groupRows;
        const int rn = std::min(grid.groupRows, grid.rows - r0);
        Qt = Q.middleRows(r0, rn).transpose() * scale;
        // Scores of the selected blocks straight from the key cache (no gathered copy of K):
        // St is (selected keys x rows), softmax per column over the selected keys only.
        St.resize(n, rn);
        int pos = 0;
        for (int b : sel) {
            const int len = grid.blockEnd(b) - grid.blockBegin(b);
            St.middleRows(pos, len).noalias() = K.middleRows(grid.blockBegin(b), len) * Qt;
            pos += len;
        }
        softmaxCols(St);
        auto Og = O.middleRows(r0, rn);
        pos = 0;
        for (int b : sel) {
            const int len = grid.blockEnd(b) - grid.blockBegin(b);
            Og.noalias() += St.middleRows(pos, len).transpose() * V.middleRows(grid.blockBegin(b), len);
            pos += len;
        }
    }
    return O;
}

Mat rowBlockMass(const Mat& probs, const TileGrid& grid) {
    Mat M(probs.rows(), grid.blocks());
    for (int b = 0; b < grid.blocks(); ++b)
        M.col(b) =
            probs.middleCols(grid.blockBegin(b), grid.blockEnd(b) - grid.blockBegin(b)).rowwise().sum();
    return M;
}

Mat tileMass(const Mat& rowBlock, const TileGrid& grid) {
    Mat M = Mat::Zero(grid.groups(), rowBlock.cols());
    for (Eigen::Index r = 0; r < rowBlock.rows(); ++r)
        M.row(grid.groupOf(int(r))) += rowBlock.row(r);
    return M;
}

Eigen::VectorXd retainedMassPerRow(const Mat& rowBlock, const TileGrid& grid, const TileMask& mask) {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(rowBlock.rows());
    for (Eigen::Index r = 0; r < rowBlock.rows(); ++r) {
        const int g = grid.groupOf(int(r));
        double s = 0;
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask.at(g, b))
                s += rowBlock(r, b);
        out[r] = s;
    }
    return out;
}

double relativeError(const Mat& exact, const Mat& approx) {
    double sum = 0;
    int n = 0;
    for (Eigen::Index r = 0; r < exact.rows(); ++r) {
        const double den = exact.row(r).norm();
        if (den <= 0)
            continue;
        sum += (exact.row(r) - approx.row(r)).norm() / den;
        ++n;
    }
    return n ? sum / n : 0.0;
}

} // namespace pl::tilesparse
