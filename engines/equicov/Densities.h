#pragma once
/// The full negative log densities of the three scoring rules (k = 6) and the quantiles of their
/// Mahalanobis radii, for a residual r with log-covariance S (Sigma = exp(S), |Sigma| = e^{tr S}) and
/// q = r^T Sigma^-1 r:
///  - Gaussian: -log f = 3 log 2pi + tr S / 2 + q / 2;
///  - symmetric multivariate Laplace (Kotz-Kozubowski-Podgorski), nu = (2 - k)/2 = -2:
///    f = 2 (2pi)^-3 |Sigma|^-1/2 (q/2)^-1 K_2(sqrt(2q)) (q > 0);
///  - power exponential (the "surrogate" loss ½ tr S + sqrt q): f = |Sigma|^-1/2 e^{-sqrt q} / (120 pi^3),
///    radius sqrt q ~ Gamma(6, 1).
/// Pure functions; any thread.
namespace pl::equicov {

double negLogGauss(double q, double traceS);
double negLogLaplace(double q, double traceS);
double negLogPowerExp(double q, double traceS);

/// P(q <= t) under each family (Gaussian: chi^2_6; Laplace: W chi^2_6 with W ~ Exp(1); power
/// exponential: Gamma(6, 1)^2).
double cdfGauss(double t);
double cdfLaplace(double t);
double cdfPowerExp(double t);
/// The p-quantile of q for a family ("gauss_nll", "le_eso", "power_exp"), by bisection.
double quantileOfQ(const char* family, double p);

} // namespace pl::equicov
