#include "lifsnn/LifFilter.h"

#include "core/Numeric.h"

#include <cmath>

namespace pl::lifsnn {

// The closed forms are evaluated through 1 - cos w = 2 sin^2(w / 2), algebraically the same as the
// textbook expressions in the header but without their cancellation near w = 0 (beta near 1), so the
// round trip and the half-power identity hold to ~1e-15.

double lifPowerGain(double beta, double omega) {
    const double s = std::sin(0.5 * omega);
    return 1.0 / ((1.0 - beta) * (1.0 - beta) + 4.0 * beta * s * s);
}

double lifRelativeGain(double beta, double omega) {
    return lifPowerGain(beta, omega) * (1.0 - beta) * (1.0 - beta);
}

double lifCutoffOmega(double beta) {
    // sin^2(w_c / 2) = (1 - cos w_c) / 2 = (1 - beta)^2 / (4 beta).
    if (!(beta > 0))
        return kNaN;
    const double h = (1.0 - beta) / (2.0 * std::sqrt(beta));
    if (!(h >= 0.0 && h <= 1.0))
        return kNaN;
    return 2.0 * std::asin(h);
}

double lifBetaStar(double omegaD) {
    // a = 2 - cos w = 1 + s with s = 2 sin^2(w / 2); a^2 - 1 = s (2 + s).
    const double h = std::sin(0.5 * omegaD);
    const double s = 2.0 * h * h;
    return 1.0 + s - std::sqrt(s * (2.0 + s));
}

void lifLowPass(double* x, int n, int stride, double beta) {
    double y = 0;
    for (int t = 0; t < n; ++t) {
        y = beta * y + (1.0 - beta) * x[t * stride];
        x[t * stride] = y;
    }
}

} // namespace pl::lifsnn
