#include "TemplateWriter.h"

namespace pl::prefetchrag {

EntityFacts entityFacts(const RagWorld& w) {
    EntityFacts m;
    for (size_t i = 0; i < w.facts.size(); ++i)
        m[w.facts[i].entityKey].push_back(int(i));
    return m;
}

namespace {

int nextFact(const RagWorld& w, const EntityFacts& byEntity, int cur, double shift, Rng& rng) {
    const int key = w.facts[size_t(cur)].entityKey;
    const std::vector<int>& same = byEntity.at(key);
    const bool canStay = same.size() > 1;
    const bool canShift = byEntity.size() > 1;
    const bool doShift = rng.uniform() < shift;
    if ((doShift && canShift) || !canStay) {
        if (!canShift)
            return cur;
        for (;;) {
            const int f = int(rng.uniformInt(w.facts.size()));
            if (w.facts[size_t(f)].entityKey != key)
                return f;
        }
    }
    for (;;) {
        const int f = same[size_t(rng.uniformInt(same.size()))];
        if (f != cur)
            return f;
    }
}

void push(Answer& a, const std::string& word, int slot) {
    a.words.push_back(word);
    a.slotFact.push_back(slot);
}

} // namespace

Answer writeAnswer(const RagWorld& w, const EntityFacts& byEntity, int firstFact, int sentences,
                   double topicShift, Rng& rng) {
    Answer a;
    const auto& filler = fillerWords();
    int fact = firstFact;
    for (int s = 0; s < sentences; ++s) {
        if (s > 0)
            fact = nextFact(w, byEntity, fact, topicShift, rng);
        const RagFact& f = w.facts[size_t(fact)];
        a.sentenceStart.push_back(int(a.words.size()));
        a.sentenceFact.push_back(fact);
        const int lead = int(rng.uniformInt(3));
        for (int i = 0; i < lead; ++i)
            push(a, filler[size_t(rng.uniformInt(filler.size()))], -1);
        a.cueStart.push_back(int(a.words.size()));
        const int distance = 8 + int(rng.uniformInt(9)); // cue start to slot, 8..16 tokens
        int used = 0;
        for (const auto& t : f.entity)
            push(a, t, -1), ++used;
        for (const auto& t : f.attribute)
            push(a, t, -1), ++used;
        for (int i = used; i < distance - 1; ++i)
            push(a, filler[size_t(rng.uniformInt(filler.size()))], -1);
        push(a, "is", -1);
        push(a, f.value, fact);
        push(a, ".", -1);
    }
    return a;
}

} // namespace pl::prefetchrag
