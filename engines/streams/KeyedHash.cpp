#include "streams/KeyedHash.h"

#include "streams/StreamCsv.h"

#include <sodium.h>

namespace pl::streams {

static_assert(crypto_shorthash_KEYBYTES == 16 && crypto_shorthash_BYTES == 8);

namespace {

uint64_t load64(const unsigned char* b) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | b[i];
    return v;
}

void store64(uint64_t v, unsigned char* b) {
    for (int i = 0; i < 8; ++i)
        b[i] = static_cast<unsigned char>(v >> (8 * i));
}

} // namespace

KeyedHash::KeyedHash(Rng& rng) {
    store64(rng.next(), m_key.data());
    store64(rng.next(), m_key.data() + 8);
}

uint64_t KeyedHash::operator()(uint64_t x) const {
    unsigned char in[8], out[8];
    store64(x, in);
    crypto_shorthash(out, in, sizeof in, m_key.data());
    return load64(out);
}

uint64_t KeyedHash::operator()(uint64_t x, uint64_t epoch) const {
    unsigned char in[16], out[8];
    store64(x, in);
    store64(epoch, in + 8);
    crypto_shorthash(out, in, sizeof in, m_key.data());
    return load64(out);
}

uint64_t KeyedHash::bytes(std::string_view s) const {
    unsigned char out[8];
    crypto_shorthash(out, reinterpret_cast<const unsigned char*>(s.data()), s.size(), m_key.data());
    return load64(out);
}

uint64_t keyId(std::string_view token) {
    int64_t v = 0;
    if (parseInt64(token, &v) && v >= 0)
        return uint64_t(v);
    static const KeyedHash zero(std::array<unsigned char, 16>{});
    return zero.bytes(token);
}

} // namespace pl::streams
