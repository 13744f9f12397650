#include "RankStats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pl::search {

double kendallTau(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 2)
        throw std::invalid_argument("kendallTau: needs two equal-length samples of at least 2");
    // tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)), n1/n2 = pairs tied in x/y.
    double concordant = 0, discordant = 0, tiedX = 0, tiedY = 0, pairs = 0;
    const size_t n = x.size();
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) {
            pairs += 1;
            const double dx = x[i] - x[j], dy = y[i] - y[j];
            if (dx == 0)
                tiedX += 1;
            if (dy == 0)
                tiedY += 1;
            if (dx == 0 || dy == 0)
                continue;
            if ((dx > 0) == (dy > 0))
                concordant += 1;
            else
                discordant += 1;
        }
    const double denom = std::sqrt((pairs - tiedX) * (pairs - tiedY));
    if (denom == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return (concordant - discordant) / denom;
}

double recallAtK(const std::vector<int64_t>& found, const std::vector<int64_t>& truth, int k) {
    if (k <= 0)
        throw std::invalid_argument("recallAtK: k must be positive");
    const size_t nf = std::min(found.size(), size_t(k)), nt = std::min(truth.size(), size_t(k));
    int hit = 0;
    for (size_t i = 0; i < nf; ++i)
        hit += std::find(truth.begin(), truth.begin() + long(nt), found[i]) != truth.begin() + long(nt);
    return double(hit) / double(k);
}

} // namespace pl::search
