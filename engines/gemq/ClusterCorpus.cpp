#include "ClusterCorpus.h"

#include <array>

namespace pl::gemq {

ClusterCorpus makeClusterCorpus(const ClusterConfig& c, Rng rng) {
    const int V = c.vocab;
    // successors[k][a] = three candidate tokens after a in source k.
    std::vector<std::vector<std::array<int, 3>>> successors(size_t(c.clusters));
    for (auto& table : successors) {
        table.resize(size_t(V));
        for (auto& t : table)
            for (int& x : t)
                x = int(rng.uniformInt(uint64_t(V)));
    }
    auto draw = [&](int tokens, Rng& r) {
        std::vector<std::vector<int>> out;
        for (int made = 0; made < tokens; made += c.seqLen) {
            const auto& table = successors[size_t(r.uniformInt(uint64_t(c.clusters)))];
            std::vector<int> s{int(r.uniformInt(uint64_t(V)))};
            while (int(s.size()) < c.seqLen) {
                const auto& t = table[size_t(s.back())];
                const double u = r.uniform();
                s.push_back(u < 0.7 ? t[0] : u < 0.9 ? t[1] : t[2]);
            }
            out.push_back(std::move(s));
        }
        return out;
    };
    ClusterCorpus out;
    out.vocab = V;
    Rng tr = rng.fork("train"), ca = rng.fork("calib"), ev = rng.fork("eval");
    out.train = draw(c.trainTokens, tr);
    out.calib = draw(c.calibTokens, ca);
    out.eval = draw(c.evalTokens, ev);
    return out;
}

} // namespace pl::gemq
