#pragma once
/// Keyed 64-bit hashing with SipHash-2-4 (libsodium's crypto_shorthash): the secret key is drawn from
/// a pl::Rng, so the sampling decisions of a sketch are a deterministic function of the run's seed but
/// unknown to an adversary who sees only the answers. Immutable after construction; any thread.

#include "core/Rng.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace pl::streams {

class KeyedHash {
public:
    /// A hash with a 128-bit key drawn from \a rng.
    explicit KeyedHash(Rng& rng);
    /// A hash with the given key bytes (tests).
    explicit KeyedHash(const std::array<unsigned char, 16>& key) : m_key(key) {}

    /// SipHash-2-4 of the 8 little-endian bytes of \a x.
    uint64_t operator()(uint64_t x) const;
    /// SipHash-2-4 of (x, epoch) as 16 little-endian bytes (a fresh coin per activation epoch).
    uint64_t operator()(uint64_t x, uint64_t epoch) const;
    /// SipHash-2-4 of arbitrary bytes.
    uint64_t bytes(std::string_view s) const;

private:
    std::array<unsigned char, 16> m_key{};
};

/// Maps a key token of a file to a 64-bit id: a decimal number in [0, 2^63) stands for itself, any
/// other text for its SipHash under the all-zero key.
uint64_t keyId(std::string_view token);

} // namespace pl::streams
