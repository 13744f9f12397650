#include "TemplateEngine.h"

#include "core/Rng.h"

#include <cmath>

namespace pl::templ {

std::vector<ParamSpec> TemplateEngine::params() const {
    return {ParamSpec::integer("walkers", "walkers", 10, 1000000, 1000, "number of independent walks"),
            ParamSpec::integer("steps", "steps", 1, 100000, 200, "steps per walk"),
            ParamSpec::real("sigma", "step size", 0.01, 10, 1, "standard deviation of one step", "units")};
}

ResultDocument TemplateEngine::run(const InputList&, const ParamSet& p, RunContext& ctx) const {
    const int64_t walkers = p.getInt("walkers"), steps = p.getInt("steps");
    const double sigma = p.getDouble("sigma");
    Rng rng = Rng(ctx.seed()).fork("walks");
    std::vector<double> pos(size_t(walkers), 0.0);
    Series msd{{}, {}, "step", "mean squared displacement (units²)"};
    for (int64_t t = 1; t <= steps; ++t) {
        double s = 0;
        for (double& x : pos) {
            x += rng.normal(0, sigma);
            s += x * x;
        }
        msd.x.push_back(double(t));
        msd.y.push_back(s / double(walkers));
        ctx.throwIfCancelled();
        ctx.progress(double(t) / double(steps));
    }
    ResultDocument d;
    const double slope = msd.y.back() / (double(steps) * sigma * sigma);
    d.metrics["msd_final"] = msd.y.back();
    d.metrics["slope_ratio"] = slope;
    d.series["msd"] = msd;
    const double tol = 4.0 * std::sqrt(2.0 / double(walkers));
    d.claims.push_back({"linear-msd", "The mean squared displacement after t steps is t·σ².", std::fabs(slope - 1) <= tol,
                        std::fabs(slope - 1), tol, "relative deviation of MSD(T)/(T·σ²) from 1, against 4 standard errors"});
    return d;
}

} // namespace pl::templ
