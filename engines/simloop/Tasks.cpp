#include "simloop/Tasks.h"

#include "core/Numeric.h"
#include "core/Rng.h"

#include <algorithm>
#include <cmath>

namespace pl::simloop {

// ---- Robertson ----

OdeSystem RobertsonTask::system(const Plan&) const {
    OdeSystem s;
    s.dim = 3;
    s.rhs = [](double, const double* y, double* dy) {
        dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
        dy[2] = 3e7 * y[1] * y[1];
        dy[1] = -dy[0] - dy[2];
    };
    return s;
}

Eigen::VectorXd RobertsonTask::initialState(const Plan&) const {
    return Eigen::Vector3d(1, 0, 0);
}

std::vector<double> RobertsonTask::outputTimes() const {
    std::vector<double> g{0.0};
    const int n = 200;
    for (int i = 0; i < n; ++i)
        g.push_back(std::pow(10.0, -5 + (std::log10(m_tEnd) + 5) * i / (n - 1)));
    g.back() = m_tEnd;
    return g;
}

std::optional<Detection> RobertsonTask::check(const Plan& p, const Trajectory& tr, size_t from,
                                              double) const {
    for (size_t i = from; i < tr.y.size(); ++i) {
        const double lo = tr.y[i].minCoeff();
        if (lo < -10 * p.atol)
            return Detection{Anomaly::NegativeValue,
                             0,
                             tr.t[i],
                             lo,
                             -10 * p.atol,
                             "min concentration " + formatSignificant(lo)};
    }
    return std::nullopt;
}

Judgement RobertsonTask::judge(const Plan&, const Trajectory& tr, bool complete) const {
    Judgement j;
    if (tr.y.empty())
        return j;
    const double mass = tr.y.back().sum();
    j.cost = std::abs(mass - 1);
    j.meetsSpec = complete && j.cost <= 1e-6 && tr.y.back().minCoeff() >= -1e-6;
    return j;
}

// ---- FPUT chain ----

EnergyTask::EnergyTask(double tEnd, double outputDt, double driftTol, int masses)
    : m_tEnd(tEnd), m_outputDt(outputDt), m_driftTol(driftTol), m_masses(masses) {}

namespace {

void fputAccel(int m, const double* q, double* a) {
    for (int i = 0; i < m; ++i) {
        const double left = i > 0 ? q[i - 1] : 0.0, right = i + 1 < m ? q[i + 1] : 0.0;
        const double dr = right - q[i], dl = q[i] - left;
        a[i] = dr - dl + dr * dr * dr - dl * dl * dl;
    }
}

} // namespace

OdeSystem EnergyTask::system(const Plan&) const {
    OdeSystem s;
    const int m = m_masses;
    s.dim = 2 * m;
    s.rhs = [m](double, const double* y, double* dy) {
        for (int i = 0; i < m; ++i)
            dy[i] = y[m + i];
        fputAccel(m, y, dy + m);
    };
    s.accel = [m](const double* q, double* a) { fputAccel(m, q, a); };
    return s;
}

Eigen::VectorXd EnergyTask::initialState(const Plan&) const {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * m_masses);
    y[0] = 1.0;
    return y;
}

double EnergyTask::energy(const Eigen::VectorXd& y) const {
    const int m = m_masses;
    double e = 0.5 * y.tail(m).squaredNorm();
    for (int i = 0; i <= m; ++i) {
        const double left = i > 0 ? y[i - 1] : 0.0, right = i < m ? y[i] : 0.0;
        const double d = right - left;
        e += 0.5 * d * d + 0.25 * d * d * d * d;
    }
    return e;
}

std::optional<Detection> EnergyTask::check(const Plan&, const Trajectory& tr, size_t from, double) const {
    if (tr.y.empty())
        return std::nullopt;
    const double e0 = energy(tr.y.front());
    for (size_t i = std::max<size_t>(from, 1); i < tr.y.size(); ++i) {
        const double drift = std::abs(energy(tr.y[i]) - e0) / std::abs(e0);
        if (drift > m_driftTol)
            return Detection{Anomaly::EnergyDrift,
                             0,
                             tr.t[i],
                             drift,
                             m_driftTol,
                             "|ΔE|/E = " + formatSignificant(drift) + " > " + formatSignificant(m_driftTol)};
    }
    return std::nullopt;
}

