#pragma once
/// The three tasks of embodied-act besides PID design (PidTask.h): Robertson's stiff kinetics to
/// t = 4·10⁵, a long-horizon run of a conservative Fermi–Pasta–Ulam–Tsingou β chain, and the
/// identification of a damped oscillator (ω, ζ) from noisy samples. Immutable after construction.

#include "simloop/Task.h"

namespace pl::simloop {

/// y₁' = −0.04 y₁ + 10⁴ y₂y₃, y₂' = 0.04 y₁ − 10⁴ y₂y₃ − 3·10⁷ y₂², y₃' = 3·10⁷ y₂², y(0) = (1, 0, 0).
/// Output y₂·10⁴ on 200 log-spaced times; monitor: a concentration below −10·atol. Spec: the run
/// reaches tEnd with y₁ + y₂ + y₃ = 1 within 10⁻⁶.
class RobertsonTask final : public Task {
public:
    explicit RobertsonTask(double tEnd = 4e5) : m_tEnd(tEnd) {}
    std::string name() const override { return "robertson"; }
    OdeSystem system(const Plan& p) const override;
    Eigen::VectorXd initialState(const Plan& p) const override;
    double tEnd() const override { return m_tEnd; }
    std::vector<double> outputTimes() const override;
    double output(const Eigen::VectorXd& y) const override { return 1e4 * y[1]; }
    std::optional<Detection> check(const Plan& p, const Trajectory& traj, size_t from,
                                   double bestCost) const override;
    Judgement judge(const Plan& p, const Trajectory& traj, bool complete) const override;
    Plan initialPlan(const Plan& initial) const override { return initial; }

private:
    double m_tEnd;
};

/// A β-FPUT chain of `masses` unit masses between fixed walls, q_i'' = (q_{i+1} − 2q_i + q_{i−1})
/// + β[(q_{i+1} − q_i)³ − (q_i − q_{i−1})³], β = 1, q(0) = (1, 0, …), v(0) = 0. Output q₁; monitor:
/// relative energy change above `driftTol`. The first plan is loose rk45 (rtol 10⁻⁴); spec: the
/// largest relative energy error of the run stays at or below driftTol.
class EnergyTask final : public Task {
public:
    EnergyTask(double tEnd = 500, double outputDt = 0.5, double driftTol = 1e-3, int masses = 4);
    std::string name() const override { return "energy"; }
    OdeSystem system(const Plan& p) const override;
    Eigen::VectorXd initialState(const Plan& p) const override;
    double tEnd() const override { return m_tEnd; }
    std::vector<double> outputTimes() const override { return uniformGrid(m_tEnd, m_outputDt); }
    double output(const Eigen::VectorXd& y) const override { return y[0]; }
    std::optional<Detection> check(const Plan& p, const Trajectory& traj, size_t from,
                                   double bestCost) const override;
    Judgement judge(const Plan& p, const Trajectory& traj, bool complete) const override;
    Plan initialPlan(const Plan& initial) const override;
    /// Total energy of a state.
    double energy(const Eigen::VectorXd& y) const;

private:
    double m_tEnd, m_outputDt, m_driftTol;
    int m_masses;
};

/// x'' + 2ζω x' + ω² x = 0, x(0) = 1, x'(0) = 0; θ = (ω, ζ) fitted to samples of the truth
/// (ω, ζ) = (2, 0.1) with Gaussian noise σ = 0.02 (seeded). Cost: sum of squared residuals;
/// monitor: the partial sum already above the best complete fit of the episode; spec: the residual
/// at the noise level, SSE ≤ 1.2·N·σ².
class IdentifyTask final : public Task {
public:
    IdentifyTask(double tEnd, double outputDt, uint64_t dataSeed);
    std::string name() const override { return "identify"; }
    OdeSystem system(const Plan& p) const override;
    Eigen::VectorXd initialState(const Plan& p) const override;
    double tEnd() const override { return m_tEnd; }
    std::vector<double> outputTimes() const override { return m_times; }
    double output(const Eigen::VectorXd& y) const override { return y[0]; }
    std::optional<Detection> check(const Plan& p, const Trajectory& traj, size_t from,
                                   double bestCost) const override;
    Judgement judge(const Plan& p, const Trajectory& traj, bool complete) const override;
    Plan initialPlan(const Plan& initial) const override;
    std::vector<double> thetaFloor() const override { return {1e-3, 1e-4}; }
    const std::vector<double>& data() const { return m_data; }
    static constexpr double kOmega = 2.0, kZeta = 0.1, kSigma = 0.02;

private:
    double m_tEnd;
    std::vector<double> m_times, m_data;
};

} // namespace pl::simloop
