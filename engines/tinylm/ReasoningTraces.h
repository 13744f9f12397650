#pragma once
/// The toy reasoning traces of specexit-decoding (specs-004 §17): `Q a1 .. an ; S s1 ; .. S sn ;
/// (V sn ok ;)xm A ans <eos>` with running sums s_k = s_{k-1} + a_k mod 100 and m ~ Geometric
/// (continue with probability p_over: P(m = j) = p_over^j (1 - p_over)), the "overthinking" tail.
/// A corrupted step (probability `corrupt`) writes a wrong s_k and the trace continues from it, so
/// its answer is wrong. Vocabulary: the numbers 0..99, then the markers below.
/// Pure functions; randomness only from the Rng passed in.
#include "core/Rng.h"

#include <string>
#include <vector>

namespace pl::tinylm::traces {

inline constexpr int kQ = 100, kS = 101, kSemi = 102, kV = 103, kOk = 104, kA = 105, kEos = 106, kPad = 107;
inline constexpr int kVocab = 108;

/// "17", "Q", "S", ";", "V", "ok", "A", "<eos>", "<pad>".
std::string tokenName(int id);

struct Trace {
    std::vector<int> tokens;
    int promptLength = 0; ///< `Q a1 .. an ;`
    int answer = 0;       ///< the ground truth s_n (sum of the a's mod 100)
    int determinedAt = 0; ///< index of the `;` after `S s_n` (from there the answer is determined)
    int answerMarker = 0; ///< index of `A`
    int loops = 0;        ///< m
    bool corrupted = false;
    std::vector<int> boundaries; ///< indices of every `;` after the prompt (where an exit may happen)
};

/// \a count traces of \a numbers operands each; operands and sums mod \a modulus (2..100).
std::vector<Trace> makeTraces(int count, int numbers, double pOver, double corrupt, Rng rng,
                              int modulus = 100);
/// The number after the first `A` at or after \a from, or -1.
int answerOf(const std::vector<int>& tokens, size_t from = 0);

} // namespace pl::tinylm::traces
