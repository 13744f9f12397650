#include "DroDuals.h"

#include "core/Numeric.h"

#include <boost/math/tools/minima.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace pl::embedgeo {

namespace {

constexpr int kBrentBits = 52;
constexpr std::uintmax_t kBrentIters = 500;

/// The minimiser of a unimodal f on [lo, hi] (Boost.Math Brent).
std::pair<double, double> brent(const std::function<double(double)>& f, double lo, double hi) {
    std::uintmax_t it = kBrentIters;
    const auto r = boost::math::tools::brent_find_minima(f, lo, hi, kBrentBits, it);
    return {r.first, r.second};
}

Eigen::VectorXd argmaxWeights(const Eigen::VectorXd& s) {
    const double m = s.maxCoeff();
    Eigen::VectorXd q = (s.array() == m).cast<double>();
    return q / q.sum();
}

double klOf(const Eigen::VectorXd& q) {
    const double M = double(q.size());
    double kl = 0;
    for (Eigen::Index j = 0; j < q.size(); ++j)
        if (q(j) > 0)
            kl += q(j) * std::log(M * q(j));
    return kl;
}

Eigen::VectorXd tilted(const Eigen::VectorXd& s, double lambda) {
    const double m = s.maxCoeff();
    Eigen::VectorXd q = ((s.array() - m) / lambda).exp();
    return q / q.sum();
}

Eigen::VectorXd powerWeights(const Eigen::VectorXd& s, double alpha, double eta) {
    const double e = 1.0 / (alpha - 1.0);
    Eigen::VectorXd q(s.size());
    for (Eigen::Index j = 0; j < s.size(); ++j)
        q(j) = s(j) > eta ? std::pow(s(j) - eta, e) : 0.0;
    return q / q.sum();
}

double renyiOf(const Eigen::VectorXd& q, double alpha) {
    const double M = double(q.size());
    return std::log(std::pow(M, alpha - 1) * q.array().pow(alpha).sum()) / (alpha - 1);
}

} // namespace

double klObjective(const Eigen::VectorXd& s, double lambda, double rho) {
    const double m = s.maxCoeff();
    const double mean = ((s.array() - m) / lambda).exp().mean();
    return m + lambda * rho + lambda * std::log(mean);
}

namespace {

std::vector<double> sortedDescending(const Eigen::VectorXd& s) {
    std::vector<double> v(s.data(), s.data() + s.size());
    std::sort(v.begin(), v.end(), std::greater<>());
    return v;
}

/// klObjective on values sorted descending: terms below e^-60 of the largest are skipped.
double klObjectiveSorted(const std::vector<double>& v, double lambda, double rho) {
    const double m = v.front();
    double acc = 0;
    for (double x : v) {
        const double z = (x - m) / lambda;
        if (z < -60)
            break;
        acc += std::exp(z);
    }
    return m + lambda * rho + lambda * std::log(acc / double(v.size()));
}

/// renyiObjective on values sorted descending: the sum stops at the first value <= η.
double renyiObjectiveSorted(const std::vector<double>& v, double alpha, double rho, double eta) {
    const double as = alpha / (alpha - 1.0);
    const double c = std::exp((alpha - 1.0) * rho / alpha);
    double acc = 0;
    for (double x : v) {
        if (x <= eta)
            break;
        acc += as == 2.0 ? (x - eta) * (x - eta) : std::exp(as * std::log(x - eta));
    }
    return c * std::pow(acc / double(v.size()), 1.0 / as) + eta;
}

} // namespace

DroValue klDual(const Eigen::VectorXd& s, double rho) {
    const double M = double(s.size()), mx = s.maxCoeff(), mn = s.minCoeff();
    if (rho <= 0)
        return {s.mean(), kNaN};
    if (rho >= std::log(M) || mx == mn)
        return {mx, kNaN};
    const double range = mx - mn;
    const std::vector<double> sorted = sortedDescending(s);
    auto f = [&](double t) { return klObjectiveSorted(sorted, std::exp(t), rho); };
    const auto [t, v] = brent(f, std::log(range * 1e-7), std::log(range * 1e5));
    return {std::min(v, mx), std::exp(t)};
}

Eigen::VectorXd klWeights(const Eigen::VectorXd& s, double rho) {
    const DroValue d = klDual(s, rho);
    if (rho <= 0)
        return Eigen::VectorXd::Constant(s.size(), 1.0 / double(s.size()));
    if (std::isnan(d.arg))
        return argmaxWeights(s);
    return tilted(s, d.arg);
}

double klPrimal(const Eigen::VectorXd& s, double rho) {
    if (rho <= 0)
        return s.mean();
    if (rho >= std::log(double(s.size())) || s.maxCoeff() == s.minCoeff())
        return s.maxCoeff();
    const double range = s.maxCoeff() - s.minCoeff();
    double lo = std::log(range * 1e-9), hi = std::log(range * 1e7); // KL decreases in λ
    for (int it = 0; it < 300; ++it) {
        const double mid = 0.5 * (lo + hi);
        (klOf(tilted(s, std::exp(mid))) > rho ? lo : hi) = mid;
    }
    return tilted(s, std::exp(hi)).dot(s);
}

