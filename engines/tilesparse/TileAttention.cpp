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

/// Row-wise softmax in place (max-subtracted).
void softmaxRows(Mat& S) {
    for (Eigen::Index r = 0; r < S.rows(); ++r) {
        const double m = S.row(r).maxCoeff();
        S.row(r) = (S.row(r).array() - m).exp();
        S.row(r) /= S.row(r).sum();
    }
}

} // namespace

Mat denseAttention(const Mat& Q, const Mat& K, const Mat& V, Mat* probs, const Poll& poll) {
    const double scale = 1.0 / std::sqrt(double(Q.cols()));
    Mat O(Q.rows(), V.cols());
    // Chunks of 64 rows keep the probability block small and give regular cancellation checks.
    constexpr Eigen::Index kChunk = 64;
    if (probs)
        probs->resize(Q.rows(), K.rows());
    for (Eigen::Index r0 = 0; r0 < Q.rows(); r0 += kChunk) {
        if (poll)
            poll();
        const Eigen::Index n = std::min(kChunk, Q.rows() - r0);
        Mat S = (Q.middleRows(r0, n) * K.transpose()) * scale;
        softmaxRows(S);
        O.middleRows(r0, n).noalias() = S * V;
        if (probs)
            probs->middleRows(r0, n) = S;
    }
    return O;
}

Mat sparseAttention(const Mat& Q, const Mat& K, const Mat& V, const TileGrid& grid, const TileMask& mask,
                    const Poll& poll) {
    const double scale = 1.0 / std::sqrt(double(Q.cols()));
    Mat O = Mat::Zero(Q.rows(), V.cols());
    Mat Ks, Vs;
    for (int g = 0; g < grid.groups(); ++g) {
        if (poll && (g % 16) == 0)
            poll();
        int n = 0;
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask.at(g, b))
                n += grid.blockEnd(b) - grid.blockBegin(b);
        if (n == 0)
            continue;
        Ks.resize(n, K.cols());
        Vs.resize(n, V.cols());
        int pos = 0;
        for (int b = 0; b < grid.blocks(); ++b) {
            if (!mask.at(g, b))
                continue;
            const int len = grid.blockEnd(b) - grid.blockBegin(b);
            Ks.middleRows(pos, len) = K.middleRows(grid.blockBegin(b), len);
            Vs.middleRows(pos, len) = V.middleRows(grid.blockBegin(b), len);
            pos += len;
        }
        const int r0 = g * grid.groupRows;
        const int rn = std::min(grid.groupRows, grid.rows - r0);
        Mat S = (Q.middleRows(r0, rn) * Ks.transpose()) * scale;
        softmaxRows(S);
        O.middleRows(r0, rn).noalias() = S * Vs;
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
