#pragma once
/// Tape ops for spiking networks (first user: lif-mmwave): the Heaviside spike with a fast-sigmoid
/// surrogate gradient, a fused leaky integrate-and-fire recurrence unrolled over time (its backward
/// is back-propagation through time with the same surrogate), and the per-sample mean over time
/// steps of a time-major matrix. Each op's gradient is checked against finite differences in
/// tests/nn (the spike against the surrogate it states), and the fused recurrence against the same
/// recurrence composed from primitive ops.
///
/// Time-major layout: a (T * B) x H matrix holds B samples over T steps; row t * B + b is sample b at
/// step t (t, b from 0).
///
/// Thread affinity: as Tape (one thread per tape).
#include "nn/Tape.h"

namespace pl::nn {

/// Surrogate derivative of the spike used by spike() and lifRecurrence(): the fast sigmoid's
/// 1 / (1 + slope * |x|)^2 at x = u - threshold (Zenke & Ganguli's SuperSpike, snnTorch's
/// fast_sigmoid).
double fastSigmoidGrad(double x, double slope);

/// Elementwise Heaviside spike: out = 1 where u > threshold, else 0. Backward: g * fastSigmoidGrad(u -
/// threshold, slope) (the true derivative is zero almost everywhere).
Var spike(Var u, double threshold, double slope);

/// Leaky integrate-and-fire layer over T steps (snnTorch `Leaky`, reset by subtraction):
///   u_t = beta * u_{t-1} + I_t - threshold * s_{t-1},  s_t = H(u_t - threshold),  u_{-1} = s_{-1} = 0,
/// on time-major currents I ((T * B) x H). Returns the spikes s (same shape). beta is a 1x1 Var (a
/// constant for a fixed decay, a parameter or any expression for a learnable one). The reset term is
/// detached (no gradient flows through s_{t-1}, as in snnTorch). Backward (BPTT):
///   dL/du_t = dL/ds_t * fastSigmoidGrad(u_t - threshold) + beta * dL/du_{t+1},
///   dL/dI_t = dL/du_t,  dL/dbeta = sum_t <dL/du_t, u_{t-1}>.
/// If \a membrane is given, it receives the membrane potentials u ((T * B) x H).
Var lifRecurrence(Var current, Var beta, int steps, double threshold, double slope, Mat* membrane = nullptr);

/// Per-sample mean over the T steps of a time-major matrix: out (B x H), out_b = (1/T) sum_t a_{t*B+b}.
Var timeMean(Var a, int steps);

} // namespace pl::nn
