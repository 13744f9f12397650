#pragma once
/// The compound library of the boba-screening panel: bit-packed fingerprints, a partition key per
/// row and a score per row (higher is better after the `direction` is applied). Either read from a
/// `.csv` (`id,partition_key,fingerprint[,score]`) or the stand-in virtual combinatorial library
/// of spec §8 (building blocks A x B, fingerprint = OR of the blocks' 64 bits + 32 reaction bits,
/// f(a,b) = γ_A u_a + v_b + ω z_aᵀWz_b + ε). Pure C++; any thread.

#include "Fingerprints.h"

#include "core/Engine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pl::bandits {

struct ScreenLibrary {
    PackedFingerprints fp;
    std::vector<double> score;         ///< per row, as read (the stand-in: the oracle value)
    std::vector<int> key;              ///< partition key index per row (-1 = missing)
    std::vector<std::string> keyNames; ///< key index -> name
    std::vector<std::string> ids;      ///< per row (empty for the stand-in)
    bool hasScore = true;
};

/// A library .csv loaded by the boba-screening engine.
struct LibraryInput : LoadedInput {
    ScreenLibrary library;
};

/// Parses a library .csv (\a name in errors). Throws InputError with line and reason: SMILES
/// ("provide precomputed fingerprints"), unequal bit lengths, duplicate ids, a bad score, a
/// missing column.
ScreenLibrary parseLibraryCsv(const std::string& text, const std::string& name);

struct StandInSpec {
    int nA = 200, nB = 500;
    double gammaA = 1, omega = 0.5;
    double noise = 0.1; ///< oracle noise σ_ε
};

/// The stand-in library (row = a·n_B + b, key = a), from seed streams "blocks" and "oracle".
ScreenLibrary standInLibrary(const StandInSpec& spec, uint64_t seed);

} // namespace pl::bandits
