#include "WeightNoise.h"

#include <algorithm>
#include <cmath>

namespace pl::robusttrain {

Eigen::MatrixXd multiplicativeFactors(Eigen::Index rows, Eigen::Index cols, double sigma, Rng& rng) {
    Eigen::MatrixXd F(rows, cols);
    for (Eigen::Index c = 0; c < cols; ++c)
        for (Eigen::Index r = 0; r < rows; ++r)
            F(r, c) = 1.0 + sigma * rng.normal();
    return F;
}

Eigen::MatrixXd additiveOffsets(const Eigen::MatrixXd& W, double sigma, Rng& rng) {
    const double s = sigma * W.cwiseAbs().maxCoeff();
    Eigen::MatrixXd A(W.rows(), W.cols());
    for (Eigen::Index c = 0; c < W.cols(); ++c)
        for (Eigen::Index r = 0; r < W.rows(); ++r)
            A(r, c) = s * rng.normal();
    return A;
}

Eigen::MatrixXd multiplicativeNoise(const Eigen::MatrixXd& W, double sigma, Rng& rng) {
    return W.cwiseProduct(multiplicativeFactors(W.rows(), W.cols(), sigma, rng));
}

Eigen::MatrixXd additiveNoise(const Eigen::MatrixXd& W, double sigma, Rng& rng) {
    return W + additiveOffsets(W, sigma, rng);
}

double pcmSigmaProg(double g) {
    return std::max(0.26348 + 1.9650 * g - 1.1731 * g * g, 0.0);
}

void pcmDriftMoments(double gHat, double& mu, double& sd) {
    const double l = std::log(std::max(gHat, 1e-7));
    mu = std::clamp(-0.0155 * l + 0.0244, 0.049, 0.1);
    sd = std::clamp(-0.0125 * l - 0.0059, 0.008, 0.045);
}

double pcmQs(double gHatProg) {
    return std::min(0.0088 / std::max(std::pow(std::max(gHatProg, 0.0), PcmConstants::readExp), 1e-3), 0.2);
}

PcmDevice pcmProgram(double gT, Rng& rng) {
    const double gHat = gT / PcmConstants::gMax;
    PcmDevice d;
    d.gProg = std::max(gT + pcmSigmaProg(gHat) * rng.normal(), 0.0);
    double mu = 0, sd = 0;
    pcmDriftMoments(gHat, mu, sd);
    d.nu = std::clamp(std::abs(mu + sd * rng.normal()), 0.0, 1.0);
    return d;
}

double pcmRead(const PcmDevice& d, double t, Rng& rng) {
    constexpr double t0 = PcmConstants::t0, tr = PcmConstants::tRead;
    const double tt = t + t0;
    const double g = tt > t0 ? d.gProg * std::pow(tt / t0, -d.nu) : d.gProg;
    const double sig = pcmQs(d.gProg / PcmConstants::gMax) * std::sqrt(std::log((tt + tr) / (2 * tr)));
    return std::max(g + std::abs(g) * sig * rng.normal(), 0.0);
}

Eigen::MatrixXd pcmNoise(const Eigen::MatrixXd& W, double t, bool compensate, Rng& rng) {
    const double wmax = W.cwiseAbs().maxCoeff();
    if (wmax <= 0)
        return W;
    const double toW = wmax / PcmConstants::gMax;
    Eigen::MatrixXd prog(W.rows(), W.cols()), now(W.rows(), W.cols());
    for (Eigen::Index c = 0; c < W.cols(); ++c)
        for (Eigen::Index r = 0; r < W.rows(); ++r) {
            const double gT = PcmConstants::gMax * std::abs(W(r, c)) / wmax;
            const PcmDevice p = pcmProgram(W(r, c) >= 0 ? gT : 0.0, rng);
            const PcmDevice m = pcmProgram(W(r, c) >= 0 ? 0.0 : gT, rng);
            prog(r, c) = (p.gProg - m.gProg) * toW;
            now(r, c) = (pcmRead(p, t, rng) - pcmRead(m, t, rng)) * toW;
        }
    if (compensate) {
        const double ref = prog.colwise().sum().cwiseAbs().sum();
        const double cur = now.colwise().sum().cwiseAbs().sum();
        if (cur > 0)
            now *= ref / cur;
    }
    return now;
}

} // namespace pl::robusttrain
