#pragma once
/// A two-component 1-D Gaussian mixture fitted by EM (the FedGR sieve; spec §3): means start at the
/// minimum and maximum, both variances at the pooled variance, weights 1/2; each variance is floored
/// at 1e-6 x the pooled variance; EM stops when the relative change of the log-likelihood falls
/// below 1e-10 (or after maxIter iterations). Optional sample weights (histogram input: bin
/// centres weighted by counts). Pure; any thread.
#include <vector>

namespace pl::robusttrain {

struct Gmm1d {
    double weight[2] = {0.5, 0.5}; ///< component 0 has the lower mean ("clean")
    double mean[2] = {0, 0};
    double var[2] = {1, 1};
    double logLikelihood = 0; ///< weighted total
    int iterations = 0;
    /// Posterior probability of component 0 at x.
    double posteriorLow(double x) const;
};

/// Fits the mixture to \a x (weights \a w, empty = all 1). At least two distinct values with
/// positive weight are needed, else throws std::invalid_argument.
Gmm1d fitGmm1d(const std::vector<double>& x, const std::vector<double>& w = {}, int maxIter = 1000);

} // namespace pl::robusttrain
