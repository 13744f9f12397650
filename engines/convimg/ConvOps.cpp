#include "convimg/ConvOps.h"

#include "core/Errors.h"

#include <cmath>
#include <string>

namespace pl::convimg {

namespace {

void require(bool ok, const char* op, const std::string& what) {
    if (!ok)
        throw EngineError(std::string("convimg::") + op + ": " + what);
}

void requireMap(const Mat& x, const MapShape& s, const char* op) {
    require(x.cols() == s.columns(), op,
            "map has " + std::to_string(x.cols()) + " columns, shape needs " + std::to_string(s.columns()));
}

} // namespace

Mat im2col(const Mat& x, const MapShape& s, int k) {
    requireMap(x, s, "im2col");
    const int C = int(x.rows()), r = k / 2, kk = k * k, H = s.height, W = s.width;
    Mat cols = Mat::Zero(Eigen::Index(C) * kk, s.columns());
    for (int b = 0; b < s.batch; ++b)
        for (int y = 0; y < H; ++y)
            for (int xx = 0; xx < W; ++xx) {
                const Eigen::Index col = Eigen::Index(b) * H * W + y * W + xx;
                double* out = cols.col(col).data();
                for (int dy = 0; dy < k; ++dy) {
                    const int sy = y + dy - r;
                    if (sy < 0 || sy >= H)
                        continue;
                    for (int dx = 0; dx < k; ++dx) {
                        const int sx = xx + dx - r;
                        if (sx < 0 || sx >= W)
                            continue;
                        const double* in = x.col(Eigen::Index(b) * H * W + sy * W + sx).data();
                        const int off = dy * k + dx;
                        for (int c = 0; c < C; ++c)
                            out[c * kk + off] = in[c];
                    }
                }
            }
    return cols;
}

Mat col2im(const Mat& cols, int channels, const MapShape& s, int k) {
    const int C = channels, r = k / 2, kk = k * k, H = s.height, W = s.width;
    require(cols.rows() == Eigen::Index(C) * kk && cols.cols() == s.columns(), "col2im", "bad patch matrix");
    Mat x = Mat::Zero(C, s.columns());
    for (int b = 0; b < s.batch; ++b)
        for (int y = 0; y < H; ++y)
            for (int xx = 0; xx < W; ++xx) {
                const double* in = cols.col(Eigen::Index(b) * H * W + y * W + xx).data();
                for (int dy = 0; dy < k; ++dy) {
                    const int sy = y + dy - r;
                    if (sy < 0 || sy >= H)
                        continue;
                    for (int dx = 0; dx < k; ++dx) {
                        const int sx = xx + dx - r;
                        if (sx < 0 || sx >= W)
                            continue;
                        double* out = x.col(Eigen::Index(b) * H * W + sy * W + sx).data();
                        const int off = dy * k + dx;
                        for (int c = 0; c < C; ++c)
                            out[c] += in[c * kk + off];
                    }
                }
            }
    return x;
}

Var conv2d(Var x, Var w, const MapShape& s, int k) {
    nn::Tape& t = *x.tape;
    require(k % 2 == 1 && k > 0, "conv2d", "kernel size must be odd");
    require(w.cols() == x.rows() * k * k, "conv2d",
            "weight has " + std::to_string(w.cols()) +
                " columns, needs Cin * k * k = " + std::to_string(x.rows() * k * k));
    if (k == 1)
        return nn::matmul(w, x);
    Mat cols = im2col(x.value(), s, k);
    Mat out = w.value() * cols;
    const int cin = int(x.rows());
    return t.push(std::move(out), t.requiresGrad(x) || t.requiresGrad(w),
                  [x, w, s, k, cin, cols = std::move(cols)](nn::Tape& t, const Mat& g) {
                      if (t.requiresGrad(w))
                          t.accumulate(w, g * cols.transpose());
                      if (t.requiresGrad(x))
                          t.accumulate(x, col2im(w.value().transpose() * g, cin, s, k));
                  });
}

Var silu(Var x) {
    nn::Tape& t = *x.tape;
    const Mat sig = (1.0 + (-x.value().array()).exp()).inverse().matrix();
    Mat out = (x.value().array() * sig.array()).matrix();
    return t.push(std::move(out), t.requiresGrad(x), [x, sig](nn::Tape& t, const Mat& g) {
        const auto& v = x.value().array();
        t.accumulate(x, (g.array() * (sig.array() * (1.0 + v * (1.0 - sig.array())))).matrix());
    });
}

Var groupNorm(Var x, int groups, const MapShape& s, double eps) {
    nn::Tape& t = *x.tape;
    requireMap(x.value(), s, "groupNorm");
    const int C = int(x.rows());
    require(groups > 0 && C % groups == 0, "groupNorm", "channels not divisible by groups");
    const int cpg = C / groups, P = s.pixels();
    Mat y(C, s.columns());
    Mat invStd(groups, s.batch);
    for (int b = 0; b < s.batch; ++b)
        for (int gi = 0; gi < groups; ++gi) {
            const auto blk = x.value().block(gi * cpg, Eigen::Index(b) * P, cpg, P);
            const double mean = blk.mean();
            const double var = (blk.array() - mean).square().mean();
            const double is = 1.0 / std::sqrt(var + eps);
            invStd(gi, b) = is;
            y.block(gi * cpg, Eigen::Index(b) * P, cpg, P) = ((blk.array() - mean) * is).matrix();
        }
    const int id = t.size();
    return t.push(std::move(y), t.requiresGrad(x),
                  [x, groups, cpg, P, s, invStd, id](nn::Tape& t, const Mat& g) {
                      const Mat& y = t.valueOf(id);
                      Mat gx(y.rows(), y.cols());
                      for (int b = 0; b < s.batch; ++b)
                          for (int gi = 0; gi < groups; ++gi) {
                              const auto gb = g.block(gi * cpg, Eigen::Index(b) * P, cpg, P).array();
                              const auto yb = y.block(gi * cpg, Eigen::Index(b) * P, cpg, P).array();
                              const double mg = gb.mean(), mgy = (gb * yb).mean();
                              gx.block(gi * cpg, Eigen::Index(b) * P, cpg, P) =
                                  (invStd(gi, b) * (gb - mg - yb * mgy)).matrix();
                          }
                      t.accumulate(x, gx);
                  });
}

Var film(Var x, Var gamma, Var beta, const MapShape& s) {
    nn::Tape& t = *x.tape;
    requireMap(x.value(), s, "film");
    const Eigen::Index C = x.rows();
    require(gamma.rows() == C && gamma.cols() == s.batch && beta.rows() == C && beta.cols() == s.batch,
            "film", "gamma and beta must be C x B");
    const int P = s.pixels();
    Mat out(C, s.columns());
    for (int b = 0; b < s.batch; ++b) {
        const auto blk = x.value().middleCols(Eigen::Index(b) * P, P);
        out.middleCols(Eigen::Index(b) * P, P) =
            ((blk.array().colwise() * (1.0 + gamma.value().col(b).array())).colwise() +
             beta.value().col(b).array())
                .matrix();
    }
    const bool rg = t.requiresGrad(x) || t.requiresGrad(gamma) || t.requiresGrad(beta);
    return t.push(std::move(out), rg, [x, gamma, beta, s, P](nn::Tape& t, const Mat& g) {
        Mat gx(x.rows(), x.cols()), gg(gamma.rows(), s.batch), gb(beta.rows(), s.batch);
        for (int b = 0; b < s.batch; ++b) {
            const auto gblk = g.middleCols(Eigen::Index(b) * P, P);
            const auto xblk = x.value().middleCols(Eigen::Index(b) * P, P);
            gx.middleCols(Eigen::Index(b) * P, P) =
                (gblk.array().colwise() * (1.0 + gamma.value().col(b).array())).matrix();
            gg.col(b) = (gblk.array() * xblk.array()).rowwise().sum().matrix();
            gb.col(b) = gblk.rowwise().sum();
        }
        t.accumulate(x, gx);
        t.accumulate(gamma, gg);
        t.accumulate(beta, gb);
    });
}

Var avgPool(Var x, const MapShape& s, int f) {
    nn::Tape& t = *x.tape;
    requireMap(x.value(), s, "avgPool");
    require(f > 0 && s.height % f == 0 && s.width % f == 0, "avgPool", "size not divisible by the factor");
    const MapShape o = pooledShape(s, f);
    const double w = 1.0 / double(f * f);
    Mat out = Mat::Zero(x.rows(), o.columns());
    for (int b = 0; b < s.batch; ++b)
        for (int y = 0; y < s.height; ++y)
            for (int xx = 0; xx < s.width; ++xx)
                out.col(Eigen::Index(b) * o.pixels() + (y / f) * o.width + xx / f) +=
                    w * x.value().col(Eigen::Index(b) * s.pixels() + y * s.width + xx);
    return t.push(std::move(out), t.requiresGrad(x), [x, s, o, f, w](nn::Tape& t, const Mat& g) {
        Mat gx(x.rows(), x.cols());
        for (int b = 0; b < s.batch; ++b)
            for (int y = 0; y < s.height; ++y)
                for (int xx = 0; xx < s.width; ++xx)
                    gx.col(Eigen::Index(b) * s.pixels() + y * s.width + xx) =
                        w * g.col(Eigen::Index(b) * o.pixels() + (y / f) * o.width + xx / f);
        t.accumulate(x, gx);
    });
}

Var upsampleNearest(Var x, const MapShape& s, int f) {
    nn::Tape& t = *x.tape;
    requireMap(x.value(), s, "upsampleNearest");
    require(f > 0, "upsampleNearest", "factor must be positive");
    const MapShape o{s.batch, s.height * f, s.width * f};
    Mat out(x.rows(), o.columns());
    for (int b = 0; b < o.batch; ++b)
        for (int y = 0; y < o.height; ++y)
            for (int xx = 0; xx < o.width; ++xx)
                out.col(Eigen::Index(b) * o.pixels() + y * o.width + xx) =
                    x.value().col(Eigen::Index(b) * s.pixels() + (y / f) * s.width + xx / f);
    return t.push(std::move(out), t.requiresGrad(x), [x, s, o, f](nn::Tape& t, const Mat& g) {
        Mat gx = Mat::Zero(x.rows(), x.cols());
        for (int b = 0; b < o.batch; ++b)
            for (int y = 0; y < o.height; ++y)
                for (int xx = 0; xx < o.width; ++xx)
                    gx.col(Eigen::Index(b) * s.pixels() + (y / f) * s.width + xx / f) +=
                        g.col(Eigen::Index(b) * o.pixels() + y * o.width + xx);
        t.accumulate(x, gx);
    });
}

Var globalMeanPool(Var x, const MapShape& s) {
    nn::Tape& t = *x.tape;
    requireMap(x.value(), s, "globalMeanPool");
    const int P = s.pixels();
    Mat out(x.rows(), s.batch);
    for (int b = 0; b < s.batch; ++b)
        out.col(b) = x.value().middleCols(Eigen::Index(b) * P, P).rowwise().mean();
    return t.push(std::move(out), t.requiresGrad(x), [x, s, P](nn::Tape& t, const Mat& g) {
        Mat gx(x.rows(), x.cols());
        for (int b = 0; b < s.batch; ++b)
            gx.middleCols(Eigen::Index(b) * P, P) = (g.col(b) / double(P)).replicate(1, P);
        t.accumulate(x, gx);
    });
}

} // namespace pl::convimg
