#include "TemplateEngine.h"

#include "TemplateKeys.h"
#include "core/Rng.h"

#include <cmath>

namespace pl::templ {

std::vector<ParamSpec> TemplateEngine::params() const {
    return {ParamSpec::integer(keys::param::kWalkers, "walkers", 10, 1000000, 1000,
                               "number of independent walks"),
            ParamSpec::integer(keys::param::kSteps, "steps", 1, 100000, 200, "steps per walk"),
            ParamSpec::real(keys::param::kSigma, "step size", 0.01, 10, 1, "standard deviation of one step",
                            "units")};
}

ResultDocument TemplateEngine::run(const InputList&, const ParamSet& p, RunContext& ctx) const {
    const int64_t walkers = p.getInt(keys::param::kWalkers), steps = p.getInt(keys::param::kSteps);
    const double sigma = p.getDouble(keys::param::kSigma);
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
    d.metrics[keys::metric::kMsdFinal] = msd.y.back();
    d.metrics[keys::metric::kSlopeRatio] = slope;
    d.series[keys::series::kMsd] = msd;
    const double tol = 4.0 * std::sqrt(2.0 / double(walkers));
    d.claims.push_back({keys::claim::kLinearMsd, "The mean squared displacement after t steps is t·σ².",
                        std::fabs(slope - 1) <= tol, std::fabs(slope - 1), tol,
                        "relative deviation of MSD(T)/(T·σ²) from 1, against 4 standard errors"});
    return d;
}

} // namespace pl::templ
