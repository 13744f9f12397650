#pragma once
/// Convolutional tape ops on the paperlab_nn tape, for small image and field models.
///
/// Layout of a feature map: a Mat with one row per channel and one column per pixel of every
/// sample, column b * H * W + y * W + x (sample b, row y, column x; all from 0). MapShape carries
/// (batch, height, width). Convolutions are cross-correlations with zero "same" padding (odd k),
/// i.e. scipy.signal.correlate2d(x, w, mode="same") summed over input channels.
///
/// A k x k weight is Cout x (Cin * k * k), column ci * k * k + dy * k + dx; a 1x1 convolution is
/// nn::matmul(w, x) and a per-channel bias is nn::add(y, b) with b (C x 1). Every op's gradient is
/// checked against central finite differences in tests/convimg, the forward values against numpy
/// and scipy.
///
/// Thread affinity: as nn::Tape (one thread per tape).
#include "nn/Tape.h"

#include <cstdint>

namespace pl::convimg {

using nn::Mat;
using nn::Var;

/// Batch size and spatial size of a feature map.
struct MapShape {
    int batch = 1;
    int height = 1;
    int width = 1;
    int pixels() const { return height * width; }
    int columns() const { return batch * height * width; }
};

/// im2col: the (C * k * k) x (B * H * W) patch matrix of x (C x B*H*W), zero padded.
Mat im2col(const Mat& x, const MapShape& s, int k);
/// The adjoint of im2col: adds the patch matrix back onto a C x B*H*W map.
Mat col2im(const Mat& cols, int channels, const MapShape& s, int k);

/// k x k convolution (k odd): out = w * im2col(x) (Cout x B*H*W). w: Cout x (Cin * k * k).
Var conv2d(Var x, Var w, const MapShape& s, int k);
/// SiLU x * sigmoid(x), elementwise.
Var silu(Var x);
/// GroupNorm without affine terms: each sample's channels split into \a groups equal groups, each
/// normalised over its channels and pixels, (x - mean) / sqrt(var + eps). C divisible by groups.
Var groupNorm(Var x, int groups, const MapShape& s, double eps = 1e-5);
/// FiLM: out = x * (1 + gamma_{c,b}) + beta_{c,b} with gamma, beta C x B (one column per sample).
Var film(Var x, Var gamma, Var beta, const MapShape& s);
/// f x f average pooling (H and W divisible by f); the result has shape pooledShape(s, f).
Var avgPool(Var x, const MapShape& s, int f);
/// Nearest-neighbour resize by an integer factor f (each pixel becomes an f x f block).
Var upsampleNearest(Var x, const MapShape& s, int f);
/// Per-sample, per-channel mean over the pixels: C x B (global average pooling).
Var globalMeanPool(Var x, const MapShape& s);

/// The shape after f x f pooling.
inline MapShape pooledShape(const MapShape& s, int f) {
    return {s.batch, s.height / f, s.width / f};
}

/// Multiply-accumulate count of a k x k convolution Cin -> Cout over \a pixels pixels.
inline int64_t convMacs(int cin, int cout, int k, int64_t pixels) {
    return int64_t(cin) * cout * k * k * pixels;
}

} // namespace pl::convimg
