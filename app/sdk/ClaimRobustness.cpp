#include "ClaimRobustness.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pl {

WilsonInterval wilsonInterval(int k, int n, double z) {
    if (n <= 0)
        return {0, 1};
    const double p = double(k) / n, z2 = z * z, denom = 1 + z2 / n;
    const double centre = (p + z2 / (2.0 * n)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::vector<ClaimTally> tallyClaims(const std::vector<const ResultDocument*>& runs) {
    std::vector<ClaimTally> out;
    std::map<std::string, std::vector<double>> observed;
    for (const ResultDocument* d : runs)
        for (const Claim& c : d->claims) {
            auto it = std::find_if(out.begin(), out.end(), [&](const ClaimTally& t) { return t.id == c.id; });
            if (it == out.end()) {
                out.push_back({c.id, c.statement, 0, 0, {}, 0, 0, 0, c.threshold});
                it = out.end() - 1;
            }
            it->holds += c.holds ? 1 : 0;
            ++it->runs;
            observed[c.id].push_back(c.observed);
        }
    for (ClaimTally& t : out) {
        std::vector<double>& v = observed[t.id];
        std::sort(v.begin(), v.end());
        t.interval = wilsonInterval(t.holds, t.runs);
        t.observedMin = v.front();
        t.observedMax = v.back();
        const size_t m = v.size() / 2;
        t.observedMedian = v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    }
    return out;
}

} // namespace pl
