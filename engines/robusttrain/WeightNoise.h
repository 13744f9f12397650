#pragma once
/// Analog weight-noise models of the dwp-cim-robustness panel (spec §11): multiplicative mismatch
/// W o (1 + sigma Xi), additive noise W + sigma max|W| Xi, and the PCM statistics as IBM aihwkit's
/// PCMLikeNoiseModel applies them (a differential device pair per weight, programming noise, drift
/// and 1/f read noise, global drift compensation). Xi is i.i.d. standard normal from the given
/// pl::Rng. Conductances in microsiemens. Pure; any thread.
#include "core/Rng.h"

#include <Eigen/Core>

namespace pl::robusttrain {

/// W o (1 + sigma Xi).
Eigen::MatrixXd multiplicativeNoise(const Eigen::MatrixXd& W, double sigma, Rng& rng);
/// W + sigma max|W| Xi.
Eigen::MatrixXd additiveNoise(const Eigen::MatrixXd& W, double sigma, Rng& rng);
/// The factors 1 + sigma Xi (for a perturbation on the tape).
Eigen::MatrixXd multiplicativeFactors(Eigen::Index rows, Eigen::Index cols, double sigma, Rng& rng);
/// The offsets sigma max|W| Xi.
Eigen::MatrixXd additiveOffsets(const Eigen::MatrixXd& W, double sigma, Rng& rng);

/// Constants of aihwkit's PCMLikeNoiseModel.
struct PcmConstants {
    static constexpr double gMax = 25.0;    ///< µS
    static constexpr double t0 = 20.0;      ///< s, time of the reference readout after programming
    static constexpr double tRead = 250e-9; ///< s
    static constexpr double readExp = 0.65;
};

/// Programming noise sd in µS at normalised target g^ = g_T / 25 µS: max(0.26348 + 1.9650 g^ -
/// 1.1731 g^^2, 0).
double pcmSigmaProg(double gHat);
/// Drift exponent mean and sd at target g^ (floored at 1e-7): mu = clamp(-0.0155 ln g^ + 0.0244,
/// 0.049, 0.1), sd = clamp(-0.0125 ln g^ - 0.0059, 0.008, 0.045); nu = clamp(|mu + sd Xi|, 0, 1).
void pcmDriftMoments(double gHat, double& mu, double& sd);
/// Read-noise scale Q_s = min(0.0088 / max(g^_prog^0.65, 1e-3), 0.2).
double pcmQs(double gHatProg);

/// One device: programmed conductance and its drift exponent.
struct PcmDevice {
    double gProg = 0, nu = 0;
};
/// Programs a device to target \a gT (µS): g_prog = max(g_T + sigma_prog Xi, 0), nu drawn.
PcmDevice pcmProgram(double gT, Rng& rng);
/// Conductance at inference time t (s after programming, evaluated at t + t0): drift
/// g_prog ((t + t0) / t0)^-nu, then read noise |g_drift| Q_s sqrt(ln((t + t0 + t_read) / (2 t_read))) Xi,
/// clamped at 0.
double pcmRead(const PcmDevice& d, double t, Rng& rng);

/// A PCM draw of one weight matrix at inference time t: pairs (g_T, 0) or (0, g_T), g_T =
/// 25 µS |w| / max|W|, both devices programmed and read; W~ = (g+ - g-) max|W| / 25 µS, times
/// alpha = ||W_prog^T 1||_1 / ||W_t^T 1||_1 (the all-ones readout) when \a compensate.
Eigen::MatrixXd pcmNoise(const Eigen::MatrixXd& W, double t, bool compensate, Rng& rng);

} // namespace pl::robusttrain
