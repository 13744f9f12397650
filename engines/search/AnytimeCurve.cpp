#include "AnytimeCurve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pl::search {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double quantile(std::vector<double> v, double q) {
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
    if (v.empty())
        return kNaN;
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(q, 0.0, 1.0) * double(v.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    const double t = pos - double(lo);
    return v[lo] + t * (v[hi] - v[lo]);
}

std::vector<double> resampleStep(const std::vector<double>& budgets, const std::vector<double>& values,
                                 const std::vector<double>& grid) {
    if (budgets.size() != values.size())
        throw std::invalid_argument("resampleStep: budgets and values differ in length");
    std::vector<double> out(grid.size(), kNaN);
    size_t j = 0;
    double last = kNaN;
    for (size_t g = 0; g < grid.size(); ++g) {
        while (j < budgets.size() && budgets[j] <= grid[g])
            last = values[j++];
        out[g] = last;
    }
    return out;
}

std::vector<double> runningMin(const std::vector<double>& values) {
    std::vector<double> out(values.size());
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < values.size(); ++i) {
        if (values[i] < best)
            best = values[i];
        out[i] = best;
    }
    return out;
}

AnytimeSummary summarizeRepeats(const std::vector<double>& grid,
                                const std::vector<std::vector<double>>& repeats) {
    AnytimeSummary s;
    s.budget = grid;
    for (size_t g = 0; g < grid.size(); ++g) {
        std::vector<double> col;
        for (const auto& r : repeats) {
            if (r.size() != grid.size())
                throw std::invalid_argument("summarizeRepeats: a repeat is not on the grid");
            if (std::isfinite(r[g]))
                col.push_back(r[g]);
        }
        s.count.push_back(int(col.size()));
        s.median.push_back(quantile(col, 0.5));
        s.q25.push_back(quantile(col, 0.25));
        s.q75.push_back(quantile(col, 0.75));
    }
    return s;
}

} // namespace pl::search
