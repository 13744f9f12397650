#pragma once
/// Pendulum swing-up of the pac-bayes-sac control lab (specs-004 §2): θ̈ = 3g/(2l)·sin θ + 3u/(ml²),
/// θ = 0 upright, semi-implicit Euler with dt = 0.05 s, torque |u| ≤ 2 N·m, θ̇ clipped to ±8 rad/s,
/// cost θ² + 0.1·θ̇² + 0.001·u² (θ wrapped to [−π, π)), episodes of 200 steps started from
/// θ ~ U(−π, π), θ̇ ~ U(−1, 1) (the Gym Pendulum-v1 conventions, g = 10, m = l = 1).
/// Plain value type; any thread.

#include "core/Rng.h"

#include <array>

namespace pl::mdp {

class Pendulum {
public:
    static constexpr double kDt = 0.05;       ///< s
    static constexpr double kMaxTorque = 2.0; ///< N·m
    static constexpr double kMaxSpeed = 8.0;  ///< rad/s
    static constexpr int kEpisodeSteps = 200;
    /// The largest cost of one step (θ = π, θ̇ = 8, u = 2): rewards lie in [−kMaxCost, 0].
    static double maxCost();
    /// Wraps an angle to [−π, π).
    static double wrap(double theta);
    /// Observation (cos θ, sin θ, θ̇) of a state.
    static std::array<double, 3> observe(double theta, double thetaDot);

    /// Starts an episode from a random state.
    void reset(Rng& rng);
    /// Starts from a given state (evaluation grids, tests).
    void resetTo(double theta, double thetaDot);
    /// Applies torque u (clipped to ±kMaxTorque); returns the reward (minus the cost) of this step.
    double step(double u);
    double theta() const { return m_theta; }
    double thetaDot() const { return m_thetaDot; }
    std::array<double, 3> observation() const { return observe(m_theta, m_thetaDot); }

private:
    double m_theta = 0;    ///< rad, 0 = upright
    double m_thetaDot = 0; ///< rad/s
};

} // namespace pl::mdp
