#include "Gmm1d.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pl::robusttrain {

namespace {
double logNormal(double x, double m, double v) {
    return -0.5 * (std::log(2 * std::numbers::pi * v) + (x - m) * (x - m) / v);
}
} // namespace

double Gmm1d::posteriorLow(double x) const {
    const double a = std::log(weight[0]) + logNormal(x, mean[0], var[0]);
    const double b = std::log(weight[1]) + logNormal(x, mean[1], var[1]);
    const double m = std::max(a, b);
    return std::exp(a - m) / (std::exp(a - m) + std::exp(b - m));
}

Gmm1d fitGmm1d(const std::vector<double>& x, const std::vector<double>& wIn, int maxIter) {
    const size_t n = x.size();
    std::vector<double> w = wIn.empty() ? std::vector<double>(n, 1.0) : wIn;
    if (w.size() != n)
        throw std::invalid_argument("fitGmm1d: weights and values differ in length");
    double W = 0, lo = 0, hi = 0, mean = 0;
    bool any = false;
    for (size_t i = 0; i < n; ++i)
        if (w[i] > 0) {
            lo = any ? std::min(lo, x[i]) : x[i];
            hi = any ? std::max(hi, x[i]) : x[i];
            any = true;
            W += w[i];
            mean += w[i] * x[i];
        }
    if (!any || !(hi > lo))
        throw std::invalid_argument("fitGmm1d: needs two distinct values");
    mean /= W;
    double pooled = 0;
    for (size_t i = 0; i < n; ++i)
        pooled += w[i] * (x[i] - mean) * (x[i] - mean);
    pooled /= W;
    const double floor = 1e-6 * pooled;
    Gmm1d g;
    g.mean[0] = lo;
    g.mean[1] = hi;
    g.var[0] = g.var[1] = pooled;
    std::vector<double> r(n);
    double prev = 0;
    for (int it = 0; it < maxIter; ++it) {
        double ll = 0, s0 = 0, s1 = 0, m0 = 0, m1 = 0;
        for (size_t i = 0; i < n; ++i) {
            const double a = std::log(g.weight[0]) + logNormal(x[i], g.mean[0], g.var[0]);
            const double b = std::log(g.weight[1]) + logNormal(x[i], g.mean[1], g.var[1]);
            const double m = std::max(a, b);
            const double lse = m + std::log(std::exp(a - m) + std::exp(b - m));
            r[i] = std::exp(a - lse);
            ll += w[i] * lse;
            s0 += w[i] * r[i];
            s1 += w[i] * (1 - r[i]);
            m0 += w[i] * r[i] * x[i];
            m1 += w[i] * (1 - r[i]) * x[i];
        }
        g.logLikelihood = ll;
        g.iterations = it + 1;
        if (it > 0 && std::abs(ll - prev) <= 1e-10 * std::abs(prev))
            break;
        prev = ll;
        if (s0 <= 0 || s1 <= 0)
            break; // a component lost every point: keep the last parameters
        m0 /= s0;
        m1 /= s1;
        double v0 = 0, v1 = 0;
        for (size_t i = 0; i < n; ++i) {
            v0 += w[i] * r[i] * (x[i] - m0) * (x[i] - m0);
            v1 += w[i] * (1 - r[i]) * (x[i] - m1) * (x[i] - m1);
        }
        g.mean[0] = m0;
        g.mean[1] = m1;
        g.var[0] = std::max(v0 / s0, floor);
        g.var[1] = std::max(v1 / s1, floor);
        g.weight[0] = s0 / W;
        g.weight[1] = s1 / W;
    }
    if (g.mean[0] > g.mean[1]) {
        std::swap(g.mean[0], g.mean[1]);
        std::swap(g.var[0], g.var[1]);
        std::swap(g.weight[0], g.weight[1]);
    }
    return g;
}

} // namespace pl::robusttrain
