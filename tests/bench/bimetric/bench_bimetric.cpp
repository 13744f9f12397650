// bench_bimetric: the bimetric-ann searches against their Python peers (peer.py) on identical data
// written to .npy files (built-in pair, n = 20,000, 100 queries; --quick: n = 5,000, 30 queries).
//  reference_search: the bi-metric rule at Q = 1500 (stage 1 list 1500, stage 2 from the top 750);
//    ours (C++) vs peer.py's transcription of the reference greedy_search / greedy_search_quota on
//    the same proxy graph; the recalls must agree.
//  hnswlib_equal_recall: ours (bi-metric at Q = 3000; and single-metric at the quota reaching the
//    same recall) vs hnswlib on the expensive vectors (M 16, ef_construction 200, ef swept from 10
//    upwards until its recall reaches ours); build times are not counted.
// Ratio = peer_ms / ours_ms per query (> 1: we are faster). One thread on both sides.
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "search/BimetricPair.h"
#include "search/BimetricSearch.h"
#include "search/RankStats.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::search;
namespace fs = std::filesystem;

namespace {

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

PointView view(const VectorSet& v) {
    return PointView{v.data.data(), v.rows, v.dim};
}

void save(const fs::path& p, const VectorSet& v) {
    std::ofstream(p, std::ios::binary)
        << pl::writeNpy({v.rows, v.dim}, std::vector<double>(v.data.begin(), v.data.end()));
}

struct Timed {
    double msPerQuery = 0, recall = 0;
};

/// Runs \a rule over every query; mean ms per query and recall@10.
template <class Rule>
Timed timeQueries(int64_t nq, const std::vector<std::vector<Scored>>& truth, Rule&& rule) {
    Timed t;
    std::vector<MethodResult> res(static_cast<size_t>(nq));
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t q = 0; q < nq; ++q)
        res[size_t(q)] = rule(q);
    t.msPerQuery = ms(t0) / double(nq);
    for (int64_t q = 0; q < nq; ++q) {
        std::vector<int64_t> a, b;
        for (const Scored& s : res[size_t(q)].top)
            a.push_back(s.id);
        for (const Scored& s : truth[size_t(q)])
            b.push_back(s.id);
        t.recall += recallAtK(a, b, 10) / double(nq);
    }
    return t;
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
    const fs::path dir = fs::temp_directory_path() / "bench_bimetric";
    fs::create_directories(dir);
    BimetricPairConfig c;
    c.n = quick ? 5000 : 20000;
    c.queries = quick ? 30 : 100;
    const BimetricPair p = makeBimetricPair(c, pl::Rng(1).fork("pair"));
    const BimetricData data{view(p.baseExpensive), view(p.baseProxy), view(p.queryExpensive),
                            view(p.queryProxy)};
    VamanaParams vp;
    auto t0 = std::chrono::steady_clock::now();
    const VamanaGraph gp = VamanaGraph::build(data.baseProxy, vp, pl::Rng(1).fork("proxy"));
    const double buildProxyMs = ms(t0);
    t0 = std::chrono::steady_clock::now();
    const VamanaGraph ge = VamanaGraph::build(data.baseExpensive, vp, pl::Rng(1).fork("expensive"));
    const double buildExpMs = ms(t0);
    const auto truth = bruteForceKnn(data.baseExpensive, data.queryExpensive, 10);
    save(dir / "base_exp.npy", p.baseExpensive);
    save(dir / "base_proxy.npy", p.baseProxy);
    save(dir / "q_exp.npy", p.queryExpensive);
    save(dir / "q_proxy.npy", p.queryProxy);
    {
        std::ofstream g(dir / "graph.txt");
        g << gp.medoid() << '\n';
        for (int64_t i = 0; i < gp.size(); ++i) {
            for (int32_t j : gp.neighbors(i))
                g << j << ' ';
            g << '\n';
        }
        std::ofstream tr(dir / "truth.txt");
        for (const auto& t : truth) {
            for (const Scored& s : t)
                tr << s.id << ' ';
            tr << '\n';
        }
    }
    BimetricSearcher s(data, gp, &ge, 10, 500);
    const int64_t nq = c.queries;
    auto oursAt = [&](int64_t Q) {
        return timeQueries(nq, truth, [&](int64_t q) {
            const BeamResult st = s.proxyStage(q, Q);
            return s.ours(q, st, Q);
        });
    };
    const Timed o1500 = oursAt(1500), o3000 = oursAt(3000);
    // single metric: the smallest quota on a grid reaching the bi-metric recall at Q = 3000
    Timed single;
    int64_t singleQ = 0;
    for (int64_t Q : {100, 150, 200, 300, 400, 500, 700, 1000, 1500, 2000, 3000, 5000}) {
        single = timeQueries(nq, truth, [&](int64_t q) { return s.single(q, Q); });
        singleQ = Q;
        std::printf("single metric Q = %lld: recall %.3f, %.3f ms/query\n", (long long)Q, single.recall,
                    single.msPerQuery);
        if (single.recall >= o3000.recall)
            break;
    }
    char args[512];
    std::snprintf(args, sizeof args, "%s %.6f", dir.string().c_str(), o3000.recall);
    const nlohmann::json peer = pl::bench::runPythonPeer(PAPERLAB_BIMETRIC_PEER, args);
    const auto get = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    struct Row {
        std::string engine, size;
        double ours, peer;
        std::string note;
    };
    char note[300];
    const std::string size = std::to_string(c.n) + " x 128 / 16, " + std::to_string(nq) + " q";
    std::vector<Row> rows;
    std::snprintf(note, sizeof note, "Q = 1500; recall@10 ours %.3f, Python %.3f (same rule, same graph)",
                  o1500.recall, get("ref_recall"));
    rows.push_back({"reference_search", size, o1500.msPerQuery, get("ref_ms"), note});
    std::snprintf(note, sizeof note, "as above, the Python side with one numpy call per pair (20 queries)");
    rows.push_back({"reference_search_pairwise", size, o1500.msPerQuery, get("ref_pairwise_ms"), note});
    std::snprintf(note, sizeof note,
                  "bi-metric Q = 3000, recall %.3f (3000 D-calls); hnswlib ef %.0f recall %.3f on D",
                  o3000.recall, get("hnsw_ef"), get("hnsw_recall"));
    rows.push_back({"hnswlib_equal_recall", size, o3000.msPerQuery, get("hnsw_ms"), note});
    std::snprintf(note, sizeof note,
                  "our single-metric quota search, Q = %lld, recall %.3f; hnswlib as above",
                  (long long)singleQ, single.recall);
    rows.push_back({"hnswlib_single_metric", size, single.msPerQuery, get("hnsw_ms"), note});
    std::printf("builds (not in the ratios): proxy graph %.0f ms, expensive graph %.0f ms; hnswlib %.0f ms\n",
                buildProxyMs, buildExpMs, get("hnsw_build_ms"));
    std::printf("%-24s %-28s %10s %10s %8s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    nlohmann::json cases = nlohmann::json::array();
    for (const Row& r : rows) {
        std::printf("%-24s %-28s %10.3f %10.3f %8.2f  %s\n", r.engine.c_str(), r.size.c_str(), r.ours, r.peer,
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
