#pragma once
/// AR-TG: autoregressive torus graph with von Mises conditional outputs,
/// x_{t,j} | past ~ vM with natural parameters (κ cos μ, κ sin μ) = Θ_jᵀ f_t,
/// f_t = [1, cos/sin of the last L lags of the chosen channels]. The exact likelihood (normaliser
/// 2πI₀(κ)) is concave in Θ: fitted by Newton's method with an L2 prior and backtracking.
/// Transfer entropy i→j on a held-out split = mean log p_full(x_j | past) − mean log p_{−i}(x_j | past
/// without channel i); a null distribution from circular shifts of channel i. Deterministic in the Rng.

#include "TorusSampler.h"

namespace pl::torusgraph {

/// I₁(κ)/I₀(κ).
double besselRatio(double kappa);

struct ArSimSpec {
    int d = 3;
    int64_t T = 2560;          ///< total time points (train + test)
    int lag = 1;               ///< lag L of the planted drive
    double selfCoupling = 1.0; ///< κ of x_{t,j} towards x_{t−1,j}
    double baseline = 0.3;     ///< intercept concentration (random preferred phase per channel)
    /// Planted directed drives: (source, target, strength), x_target pulled towards x_source(t−L).
    std::vector<std::tuple<int, int, double>> drives;
};
RowMat simulateArTorus(const ArSimSpec& spec, Rng& rng);

/// Fits one channel's conditional model. F: time × m features; returns m × 2 coefficients.
/// init: optional warm start (m × 2).
Mat fitVonMisesRegression(const Mat& F, const Vec& cosY, const Vec& sinY, double lambda,
                          const Mat* init = nullptr);
/// Mean log-likelihood of y under the fitted coefficients.
double vonMisesMeanLogLik(const Mat& F, const Vec& cosY, const Vec& sinY, const Mat& theta);

struct TransferEntropyOptions {
    int lag = 1; ///< lags 1..lag of every channel enter the features
    double trainFraction = 0.8;
    int shifts = 19; ///< circular-shift null draws per directed pair (0 = none)
    double lambda = 1e-2;
};
struct TransferEntropyResult {
    Mat te;     ///< d × d, row = source i, column = target j (nats per sample), diagonal 0
    Mat null95; ///< 95th percentile of the shift null (NaN when shifts = 0)
    Mat pValue; ///< (1 + #null ≥ te) / (1 + shifts)
};
TransferEntropyResult transferEntropy(const RowMat& x, const TransferEntropyOptions& opt, Rng& rng,
                                      const Poll& poll = {});
/// TE of one directed pair (no null), for convergence curves.
double transferEntropyPair(const RowMat& x, int source, int target, const TransferEntropyOptions& opt);

} // namespace pl::torusgraph