Judgement EnergyTask::judge(const Plan&, const Trajectory& tr, bool complete) const {
    Judgement j;
    if (tr.y.empty())
        return j;
    const double e0 = energy(tr.y.front());
    double worst = 0;
    for (const auto& y : tr.y)
        worst = std::max(worst, std::abs(energy(y) - e0) / std::abs(e0));
    j.cost = worst;
    j.meetsSpec = complete && worst <= m_driftTol;
    return j;
}

Plan EnergyTask::initialPlan(const Plan& initial) const {
    Plan p = initial;
    if (p.integrator != Integrator::Verlet) { // the planner starts cheap: loose adaptive tolerances
        p.rtol = std::max(p.rtol, 1e-4);
        p.atol = std::max(p.atol, 1e-7);
    }
    p.dt = std::min(0.02, m_outputDt);
    return p;
}

// ---- Identification ----

IdentifyTask::IdentifyTask(double tEnd, double outputDt, uint64_t dataSeed)
    : m_tEnd(tEnd), m_times(uniformGrid(tEnd, outputDt)) {
    Rng rng = Rng(dataSeed).fork("identify-data");
    const double wd = kOmega * std::sqrt(1 - kZeta * kZeta);
    for (double t : m_times) {
        const double x =
            std::exp(-kZeta * kOmega * t) * (std::cos(wd * t) + kZeta * kOmega / wd * std::sin(wd * t));
        m_data.push_back(x + kSigma * rng.normal());
    }
}

OdeSystem IdentifyTask::system(const Plan& p) const {
    OdeSystem s;
    s.dim = 2;
    const double w = p.theta.at(0), z = p.theta.at(1);
    s.rhs = [w, z](double, const double* y, double* dy) {
        dy[0] = y[1];
        dy[1] = -2 * z * w * y[1] - w * w * y[0];
    };
    return s;
}

Eigen::VectorXd IdentifyTask::initialState(const Plan&) const {
    return Eigen::Vector2d(1, 0);
}

namespace {

double sse(const std::vector<double>& out, const std::vector<double>& data) {
    double s = 0;
    for (size_t i = 0; i < out.size() && i < data.size(); ++i)
        s += (out[i] - data[i]) * (out[i] - data[i]);
    return s;
}

} // namespace

std::optional<Detection> IdentifyTask::check(const Plan&, const Trajectory& tr, size_t from,
                                             double best) const {
    if (from >= tr.out.size() || !(best < 1e300))
        return std::nullopt;
    const double s = sse(tr.out, m_data);
    if (s > best)
        return Detection{Anomaly::ResidualBound,
                         0,
                         tr.t.back(),
                         s,
                         best,
                         "partial SSE " + formatSignificant(s) + " > best " + formatSignificant(best)};
    return std::nullopt;
}

Judgement IdentifyTask::judge(const Plan&, const Trajectory& tr, bool complete) const {
    Judgement j;
    j.cost = sse(tr.out, m_data);
    j.meetsSpec = complete && j.cost <= 1.2 * double(m_data.size()) * kSigma * kSigma;
    return j;
}

Plan IdentifyTask::initialPlan(const Plan& initial) const {
    // Initial guess from the data: ω from the zero crossings of the first half, ζ = 0.3
    // as a generic first guess.
    int crossings = 0;
    double lastCross = 0;
    for (size_t i = 1; i < m_data.size() && m_times[i] <= 0.5 * m_tEnd; ++i) // first half: well above noise
        if ((m_data[i - 1] > 0) != (m_data[i] > 0)) {
            ++crossings;
            lastCross = m_times[i];
        }
    Plan p = initial;
    const double w = crossings > 1 ? 3.14159265358979 * (crossings - 0.5) / lastCross : 1.0;
    p.theta = {w, 0.3};
    return p;
}

} // namespace pl::simloop