double renyiObjective(const Eigen::VectorXd& s, double alpha, double rho, double eta) {
    const double as = alpha / (alpha - 1.0);
    const double c = std::exp((alpha - 1.0) * rho / alpha);
    double acc = 0;
    for (Eigen::Index j = 0; j < s.size(); ++j)
        if (s(j) > eta)
            acc += std::exp(as * std::log(s(j) - eta));
    return c * std::pow(acc / double(s.size()), 1.0 / as) + eta;
}

DroValue renyiDual(const Eigen::VectorXd& s, double alpha, double rho) {
    const double M = double(s.size()), mx = s.maxCoeff(), mn = s.minCoeff();
    if (rho <= 0)
        return {s.mean(), kNaN};
    if (rho >= std::log(M) || mx == mn)
        return {mx, kNaN};
    const double range = mx - mn;
    const std::vector<double> sorted = sortedDescending(s);
    // α* = 2 (α = 2): prefix sums of s and s² make each evaluation a binary search (spec §7).
    std::vector<double> p1, p2;
    const bool square = alpha == 2.0;
    if (square) {
        p1.assign(sorted.size() + 1, 0.0);
        p2.assign(sorted.size() + 1, 0.0);
        for (size_t j = 0; j < sorted.size(); ++j) {
            p1[j + 1] = p1[j] + sorted[j];
            p2[j + 1] = p2[j] + sorted[j] * sorted[j];
        }
    }
    const double c = std::exp(0.5 * rho);
    auto f = [&](double eta) {
        if (!square)
            return renyiObjectiveSorted(sorted, alpha, rho, eta);
        const size_t m = size_t(std::lower_bound(sorted.begin(), sorted.end(), eta, std::greater<>()) -
                                sorted.begin()); // values > η
        const double q = std::max(0.0, p2[m] - 2 * eta * p1[m] + double(m) * eta * eta);
        return c * std::sqrt(q / M) + eta;
    };
    // h is convex; h(lo) >= h(lo + range) puts the minimiser right of lo.
    double lo = mn - range;
    for (int it = 0; it < 80 && f(lo) < f(lo + range); ++it)
        lo -= 2 * (mx - lo);
    const auto [eta, v] = brent(f, lo, mx);
    return {std::min(v, mx), eta};
}

namespace {

/// The η of the primal family q ∝ (s − η)₊^{1/(α−1)} whose Rényi divergence to uniform is ρ
/// (bisection; the divergence grows with η). Requires 0 < ρ < log M and s not constant.
double renyiPrimalEta(const Eigen::VectorXd& s, double alpha, double rho, int iterations) {
    const double mx = s.maxCoeff(), mn = s.minCoeff();
    double lo = mn - (mx - mn), hi = mx;
    for (int it = 0; it < 200 && renyiOf(powerWeights(s, alpha, lo), alpha) > rho; ++it)
        lo -= 2 * (mx - lo);
    for (int it = 0; it < iterations; ++it) {
        const double mid = 0.5 * (lo + hi);
        (renyiOf(powerWeights(s, alpha, mid), alpha) > rho ? hi : lo) = mid;
    }
    return lo;
}

} // namespace

Eigen::VectorXd renyiWeights(const Eigen::VectorXd& s, double alpha, double rho) {
    if (rho <= 0)
        return Eigen::VectorXd::Constant(s.size(), 1.0 / double(s.size()));
    if (rho >= std::log(double(s.size())) || s.maxCoeff() == s.minCoeff())
        return argmaxWeights(s);
    // The dual is flat in η for large α (CVaR-like), so the weights come from the primal
    // condition (divergence = ρ) instead of the dual minimiser.
    return powerWeights(s, alpha, renyiPrimalEta(s, alpha, rho, 64));
}

double renyiPrimal(const Eigen::VectorXd& s, double alpha, double rho) {
    if (rho <= 0)
        return s.mean();
    if (rho >= std::log(double(s.size())) || s.maxCoeff() == s.minCoeff())
        return s.maxCoeff();
    return powerWeights(s, alpha, renyiPrimalEta(s, alpha, rho, 300)).dot(s);
}

double effectiveSampleSize(const Eigen::VectorXd& q) {
    return 1.0 / q.squaredNorm();
}

double temperedLogSumExp(const Eigen::VectorXd& x, double tau) {
    const double m = x.maxCoeff();
    return m + tau * std::log(((x.array() - m) / tau).exp().sum());
}

double negLabelScore(const Eigen::VectorXd& idSim, const Eigen::VectorXd& negSim, double tau) {
    const double m = std::max(idSim.maxCoeff(), negSim.maxCoeff());
    const double a = ((idSim.array() - m) / tau).exp().sum();
    const double b = ((negSim.array() - m) / tau).exp().sum();
    return a / (a + b);
}

} // namespace pl::embedgeo
