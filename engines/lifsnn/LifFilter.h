#pragma once
/// The LIF membrane update u_t = beta u_{t-1} + I_t read as the first-order IIR low-pass
/// H(z) = 1 / (1 - beta z^-1) (spec §11.2): power gain, -3 dB cut-off, the frequency-matching rule
/// (its inverse) and the filter applied to a sequence. Pure functions; any thread. Frequencies in
/// rad/sample.
#include <vector>

namespace pl::lifsnn {

/// |H(e^{j omega})|^2 = 1 / (1 - 2 beta cos omega + beta^2).
double lifPowerGain(double beta, double omega);
/// |H(e^{j omega})|^2 / |H(1)|^2 (1 at omega = 0).
double lifRelativeGain(double beta, double omega);
/// The -3 dB cut-off: cos omega_c = (-1 + 4 beta - beta^2) / (2 beta); NaN for beta < 3 - 2 sqrt 2
/// (no half-power point on [0, pi]).
double lifCutoffOmega(double beta);
/// The frequency-matching rule: beta* = (2 - cos omega_d) - sqrt((2 - cos omega_d)^2 - 1), the beta
/// whose cut-off is omega_d (omega_d in (0, pi]).
double lifBetaStar(double omegaD);
/// The LIF filter on one channel, normalised to unit DC gain: y_t = beta y_{t-1} + (1 - beta) x_t,
/// y_{-1} = 0, over x[0], x[stride], ..., \a n values; written in place.
void lifLowPass(double* x, int n, int stride, double beta);

} // namespace pl::lifsnn
