#pragma once
/// Bit-packed molecular fingerprints: N rows of B bits, 64 bits a word, and the text forms the
/// boba-screening library accepts (hex: first character = first four bits, most significant first;
/// or a string of 0/1). Plain value type; any thread.

#include <cstdint>
#include <string>
#include <vector>

namespace pl::bandits {

class PackedFingerprints {
public:
    PackedFingerprints() = default;
    /// \a rows rows of \a bits bits, all zero.
    PackedFingerprints(int64_t rows, int bits);

    int64_t rows() const { return m_rows; }
    int bits() const { return m_bits; }
    int words() const { return m_words; }
    /// The words of row \a r (bit j of the fingerprint is bit j % 64 of word j / 64).
    const uint64_t* row(int64_t r) const { return m_data.data() + size_t(r) * size_t(m_words); }
    uint64_t* row(int64_t r) { return m_data.data() + size_t(r) * size_t(m_words); }
    void set(int64_t r, int bit) { row(r)[bit >> 6] |= uint64_t(1) << (bit & 63); }
    bool test(int64_t r, int bit) const { return (row(r)[bit >> 6] >> (bit & 63)) & 1u; }
    /// Writes the indices of the set bits of row \a r (ascending) to \a out (room for bits());
    /// returns how many.
    int setBits(int64_t r, int* out) const;
    /// Set bits of row \a r.
    int popcount(int64_t r) const;
    /// Hamming distance between row \a r and the packed vector \a other (words() words).
    int hamming(int64_t r, const uint64_t* other) const;

private:
    int64_t m_rows = 0;
    int m_bits = 0;
    int m_words = 0;
    std::vector<uint64_t> m_data;
};

/// How a fingerprint field is written.
enum class FingerprintText { Hex, Binary };

/// The bits of one field (hex or 0/1, an optional "0x" prefix for hex). Returns false when a
/// character does not belong to the form.
bool decodeFingerprint(const std::string& text, FingerprintText form, std::vector<bool>& bits);

/// True when \a text looks like a SMILES string rather than a fingerprint (letters outside the hex
/// digits, ring/branch/bond characters).
bool looksLikeSmiles(const std::string& text);

} // namespace pl::bandits
