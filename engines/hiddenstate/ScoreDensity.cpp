#include "ScoreDensity.h"

#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>

namespace pl::hiddenstate {

void addDensities(const std::vector<double>& score, const std::vector<char>& positive, const std::string& id,
                  const std::string& posPrefix, const std::string& negPrefix, ResultDocument& doc) {
    std::vector<double> cls[2];
    for (size_t i = 0; i < score.size(); ++i)
        if (std::isfinite(score[i]))
            cls[positive[i] ? 1 : 0].push_back(score[i]);
    const size_t n = cls[0].size() + cls[1].size();
    if (n < 2)
        return;
    double mean = 0, var = 0, lo = 1e300, hi = -1e300;
    for (const auto& c : cls)
        for (double v : c) {
            mean += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    mean /= double(n);
    for (const auto& c : cls)
        for (double v : c)
            var += (v - mean) * (v - mean);
    const double sd = std::sqrt(var / double(n - 1));
    const double bw = sd > 0 ? 1.06 * sd * std::pow(double(n), -0.2) : 1e-3;
    lo -= 2 * bw;
    hi += 2 * bw;
    for (int k = 0; k < 2; ++k) {
        if (cls[k].empty())
            continue;
        Series s = emptySeries("score", "density");
        for (int i = 0; i < 80; ++i) {
            const double x = lo + (hi - lo) * i / 79.0;
            double f = 0;
            for (double v : cls[k])
                f += std::exp(-0.5 * (x - v) * (x - v) / (bw * bw));
            addPoint(s, x, f / (double(cls[k].size()) * bw * std::sqrt(2 * M_PI)));
        }
        doc.series[(k ? posPrefix : negPrefix) + id] = s;
    }
}

} // namespace pl::hiddenstate
