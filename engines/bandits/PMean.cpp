#include "PMean.h"

#include <cmath>
#include <limits>

namespace pl::bandits {

double pMean(const std::vector<double>& y, double p) {
    if (y.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const double n = double(y.size());
    if (p == 0) {
        double s = 0;
        for (double v : y) {
            if (v <= 0)
                return 0;
            s += std::log(v);
        }
        return std::exp(s / n);
    }
    // Factor out the maximum so that large |p| neither overflows nor underflows.
    double mx = 0;
    for (double v : y)
        mx = std::max(mx, v);
    if (mx <= 0)
        return 0;
    double s = 0;
    for (double v : y) {
        if (p < 0 && v <= 0)
            return 0;
        s += std::pow(v / mx, p);
    }
    return mx * std::pow(s / n, 1.0 / p);
}

double logLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (!(x[i] > 0) || !(y[i] > 0))
            continue;
        const double lx = std::log(x[i]), ly = std::log(y[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
        ++n;
    }
    if (n < 2)
        return std::numeric_limits<double>::quiet_NaN();
    const double den = n * sxx - sx * sx;
    return den > 0 ? (n * sxy - sx * sy) / den : std::numeric_limits<double>::quiet_NaN();
}

} // namespace pl::bandits
