#include "Rng.h"

#include <cmath>
#include <numbers>

namespace pl {

static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Rng::Rng(uint64_t seed) : m_seed(seed) {
    uint64_t x = seed;
    for (auto& s : m_s)
        s = splitmix64(x);
}

Rng Rng::fork(std::string_view name) const {
    // FNV-1a of the name mixed with the parent seed.
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : name) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    uint64_t x = m_seed ^ h;
    return Rng(splitmix64(x));
}

uint64_t Rng::next() {
    const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double Rng::uniform() { return double(next() >> 11) * 0x1.0p-53; }

double Rng::uniform(double a, double b) { return a + (b - a) * uniform(); }

uint64_t Rng::uniformInt(uint64_t n) {
    if (n <= 1)
        return 0;
    // Lemire's method with rejection.
    unsigned __int128 m = (unsigned __int128)next() * n;
    uint64_t l = uint64_t(m);
    if (l < n) {
        uint64_t t = (0 - n) % n;
        while (l < t) {
            m = (unsigned __int128)next() * n;
            l = uint64_t(m);
        }
    }
    return uint64_t(m >> 64);
}

double Rng::normal() {
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spare;
    }
    double u, v, s;
    do {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = std::sqrt(-2.0 * std::log(s) / s);
    m_spare = v * f;
    m_hasSpare = true;
    return u * f;
}

double Rng::normal(double mean, double sd) { return mean + sd * normal(); }

double Rng::exponential(double rate) {
    double u;
    do {
        u = uniform();
    } while (u == 0.0);
    return -std::log(u) / rate;
}

double Rng::gamma(double shape, double scale) {
    if (shape < 1.0) {
        // Boost: G(a) = G(a+1) * U^(1/a)
        double u;
        do {
            u = uniform();
        } while (u == 0.0);
        return gamma(shape + 1.0, scale) * std::pow(u, 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = uniform();
        if (u < 1.0 - 0.0331 * x * x * x * x)
            return d * v * scale;
        if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return d * v * scale;
    }
}

double Rng::vonMises(double mu, double kappa) {
    constexpr double pi = std::numbers::pi;
    auto wrap = [](double a) {
        a = std::fmod(a + pi, 2.0 * pi);
        if (a <= 0)
            a += 2.0 * pi;
        return a - pi;
    };
    if (kappa < 1e-8)
        return wrap(uniform(-pi, pi));
    // Best & Fisher (1979).
    const double tau = 1.0 + std::sqrt(1.0 + 4.0 * kappa * kappa);
    const double rho = (tau - std::sqrt(2.0 * tau)) / (2.0 * kappa);
    const double r = (1.0 + rho * rho) / (2.0 * rho);
    for (;;) {
        double u1 = uniform(), u2 = uniform(), u3 = uniform();
        double z = std::cos(pi * u1);
        double f = (1.0 + r * z) / (r + z);
        double c = kappa * (r - f);
        if (c * (2.0 - c) - u2 > 0.0 || std::log(c / u2) + 1.0 - c >= 0.0) {
            double theta = (u3 > 0.5 ? 1.0 : -1.0) * std::acos(f);
            return wrap(mu + theta);
        }
    }
}

} // namespace pl
