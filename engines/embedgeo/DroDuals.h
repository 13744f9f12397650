#pragma once
/// The negative-label scores as distributionally robust worst cases over the negatives' cosines s̃
/// (M values, empirical distribution P̂ uniform): NegLabel (Jiang et al. 2024), the KL-ball dual
/// Φ_KL(ρ) = inf_λ>0 [λρ + λ log meanⱼ e^{s̃ⱼ/λ}] and the Rényi-ball dual
/// Φ_R(α, ρ) = inf_η [e^{(α−1)ρ/α} (meanⱼ (s̃ⱼ − η)₊^{α*})^{1/α*} + η], α* = α/(α−1)
/// (Cressie–Read dual of Duchi & Namkoong 2021 at radius (e^{(α−1)ρ} − 1)/(α(α−1))). ρ = 0 gives
/// the mean, ρ >= log M the maximum. The 1-D minimisations use Boost.Math's Brent search
/// (log λ for KL, η for Rényi). The primal solvers (bisection on the multiplier) are the tests'
/// independent check. Pure functions; any thread.

#include <Eigen/Core>

namespace pl::embedgeo {

/// A worst-case value with the minimiser of its dual (λ* or η*; NaN at the ρ = 0 and ρ >= log M
/// ends, where the value is the mean or the maximum in closed form).
struct DroValue {
    double value = 0;
    double arg = 0;
};

/// Φ_KL(ρ) of \a s (M >= 1 values).
DroValue klDual(const Eigen::VectorXd& s, double rho);
/// λ log meanⱼ e^{sⱼ/λ} + λρ at a given λ > 0 (the dual objective; λ = τ, ρ = log M gives NegLabel's
/// τ log Σⱼ e^{sⱼ/τ}).
double klObjective(const Eigen::VectorXd& s, double lambda, double rho);
/// Worst-case weights of the KL ball: q ∝ e^{s/λ*} (uniform at ρ = 0, the argmax set at ρ >= log M).
Eigen::VectorXd klWeights(const Eigen::VectorXd& s, double rho);
/// The KL primal max Σ qⱼ sⱼ s.t. KL(q‖uniform) <= ρ: bisection on log λ of the tilted family.
double klPrimal(const Eigen::VectorXd& s, double rho);

/// Φ_R(α, ρ) of \a s, α > 1.
DroValue renyiDual(const Eigen::VectorXd& s, double alpha, double rho);
/// The Rényi dual objective at η.
double renyiObjective(const Eigen::VectorXd& s, double alpha, double rho, double eta);
/// Worst-case weights q ∝ (s − η)₊^{α*−1}, η from the primal condition D_α(q‖uniform) = ρ
/// (64 bisection steps; the dual is too flat in η for large α to give the weights).
Eigen::VectorXd renyiWeights(const Eigen::VectorXd& s, double alpha, double rho);
/// The Rényi primal max Σ qⱼ sⱼ s.t. Σ M^{α−1} qⱼ^α <= e^{(α−1)ρ}: bisection on η of the family
/// q ∝ (s − η)₊^{1/(α−1)}.
double renyiPrimal(const Eigen::VectorXd& s, double alpha, double rho);

/// Effective sample size 1 / Σ qⱼ² of weights summing to one.
double effectiveSampleSize(const Eigen::VectorXd& q);

/// τ log Σ exp(x/τ), stable.
double temperedLogSumExp(const Eigen::VectorXd& x, double tau);

/// NegLabel's score Σₖe^{sₖ/τ} / (Σₖe^{sₖ/τ} + Σⱼe^{s̃ⱼ/τ}) for one image (idSim: K, negSim: M).
double negLabelScore(const Eigen::VectorXd& idSim, const Eigen::VectorXd& negSim, double tau);

} // namespace pl::embedgeo
