#include "equicov/Densities.h"

#include "nn/MatrixFunctionOps.h"

#include <cmath>
#include <cstring>
#include <numbers>

namespace pl::equicov {

namespace {
const double kLog2Pi = std::log(2 * std::numbers::pi);
constexpr double kQMin = 1e-300;
} // namespace

double negLogGauss(double q, double traceS) {
    return 3 * kLog2Pi + 0.5 * traceS + 0.5 * q;
}

double negLogLaplace(double q, double traceS) {
    q = std::max(q, kQMin);
    return -std::log(2.0) + 3 * kLog2Pi + 0.5 * traceS + std::log(q / 2) -
           nn::logBesselKValue(2.0, std::sqrt(2 * q));
}

double negLogPowerExp(double q, double traceS) {
    // c = Gamma(k/2) / (2 pi^{k/2} Gamma(k)) = 1 / (120 pi^3) for f = c |Sigma|^-1/2 exp(-sqrt q), k = 6.
    const double logC = -3 * std::log(std::numbers::pi) - std::log(120.0);
    return -logC + 0.5 * traceS + std::sqrt(std::max(q, 0.0));
}

double cdfGauss(double t) {
    if (t <= 0)
        return 0;
    const double h = t / 2;
    return 1 - std::exp(-h) * (1 + h + h * h / 2);
}

double cdfLaplace(double t) {
    // P(W X <= t) = int_0^inf e^-w F(t / w) dw, Gauss-Legendre on w = u / (1 - u), u in (0, 1).
    if (t <= 0)
        return 0;
    const int n = 4000;
    double s = 0;
    for (int i = 0; i < n; ++i) {
        const double u = (i + 0.5) / n, w = u / (1 - u), dw = 1 / ((1 - u) * (1 - u));
        s += std::exp(-w) * cdfGauss(t / w) * dw / n;
    }
    return s;
}

double cdfPowerExp(double t) {
    if (t <= 0)
        return 0;
    const double x = std::sqrt(t);
    double term = 1, sum = 1;
    for (int k = 1; k <= 5; ++k) {
        term *= x / k;
        sum += term;
    }
    return 1 - std::exp(-x) * sum;
}

double quantileOfQ(const char* family, double p) {
    auto cdf = [&](double t) {
        if (std::strcmp(family, "le_eso") == 0)
            return cdfLaplace(t);
        if (std::strcmp(family, "power_exp") == 0)
            return cdfPowerExp(t);
        return cdfGauss(t);
    };
    double lo = 0, hi = 1;
    while (cdf(hi) < p)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (cdf(mid) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

} // namespace pl::equicov
