#pragma once
/// The PID design task: plant G(s) = num/den (strictly proper), controller
/// C(s) = Kp + Ki/s + Kd·s/(Tf·s + 1) on e = r − y, unity feedback, unit step r at t = 0, zero
/// initial states, actuator limit ±u_max (0 = none, no anti-windup), output every output_dt. The
/// plant is realised in controllable canonical form; the closed loop's state is
/// [plant states (n), integral of e, derivative-filter state]. Metrics as the issue defines them.

#include "simloop/Task.h"

namespace pl::simloop {

/// A transfer function and what the loop is asked to meet.
struct PidSpec {
    std::vector<double> num{1.0};          ///< highest power first
    std::vector<double> den{1.0, 3, 3, 1}; ///< highest power first, leading coefficient ≠ 0
    double uMax = 3;                       ///< 0 = no actuator limit
    double tEnd = 20;
    double outputDt = 0.05;
    double overshootSpec = 0.10; ///< max(0, max y − 1) must stay at or below this
    double settlingSpec = 10;    ///< settling time (2 %) must stay at or below this
    double tf = 0.05;            ///< derivative filter constant Tf
};

/// Overshoot, 2 % settling time and IAE of a unit-step response on a grid.
struct StepMetrics {
    double overshoot = 0;    ///< max(0, max y − 1)
    double settlingTime = 0; ///< first grid time after which |y − 1| ≤ 0.02 for good (NaN: never)
    double iae = 0;          ///< trapezoid of |1 − y|
};

StepMetrics stepMetrics(const std::vector<double>& t, const std::vector<double>& y);

/// Ziegler–Nichols PID gains (Kp, Ki, Kd) from the ultimate gain and period of G (frequency
/// response scanned for the −180° crossing); (1, 0.5, 0.25) when the phase never reaches −180°.
std::vector<double> zieglerNichols(const std::vector<double>& num, const std::vector<double>& den);

/// True when den has a root with non-negative real part (Routh–Hurwitz on the coefficients).
bool openLoopUnstable(const std::vector<double>& den);

class PidTask final : public Task {
public:
    explicit PidTask(PidSpec spec);
    std::string name() const override { return "pid"; }
    OdeSystem system(const Plan& p) const override;
    Eigen::VectorXd initialState(const Plan& p) const override;
    double tEnd() const override { return m_spec.tEnd; }
    std::vector<double> outputTimes() const override;
    double output(const Eigen::VectorXd& y) const override;
    std::optional<Detection> check(const Plan& p, const Trajectory& traj, size_t from,
                                   double bestCost) const override;
    Judgement judge(const Plan& p, const Trajectory& traj, bool complete) const override;
    Plan initialPlan(const Plan& initial) const override;
    std::vector<double> thetaFloor() const override { return {1e-3, 0.0, 0.0}; }
    const PidSpec& spec() const { return m_spec; }
    /// θ = (Kp, Ki, Kd): the control signal before the actuator limit at state \a y.
    double control(const std::vector<double>& theta, const double* y) const;

private:
    PidSpec m_spec;
    int m_n;                  ///< plant order
    Eigen::VectorXd m_a, m_c; ///< companion-form coefficients and output row
};

} // namespace pl::simloop
