#include "simloop/PidTask.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace pl::simloop {

StepMetrics stepMetrics(const std::vector<double>& t, const std::vector<double>& y) {
    StepMetrics m;
    if (t.empty())
        return m;
    double ymax = -1e300;
    for (double v : y)
        ymax = std::max(ymax, v);
    m.overshoot = std::max(0.0, ymax - 1.0);
    // Settling: the first grid time after which the output never leaves the 2 % band again.
    long last = -1;
    for (size_t i = 0; i < y.size(); ++i)
        if (!(std::abs(y[i] - 1.0) <= 0.02))
            last = long(i);
    m.settlingTime = last + 1 < long(t.size()) ? t[size_t(last + 1)] : kNaN;
    for (size_t i = 1; i < t.size(); ++i)
        m.iae += 0.5 * (t[i] - t[i - 1]) * (std::abs(1 - y[i]) + std::abs(1 - y[i - 1]));
    return m;
}

namespace {

std::complex<double> polyval(const std::vector<double>& c, std::complex<double> s) {
    std::complex<double> v = 0;
    for (double a : c)
        v = v * s + a;
    return v;
}

} // namespace

std::vector<double> zieglerNichols(const std::vector<double>& num, const std::vector<double>& den) {
    const int n = 4000;
    double prevPhase = 0, prevW = 0;
    bool first = true;
    double unwrapped = 0;
    for (int i = 0; i < n; ++i) {
        const double w = std::pow(10.0, -3 + 6.0 * i / (n - 1));
        const std::complex<double> g = polyval(num, {0, w}) / polyval(den, {0, w});
        const double ph = std::arg(g);
        if (first) {
            unwrapped = ph;
            first = false;
        } else {
            double d = ph - prevPhase;
            while (d > std::numbers::pi)
                d -= 2 * std::numbers::pi;
            while (d < -std::numbers::pi)
                d += 2 * std::numbers::pi;
            const double before = unwrapped;
            unwrapped += d;
            if (before > -std::numbers::pi && unwrapped <= -std::numbers::pi) {
                const double f = (before + std::numbers::pi) / (before - unwrapped);
                const double wc = prevW + f * (w - prevW);
                const double ku = 1.0 / std::abs(polyval(num, {0, wc}) / polyval(den, {0, wc}));
                const double tu = 2 * std::numbers::pi / wc;
                const double kp = 0.6 * ku, ti = tu / 2, td = tu / 8;
                return {kp, kp / ti, kp * td};
            }
        }
        prevPhase = ph;
        prevW = w;
    }
    return {1.0, 0.5, 0.25};
}

bool openLoopUnstable(const std::vector<double>& den) {
    // Routh–Hurwitz: every first-column entry must have the sign of the leading coefficient.
    const size_t n = den.size() - 1;
    if (n == 0)
        return false;
    const double sgn = den[0] > 0 ? 1 : -1;
    for (double a : den)
        if (!(a * sgn > 0))
            return true; // a zero or sign change in the coefficients
    const size_t cols = n / 2 + 1;
    std::vector<std::vector<double>> r(n + 1, std::vector<double>(cols + 1, 0.0));
    for (size_t j = 0; j < cols; ++j) {
        r[0][j] = 2 * j < den.size() ? den[2 * j] : 0;
        r[1][j] = 2 * j + 1 < den.size() ? den[2 * j + 1] : 0;
    }
    for (size_t i = 2; i <= n; ++i) {
        if (std::abs(r[i - 1][0]) < 1e-300)
            return true;
        for (size_t j = 0; j < cols; ++j)
            r[i][j] = (r[i - 1][0] * r[i - 2][j + 1] - r[i - 2][0] * r[i - 1][j + 1]) / r[i - 1][0];
    }
    for (size_t i = 0; i <= n; ++i)
        if (!(r[i][0] * sgn > 0))
            return true;
    return false;
}

PidTask::PidTask(PidSpec spec) : m_spec(std::move(spec)) {
    const auto& den = m_spec.den;
    const auto& num = m_spec.num;
    if (den.empty() || den[0] == 0 || num.size() >= den.size())
        throw UsageError("pid: the plant must be strictly proper with a non-zero leading denominator");
    m_n = int(den.size()) - 1;
    m_a.resize(m_n);
    m_c = Eigen::VectorXd::Zero(m_n);
    for (int i = 0; i < m_n; ++i)
        m_a[i] = den[size_t(m_n - i)] / den[0]; // a[i] multiplies x_{i+1} (x₁ = lowest derivative)
    for (size_t k = 0; k < num.size(); ++k) {
        const int power = int(num.size() - 1 - k); // coefficient of s^power
        m_c[power] = num[k] / den[0];
    }
}

