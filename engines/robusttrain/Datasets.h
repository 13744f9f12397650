#pragma once
/// Synthetic classification data of the robusttrain panels: K Gaussian blobs (means on a sphere,
/// anisotropic covariance), two interleaved spirals, and procedural 8x8 digit glyphs. Every sampler
/// draws only from the pl::Rng it is given. Pure; any thread. No Qt.
#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::robusttrain {

/// Rows of X (n x d) with labels y in [0, classes).
struct Dataset {
    Eigen::MatrixXd X;
    std::vector<int> y;
    int classes = 0;
    int rows() const { return int(y.size()); }
    int dim() const { return int(X.cols()); }
};

/// K blobs in d dimensions: class means at radius \a radius in directions drawn from \a layoutRng
/// (the same layout for every call with the same generator), per-class axis scales U(0.5, 1.5)
/// (anisotropic); n samples with uniform classes from \a sampleRng.
Dataset makeBlobs(int classes, int dim, double radius, int n, const Rng& layoutRng, Rng sampleRng);

/// Two interleaved spirals in 2-D (classes 0 and 1): t ~ U(0, 1), radius t, angle 3.5 pi t (+ pi
/// for class 1), plus N(0, noise^2) per coordinate.
Dataset makeSpirals(int n, double noise, Rng sampleRng);

/// Ten 8x8 digit glyphs (64 features in [0, 1] plus noise): a fixed bitmap per digit, shifted by up
/// to one pixel, stroke intensity U(0.6, 1), pixel noise N(0, noise^2).
Dataset makeGlyphs(int n, double noise, Rng sampleRng);

/// Rows \a idx of \a d, in that order.
Dataset subset(const Dataset& d, const std::vector<int>& idx);

/// Fraction of rows whose row-wise argmax of \a logits equals y.
double accuracy(const Eigen::MatrixXd& logits, const std::vector<int>& y);

/// Row-wise argmax (lowest index on ties).
std::vector<int> argmaxRows(const Eigen::MatrixXd& logits);

} // namespace pl::robusttrain
