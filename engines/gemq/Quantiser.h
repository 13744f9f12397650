#pragma once
/// Group-wise asymmetric round-to-nearest quantisation in double (specs-004 §19). A weight matrix
/// W (inputs x outputs, y = x W) is cut, per output column, into groups of `group` consecutive input
/// rows (the last may be shorter). Per group: scale = (max - min) / (2^b - 1), z = rint(-min/scale),
/// q = clamp(rint(w/scale) + z, 0, 2^b - 1), w_hat = scale (q - z); rint rounds half to even. A
/// constant group (max = min) is kept exactly. Pure functions; any thread.
#include <Eigen/Core>

namespace pl::gemq {

/// The dequantised matrix W_hat of \a w at \a bits (1..16) with groups of \a group (>= 1) rows.
Eigen::MatrixXd quantiseGroupwise(const Eigen::MatrixXd& w, int bits, int group);

/// Bytes of the packed form: bits per weight plus one scale and one zero point (16 bits each) per
/// group and column.
double quantisedBytes(Eigen::Index rows, Eigen::Index cols, int bits, int group);

} // namespace pl::gemq
