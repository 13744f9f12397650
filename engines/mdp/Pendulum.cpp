#include "mdp/Pendulum.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::mdp {

namespace {
constexpr double kG = 10.0, kM = 1.0, kL = 1.0;
}

double Pendulum::maxCost() {
    const double pi = std::numbers::pi;
    return pi * pi + 0.1 * kMaxSpeed * kMaxSpeed + 0.001 * kMaxTorque * kMaxTorque;
}

double Pendulum::wrap(double theta) {
    const double pi = std::numbers::pi;
    double w = std::fmod(theta + pi, 2 * pi);
    if (w < 0)
        w += 2 * pi;
    return w - pi;
}

std::array<double, 3> Pendulum::observe(double theta, double thetaDot) {
    return {std::cos(theta), std::sin(theta), thetaDot};
}

void Pendulum::reset(Rng& rng) {
    m_theta = rng.uniform(-std::numbers::pi, std::numbers::pi);
    m_thetaDot = rng.uniform(-1.0, 1.0);
}

void Pendulum::resetTo(double theta, double thetaDot) {
    m_theta = theta;
    m_thetaDot = std::clamp(thetaDot, -kMaxSpeed, kMaxSpeed);
}

double Pendulum::step(double u) {
    u = std::clamp(u, -kMaxTorque, kMaxTorque);
    const double th = wrap(m_theta);
    const double cost = th * th + 0.1 * m_thetaDot * m_thetaDot + 0.001 * u * u;
    const double acc = 3 * kG / (2 * kL) * std::sin(m_theta) + 3.0 / (kM * kL * kL) * u;
    m_thetaDot = std::clamp(m_thetaDot + acc * kDt, -kMaxSpeed, kMaxSpeed);
    m_theta += m_thetaDot * kDt;
    return -cost;
}

} // namespace pl::mdp
