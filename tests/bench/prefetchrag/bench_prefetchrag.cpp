// bench_prefetchrag: the prefetchrag engine against its Python peers (peer.py) on identical inputs
// written to text files.
//  bm25: Q queries (entity + attribute, 3 terms) top-3 over the synthetic knowledge base's documents
//    (10 domains x 850 entities x 6 attributes + 1 distractor each: 102k documents). Ours: the
//    inverted index (built once, not timed); peer: sklearn TfidfVectorizer (fitted once, not timed),
//    transform + sparse product + argpartition per query. Different scores (BM25 vs TF-IDF), same work.
//  simulator: the oracle policy over A written answers (25 ms tokens, lognormal latencies, stalls;
//    prefill 0) against a heapq event loop with the same rule; the mean latencies must agree.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "prefetchrag/PolicySimulator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::prefetchrag;
namespace fs = std::filesystem;

namespace {

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
    }
    const fs::path dir = fs::temp_directory_path() / "bench_prefetchrag";
    fs::create_directories(dir);
    SyntheticConfig sc;
    sc.domains = 10;
    sc.entities = quick ? 170 : 850;
    sc.attributes = 6;
    sc.questions = quick ? 200 : 1000;
    const RagWorld w = makeSyntheticWorld(sc, pl::Rng(7));
    std::vector<std::vector<std::string>> docs;
    {
        std::ofstream f(dir / "docs.txt");
        for (const RagDoc& d : w.docs) {
            docs.push_back(d.tokens);
            for (const auto& t : d.tokens)
                f << t << ' ';
            f << '\n';
        }
        std::ofstream q(dir / "queries.txt");
        for (const RagQuestion& x : w.questions) {
            for (const auto& t : x.query)
                q << t << ' ';
            q << '\n';
        }
    }
    const Bm25Index index(docs);
    auto t0 = std::chrono::steady_clock::now();
    int found = 0;
    for (const RagQuestion& x : w.questions) {
        const auto hits = index.topK(x.query, 3);
        found += hits.front().doc == x.doc;
    }
    const double bm25Ms = ms(t0);
    // simulator: oracle policy over written answers
    const int A = quick ? 500 : 5000;
    const EntityFacts byEntity = entityFacts(w);
    pl::Rng rng(11);
    std::vector<AnswerTrace> traces;
    std::ofstream sf(dir / "sim.txt");
    std::vector<SimInput> inputs;
    traces.reserve(size_t(A));
    for (int a = 0; a < A; ++a) {
        AnswerTrace tr;
        tr.answer = writeAnswer(w, byEntity, int(rng.uniformInt(w.facts.size())), 4, 0.3, rng);
        tr.queryDocs.assign(tr.answer.words.size(), {});
        traces.push_back(std::move(tr));
    }
    SimConfig c;
    c.prefillMsPerToken = 0;
    double oursMean = 0;
    int64_t events = 0;
    for (int a = 0; a < A; ++a) {
        SimInput in;
        in.trace = &traces[size_t(a)];
        in.world = &w;
        in.index = &index;
        const double mu = std::log(200.0) - 0.125;
        for (int j = 0; j < 8; ++j)
            in.latencies.push_back(std::exp(mu + 0.5 * rng.normal()));
        in.slotDraws.assign(traces[size_t(a)].answer.words.size(), 0.5);
        const Answer& an = traces[size_t(a)].answer;
        sf << an.words.size() << ' ' << an.sentenceStart.size();
        for (size_t s = 0; s < an.sentenceStart.size(); ++s) {
            int slot = an.sentenceStart[s];
            while (an.slotFact[size_t(slot)] < 0)
                ++slot;
            sf << ' ' << an.sentenceStart[s] << ' ' << slot << ' ' << w.facts[size_t(an.sentenceFact[s])].doc;
        }
        for (double l : in.latencies)
            sf << ' ' << l;
        sf << '\n';
        inputs.push_back(std::move(in));
    }
    sf.close();
    t0 = std::chrono::steady_clock::now();
    for (const SimInput& in : inputs) {
        const SimOutcome o = simulate(Policy::Oracle, in, c);
        oursMean += o.latencyMs;
        events += int64_t(in.trace->answer.words.size()) + o.requests;
    }
    const double simMs = ms(t0);
    oursMean /= A;
    const nlohmann::json peer = pl::bench::runPythonPeer(PAPERLAB_PREFETCHRAG_PEER, dir.string());
    const auto get = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    struct Row {
        std::string engine, size;
        double ours, peer;
        std::string note;
    };
    char note[200];
    std::snprintf(note, sizeof note, "BM25 top-1 = the fact document for %.3f of the queries",
                  double(found) / double(w.questions.size()));
    std::vector<Row> rows{
        {"bm25_topk", std::to_string(w.docs.size()) + " docs x " + std::to_string(w.questions.size()) + " q",
         bm25Ms, get("tfidf_ms"), note}};
    std::snprintf(note, sizeof note, "%lld events; mean latency %.3f ours, %.3f peer", (long long)events,
                  oursMean, get("sim_mean"));
    rows.push_back({"event_simulator", std::to_string(A) + " answers", simMs, get("sim_ms"), note});
    std::printf("%-22s %-26s %10s %10s %7s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    nlohmann::json cases = nlohmann::json::array();
    for (const Row& r : rows) {
        std::printf("%-22s %-26s %10.1f %10.1f %7.2f  %s\n", r.engine.c_str(), r.size.c_str(), r.ours, r.peer,
                    r.peer / r.ours, r.note.c_str());
        cases.push_back({{"engine", r.engine},
                         {"size", r.size},
                         {"ours_ms", r.ours},
                         {"peer_ms", r.peer},
                         {"ratio", r.peer / r.ours}});
    }
    if (!jsonOut.empty())
        std::ofstream(jsonOut) << nlohmann::json{{"cases", cases}}.dump(2);
    return 0;
}
