#include "Datasets.h"

#include <cmath>
#include <numbers>

namespace pl::robusttrain {

Dataset makeBlobs(int classes, int dim, double radius, int n, const Rng& layoutRng, Rng rng) {
    Rng lr = layoutRng;
    Eigen::MatrixXd means(classes, dim), scales(classes, dim);
    for (int c = 0; c < classes; ++c) {
        for (int j = 0; j < dim; ++j)
            means(c, j) = lr.normal();
        means.row(c) *= radius / means.row(c).norm();
        for (int j = 0; j < dim; ++j)
            scales(c, j) = lr.uniform(0.5, 1.5);
    }
    Dataset d{Eigen::MatrixXd(n, dim), std::vector<int>(size_t(n)), classes};
    for (int i = 0; i < n; ++i) {
        const int c = int(rng.uniformInt(uint64_t(classes)));
        d.y[size_t(i)] = c;
        for (int j = 0; j < dim; ++j)
            d.X(i, j) = means(c, j) + scales(c, j) * rng.normal();
    }
    return d;
}

Dataset makeSpirals(int n, double noise, Rng rng) {
    Dataset d{Eigen::MatrixXd(n, 2), std::vector<int>(size_t(n)), 2};
    for (int i = 0; i < n; ++i) {
        const int c = int(rng.uniformInt(2));
        const double t = rng.uniform();
        const double a = 3.5 * std::numbers::pi * t + (c ? std::numbers::pi : 0.0);
        d.y[size_t(i)] = c;
        d.X(i, 0) = t * std::cos(a) + noise * rng.normal();
        d.X(i, 1) = t * std::sin(a) + noise * rng.normal();
    }
    return d;
}

namespace {
// 8x8 bitmaps of the digits 0..9, one byte per row (bit 7 = left column).
constexpr unsigned char kGlyphs[10][8] = {
    {0x3C, 0x66, 0x6E, 0x76, 0x66, 0x66, 0x3C, 0x00}, {0x18, 0x38, 0x18, 0x18, 0x18, 0x18, 0x7E, 0x00},
    {0x3C, 0x66, 0x06, 0x0C, 0x30, 0x60, 0x7E, 0x00}, {0x3C, 0x66, 0x06, 0x1C, 0x06, 0x66, 0x3C, 0x00},
    {0x0C, 0x1C, 0x3C, 0x6C, 0x7E, 0x0C, 0x0C, 0x00}, {0x7E, 0x60, 0x7C, 0x06, 0x06, 0x66, 0x3C, 0x00},
    {0x3C, 0x60, 0x7C, 0x66, 0x66, 0x66, 0x3C, 0x00}, {0x7E, 0x06, 0x0C, 0x18, 0x30, 0x30, 0x30, 0x00},
    {0x3C, 0x66, 0x66, 0x3C, 0x66, 0x66, 0x3C, 0x00}, {0x3C, 0x66, 0x66, 0x3E, 0x06, 0x0C, 0x38, 0x00},
};
} // namespace

Dataset makeGlyphs(int n, double noise, Rng rng) {
    Dataset d{Eigen::MatrixXd::Zero(n, 64), std::vector<int>(size_t(n)), 10};
    for (int i = 0; i < n; ++i) {
        const int c = int(rng.uniformInt(10));
        const int dx = int(rng.uniformInt(3)) - 1, dy = int(rng.uniformInt(3)) - 1;
        const double ink = rng.uniform(0.6, 1.0);
        d.y[size_t(i)] = c;
        for (int r = 0; r < 8; ++r)
            for (int col = 0; col < 8; ++col) {
                const int sr = r - dy, sc = col - dx;
                const bool on = sr >= 0 && sr < 8 && sc >= 0 && sc < 8 && ((kGlyphs[c][sr] >> (7 - sc)) & 1);
                d.X(i, 8 * r + col) = (on ? ink : 0.0) + noise * rng.normal();
            }
    }
    return d;
}

Dataset subset(const Dataset& d, const std::vector<int>& idx) {
    Dataset s{Eigen::MatrixXd(Eigen::Index(idx.size()), d.X.cols()), std::vector<int>(idx.size()), d.classes};
    for (size_t i = 0; i < idx.size(); ++i) {
        s.X.row(Eigen::Index(i)) = d.X.row(idx[i]);
        s.y[i] = d.y[size_t(idx[i])];
    }
    return s;
}

std::vector<int> argmaxRows(const Eigen::MatrixXd& logits) {
    std::vector<int> out(size_t(logits.rows()));
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
        Eigen::Index c = 0;
        logits.row(r).maxCoeff(&c);
        out[size_t(r)] = int(c);
    }
    return out;
}

double accuracy(const Eigen::MatrixXd& logits, const std::vector<int>& y) {
    if (y.empty())
        return 0;
    const std::vector<int> p = argmaxRows(logits);
    int ok = 0;
    for (size_t i = 0; i < y.size(); ++i)
        ok += p[i] == y[i];
    return double(ok) / double(y.size());
}

} // namespace pl::robusttrain
