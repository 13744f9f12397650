#pragma once
/// The project's own seeded random generator (xoshiro256** seeded through splitmix64) and its
/// samplers. Standard-library distributions differ between implementations, so every sampler
/// here is written out: the same seed gives the same stream on every platform. Not thread-safe:
/// give each thread its own Rng (fork()).

#include <cstdint>
#include <string_view>

namespace pl {

class Rng {
public:
    explicit Rng(uint64_t seed = 0);

    /// A statistically independent generator derived from this one's seed and a stream name
    /// (does not advance this generator).
    Rng fork(std::string_view name) const;

    uint64_t next();                         ///< 64 random bits
    double uniform();                        ///< [0, 1), 53 bits
    double uniform(double a, double b);      ///< [a, b)
    uint64_t uniformInt(uint64_t n);         ///< {0, ..., n-1}, unbiased; n > 0
    double normal();                         ///< standard normal (polar Marsaglia)
    double normal(double mean, double sd);
    double exponential(double rate = 1.0);   ///< mean 1/rate
    double gamma(double shape, double scale = 1.0); ///< Marsaglia-Tsang; shape > 0
    double vonMises(double mu, double kappa); ///< Best-Fisher; result in (-pi, pi]

    uint64_t seed() const { return m_seed; }

private:
    uint64_t m_seed;
    uint64_t m_s[4];
    bool m_hasSpare = false;
    double m_spare = 0;
};

} // namespace pl
