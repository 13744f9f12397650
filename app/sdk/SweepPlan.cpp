#include "SweepPlan.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <cctype>
#include <cmath>
#include <set>

namespace pl {

namespace {

[[noreturn]] void usage(const std::string& grid, const std::string& why) {
    throw UsageError("--grid " + grid + ": " + why);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

double number(const std::string& grid, const std::string& text) {
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v))
            return v;
    } catch (const std::exception&) {
    }
    usage(grid, "'" + text + "' is not a number");
}

/// lo:hi:n[:log] → n values, rounded for integer parameters (duplicates dropped).
std::vector<std::string> rangeValues(const ParamSpec& spec, const std::string& grid,
                                     const std::vector<std::string>& p) {
    if (spec.type != ParamType::Int && spec.type != ParamType::Double)
        usage(grid,
              "a range lo:hi:n needs a numeric parameter; list the values of '" + spec.key + "' instead");
    if (p.size() != 3 && !(p.size() == 4 && p[3] == "log"))
        usage(grid, "a range is lo:hi:n or lo:hi:n:log");
    const double lo = number(grid, p[0]), hi = number(grid, p[1]), nd = number(grid, p[2]);
    if (nd < 1 || nd != std::floor(nd) || nd > 100000)
        usage(grid, "n must be an integer in [1, 100000]");
    const bool log = p.size() == 4;
    if (log && (lo <= 0 || hi <= 0))
        usage(grid, "a log range needs bounds > 0");
    const int n = int(nd);
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (int i = 0; i < n; ++i) {
        const double t = n == 1 ? 0.0 : double(i) / (n - 1);
        double v = log ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
        if (i == n - 1)
            v = hi; // exact end point
        const std::string text =
            spec.type == ParamType::Int ? std::to_string(int64_t(std::llround(v))) : formatSignificant(v, 12);
        if (seen.insert(text).second)
            out.push_back(text);
    }
    return out;
}

SweepAxis parseAxis(const std::vector<ParamSpec>& specs, const std::string& grid) {
    const size_t eq = grid.find('=');
    if (eq == std::string::npos || eq == 0)
        usage(grid, "expected KEY=v1,v2,... or KEY=lo:hi:n[:log]");
    SweepAxis axis{grid.substr(0, eq), {}};
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& s : specs)
        if (s.key == axis.key)
            spec = &s;
    if (!spec) {
        std::string known;
        for (const ParamSpec& s : specs)
            known += (known.empty() ? "" : ", ") + s.key;
        usage(grid, "unknown parameter '" + axis.key + "' (known: " + known + ")");
    }
    const std::string rhs = grid.substr(eq + 1);
    if (rhs.empty())
        usage(grid, "no values");
    const std::vector<std::string> parts = split(rhs, ':');
    axis.values = parts.size() > 1 ? rangeValues(*spec, grid, parts) : split(rhs, ',');
    std::set<std::string> seen;
    for (const std::string& v : axis.values) {
        if (v.empty())
            usage(grid, "empty value");
        if (!seen.insert(v).second)
            usage(grid, "value '" + v + "' appears twice");
        try {
            spec->parse(v);
        } catch (const UsageError& e) {
            usage(grid, e.what());
        }
    }
    return axis;
}

std::vector<uint64_t> parseSeeds(const std::string& text) {
    auto seed = [&](const std::string& s) {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19)
            throw UsageError("--seeds takes A..B or N (non-negative integers), got '" + text + "'");
        return uint64_t(std::stoull(s));
    };
    const size_t dots = text.find("..");
    uint64_t a = 1, b = 0;
    if (dots == std::string::npos) {
        b = seed(text);
        if (b == 0)
            throw UsageError("--seeds N needs N ≥ 1");
    } else {
        a = seed(text.substr(0, dots));
        b = seed(text.substr(dots + 2));
        if (b < a)
            throw UsageError("--seeds A..B needs A ≤ B, got '" + text + "'");
    }
    if (b - a >= 100000)
        throw UsageError("--seeds: at most 100000 seeds");
    std::vector<uint64_t> out;
    for (uint64_t s = a; s <= b; ++s)
        out.push_back(s);
    return out;
}

std::string safe(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+'))
            c = '_';
    return out;
}

} // namespace

SweepPlan SweepPlan::parse(const std::vector<ParamSpec>& specs, const std::vector<std::string>& grids,
                           const std::string& seeds, int64_t maxRuns) {
    SweepPlan plan;
    std::set<std::string> keys;
    for (const std::string& g : grids) {
        SweepAxis axis = parseAxis(specs, g);
        if (!keys.insert(axis.key).second)
            usage(g, "parameter '" + axis.key + "' is already swept by another --grid");
        plan.m_axes.push_back(std::move(axis));
    }
    plan.m_seeds = parseSeeds(seeds);
    if (plan.cellCount() > maxRuns / int64_t(plan.m_seeds.size()))
        throw UsageError("the sweep has " + std::to_string(plan.cellCount()) + " cells × " +
                         std::to_string(plan.m_seeds.size()) + " seeds, more than " +
                         std::to_string(maxRuns) + " runs");
    std::set<std::string> stems;
    for (const SweepCell& r : plan.runs())
        if (!stems.insert(r.fileStem).second)
            throw UsageError("two cells of the sweep map to the file name '" + r.fileStem +
                             "': rename the values so they differ in letters, digits, '.', '-' or '+'");
    return plan;
}

SweepPlan SweepPlan::fromAxes(std::vector<SweepAxis> axes, std::vector<uint64_t> seeds) {
    SweepPlan plan;
    plan.m_axes = std::move(axes);
    plan.m_seeds = std::move(seeds);
    return plan;
}

int64_t SweepPlan::cellCount() const {
    int64_t n = 1;
    for (const SweepAxis& a : m_axes)
        n *= int64_t(a.values.size());
    return n;
}

std::vector<SweepCell> SweepPlan::runs() const {
    std::vector<SweepCell> out;
    const int64_t cells = cellCount();
    for (int64_t c = 0; c < cells; ++c) {
        SweepCell cell;
        cell.cellIndex = int(c);
        int64_t rest = c;
        std::vector<size_t> pick(m_axes.size());
        for (size_t a = m_axes.size(); a-- > 0;) {
            pick[a] = size_t(rest % int64_t(m_axes[a].values.size()));
            rest /= int64_t(m_axes[a].values.size());
        }
        std::string stem;
        for (size_t a = 0; a < m_axes.size(); ++a) {
            cell.values.emplace_back(m_axes[a].key, m_axes[a].values[pick[a]]);
            stem += safe(m_axes[a].key) + "-" + safe(m_axes[a].values[pick[a]]) + "_";
        }
        for (uint64_t s : m_seeds) {
            cell.seed = s;
            cell.fileStem = stem + "seed-" + std::to_string(s);
            out.push_back(cell);
        }
    }
    return out;
}

ParamSet SweepPlan::paramsOf(const ParamSet& base, const SweepCell& run) const {
    ParamSet p = base;
    for (const auto& [k, v] : run.values)
        p.setText(k, v);
    return p;
}

} // namespace pl