double PidTask::control(const std::vector<double>& theta, const double* y) const {
    const double out = m_c.dot(Eigen::Map<const Eigen::VectorXd>(y, m_n));
    const double e = 1.0 - out;
    const double z = y[m_n], w = y[m_n + 1];
    return theta[0] * e + theta[1] * z + (theta[2] / m_spec.tf) * (e - w);
}

OdeSystem PidTask::system(const Plan& p) const {
    OdeSystem s;
    s.dim = m_n + 2;
    const std::vector<double> theta = p.theta;
    s.rhs = [this, theta](double, const double* y, double* dy) {
        const int n = m_n;
        const double out = m_c.dot(Eigen::Map<const Eigen::VectorXd>(y, n));
        const double e = 1.0 - out;
        double u = control(theta, y);
        if (m_spec.uMax > 0)
            u = std::clamp(u, -m_spec.uMax, m_spec.uMax);
        for (int i = 0; i + 1 < n; ++i)
            dy[i] = y[i + 1];
        double last = u;
        for (int i = 0; i < n; ++i)
            last -= m_a[i] * y[i];
        dy[n - 1] = last;
        dy[n] = e;
        dy[n + 1] = (e - y[n + 1]) / m_spec.tf;
    };
    return s;
}

Eigen::VectorXd PidTask::initialState(const Plan&) const {
    return Eigen::VectorXd::Zero(m_n + 2);
}

double PidTask::output(const Eigen::VectorXd& y) const {
    return m_c.dot(y.head(m_n));
}

std::vector<double> PidTask::outputTimes() const {
    return uniformGrid(m_spec.tEnd, m_spec.outputDt);
}

std::optional<Detection> PidTask::check(const Plan&, const Trajectory& tr, size_t from, double) const {
    const size_t k = tr.out.size();
    if (k == 0 || from >= k)
        return std::nullopt;
    // Growing oscillation: the last three local maxima of |e| increase (log-envelope slope > 0).
    std::vector<double> peaks;
    for (size_t i = 1; i + 1 < k; ++i) {
        const double a = std::abs(1 - tr.out[i - 1]), b = std::abs(1 - tr.out[i]),
                     c = std::abs(1 - tr.out[i + 1]);
        if (b > a && b >= c && b > 0.02)
            peaks.push_back(b);
    }
    if (peaks.size() >= 3) {
        const double p1 = peaks[peaks.size() - 3], p2 = peaks[peaks.size() - 2], p3 = peaks.back();
        const double slope = 0.5 * std::log(p3 / p1);
        if (p3 > p2 && p2 > p1 && slope > 0)
            return Detection{Anomaly::Divergence,
                             0,
                             tr.t.back(),
                             slope,
                             0.0,
                             "error peaks " + formatSignificant(p1) + " → " + formatSignificant(p2) + " → " +
                                 formatSignificant(p3)};
    }
    for (size_t i = from; i < k; ++i) {
        const double t = tr.t[i], y = tr.out[i];
        if (y - 1 > m_spec.overshootSpec)
            return Detection{Anomaly::Overshoot,
                             0,
                             t,
                             y - 1,
                             m_spec.overshootSpec,
                             "y − 1 = " + formatSignificant(y - 1) + " > " +
                                 formatSignificant(m_spec.overshootSpec)};
        if (t > m_spec.settlingSpec && std::abs(y - 1) > 0.02)
            return Detection{Anomaly::SettlingMissed,
                             0,
                             t,
                             std::abs(y - 1),
                             0.02,
                             "|y − 1| = " + formatSignificant(std::abs(y - 1)) +
                                 " at t = " + formatSignificant(t) + " > T_s spec " +
                                 formatSignificant(m_spec.settlingSpec)};
    }
    return std::nullopt;
}

Judgement PidTask::judge(const Plan&, const Trajectory& tr, bool complete) const {
    const StepMetrics m = stepMetrics(tr.t, tr.out);
    double ts = m.settlingTime;
    if (!std::isfinite(ts)) // not settled yet: at least the last grid time (a lower bound)
        ts = tr.t.empty() ? 0.0 : tr.t.back() + (complete ? m_spec.tEnd : 0.0);
    Judgement j;
    j.meetsSpec = complete && std::isfinite(m.settlingTime) && m.overshoot <= m_spec.overshootSpec &&
                  m.settlingTime <= m_spec.settlingSpec;
    j.cost = std::max(0.0, m.overshoot - m_spec.overshootSpec) / m_spec.overshootSpec +
             std::max(0.0, ts - m_spec.settlingSpec) / m_spec.settlingSpec + 0.01 * m.iae;
    return j;
}

Plan PidTask::initialPlan(const Plan& initial) const {
    Plan p = initial;
    p.theta = zieglerNichols(m_spec.num, m_spec.den);
    return p;
}

} // namespace pl::simloop
