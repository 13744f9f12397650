#include "Fingerprints.h"

#include <bit>
#include <cctype>

namespace pl::bandits {

PackedFingerprints::PackedFingerprints(int64_t rows, int bits)
    : m_rows(rows), m_bits(bits), m_words((bits + 63) / 64),
      m_data(size_t(rows) * size_t((bits + 63) / 64), 0) {}

int PackedFingerprints::setBits(int64_t r, int* out) const {
    const uint64_t* w = row(r);
    int n = 0;
    for (int k = 0; k < m_words; ++k) {
        uint64_t v = w[k];
        while (v) {
            out[n++] = k * 64 + std::countr_zero(v);
            v &= v - 1;
        }
    }
    return n;
}

int PackedFingerprints::popcount(int64_t r) const {
    const uint64_t* w = row(r);
    int n = 0;
    for (int k = 0; k < m_words; ++k)
        n += std::popcount(w[k]);
    return n;
}

int PackedFingerprints::hamming(int64_t r, const uint64_t* other) const {
    const uint64_t* w = row(r);
    int n = 0;
    for (int k = 0; k < m_words; ++k)
        n += std::popcount(w[k] ^ other[k]);
    return n;
}

bool decodeFingerprint(const std::string& text, FingerprintText form, std::vector<bool>& bits) {
    bits.clear();
    if (form == FingerprintText::Binary) {
        for (char c : text) {
            if (c != '0' && c != '1')
                return false;
            bits.push_back(c == '1');
        }
        return !bits.empty();
    }
    size_t start = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') ? 2 : 0;
    for (size_t i = start; i < text.size(); ++i) {
        const char c = text[i];
        int v;
        if (c >= '0' && c <= '9')
            v = c - '0';
        else if (c >= 'a' && c <= 'f')
            v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v = c - 'A' + 10;
        else
            return false;
        for (int b = 3; b >= 0; --b) // most significant first
            bits.push_back((v >> b) & 1);
    }
    return !bits.empty();
}

bool looksLikeSmiles(const std::string& text) {
    if (text.empty())
        return false;
    bool nonHex = false;
    for (char c : text) {
        const bool hex = std::isxdigit(static_cast<unsigned char>(c)) != 0;
        if (c == '(' || c == ')' || c == '=' || c == '#' || c == '[' || c == ']' || c == '@' || c == '/' ||
            c == '\\')
            return true;
        if (!hex && std::isalpha(static_cast<unsigned char>(c)))
            nonHex = true;
    }
    if (!nonHex)
        return false;
    // Letters outside a-f: SMILES atoms (C, N, O, S, P, Cl, Br, aromatic c, n, o, s).
    for (char c : text)
        if (std::string("CNOSPIHKBrlnosp").find(c) != std::string::npos)
            return true;
    return false;
}

} // namespace pl::bandits
