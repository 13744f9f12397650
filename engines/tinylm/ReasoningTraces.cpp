#include "ReasoningTraces.h"

namespace pl::tinylm::traces {

std::string tokenName(int id) {
    if (id >= 0 && id < 100)
        return std::to_string(id);
    static const char* names[] = {"Q", "S", ";", "V", "ok", "A", "<eos>", "<pad>"};
    return id >= 100 && id < kVocab ? names[id - 100] : "?";
}

std::vector<Trace> makeTraces(int count, int numbers, double pOver, double corrupt, Rng rng, int modulus) {
    std::vector<Trace> out;
    for (int c = 0; c < count; ++c) {
        Trace t;
        std::vector<int> a;
        t.tokens.push_back(kQ);
        for (int i = 0; i < numbers; ++i) {
            a.push_back(int(rng.uniformInt(uint64_t(modulus))));
            t.tokens.push_back(a.back());
        }
        t.tokens.push_back(kSemi);
        t.promptLength = int(t.tokens.size());
        int truth = 0, written = 0;
        for (int k = 0; k < numbers; ++k) {
            truth = (truth + a[size_t(k)]) % modulus;
            written = (written + a[size_t(k)]) % modulus;
            if (corrupt > 0 && rng.uniform() < corrupt) {
                written = (written + 1 + int(rng.uniformInt(uint64_t(modulus - 1)))) % modulus;
                t.corrupted = true;
            }
            t.tokens.insert(t.tokens.end(), {kS, written, kSemi});
            t.boundaries.push_back(int(t.tokens.size()) - 1);
        }
        t.answer = truth;
        t.determinedAt = int(t.tokens.size()) - 1;
        while (rng.uniform() < pOver && t.loops < 64) {
            t.tokens.insert(t.tokens.end(), {kV, written, kOk, kSemi});
            t.boundaries.push_back(int(t.tokens.size()) - 1);
            ++t.loops;
        }
        t.answerMarker = int(t.tokens.size());
        t.tokens.insert(t.tokens.end(), {kA, written, kEos});
        out.push_back(std::move(t));
    }
    return out;
}

int answerOf(const std::vector<int>& tokens, size_t from) {
    for (size_t i = from; i + 1 < tokens.size(); ++i)
        if (tokens[i] == kA)
            return tokens[i + 1] < 100 ? tokens[i + 1] : -1;
    return -1;
}

} // namespace pl::tinylm::traces
