// Benchmark of the stream engine against peer.py (Debian's numpy / plain Python, one thread):
//  * care: the stand-in stream of care-recsets (first constituent, 50 listed candidates per row;
//    20,000 rows, 5,000 with --quick) through per-row min–max normalisation and ranking, then static
//    CRC, ACI and CARE (CUSUM, recalibration by CRC); ours against the peer's numpy per-interaction
//    loop on the same CSV (parsing not timed on either side; the mean risks are compared);
//  * sketch: 65,536 monitoring operations (16,384 with --quick), cardinality, k = 4096, ε = 1,
//    through the baseline and the robust sketch (binary tree per level); ours (SipHash, std maps,
//    tree) against a Python dict sketch with a list-based tree per level; reported as operations/s.
// Ratio = peer_ms / ours_ms (> 1: we are faster).
#include "bench/common/BenchPeer.h"
#include "core/RunContext.h"
#include "streams/CareSets.h"
#include "streams/CareWorkload.h"
#include "streams/RecStream.h"
#include "streams/SketchRuns.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace pl;
using namespace pl::streams;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct RawRow {
    int64_t trueItem;
    std::vector<int64_t> items;
    std::vector<double> scores;
};

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut = "bench_streams.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
    }
    const std::string dir = "/tmp/bench_streams." + std::to_string(getpid());
    std::system(("mkdir -p " + dir).c_str());
    nlohmann::json rows = nlohmann::json::array();

    // 1. CARE loop.
    CareWorld w;
    w.length = quick ? 5000 : 20000;
    const CareStandIn g = generateCareStandIn(w, Rng(1));
    const RecStream& s0 = g.models[0];
    std::vector<RawRow> raw;
    const std::string carePath = dir + "/care.csv";
    {
        std::ofstream f(carePath);
        f.precision(17);
        f << "user_idx,step,true_item,candidate_items,scores\n";
        for (const RecRow& r : s0.rows) {
            const CandidateList& L = s0.lists[size_t(r.list)];
            RawRow rr{r.trueItem, {}, {}};
            for (size_t i = 0; i < 50; ++i) {
                rr.items.push_back(L.items[i]);
                rr.scores.push_back(1.0 - L.needs[i]);
            }
            f << r.user << ',' << r.step << ',' << r.trueItem << ',';
            for (size_t i = 0; i < 50; ++i)
                f << (i ? " " : "") << rr.items[i];
            f << ',';
            for (size_t i = 0; i < 50; ++i)
                f << (i ? " " : "") << rr.scores[i];
            f << '\n';
            raw.push_back(std::move(rr));
        }
    }
    CareParams p;
    double oursCare = 1e300;
    ModelRun mr;
    for (int rep = 0; rep < 3; ++rep) {
        const auto t0 = Clock::now();
        RecStream s;
        s.lists.resize(raw.size());
        s.rows.resize(raw.size());
        for (size_t t = 0; t < raw.size(); ++t) {
            s.rows[t].list = int32_t(t);
            s.rows[t].trueItem = raw[t].trueItem;
            s.rows[t].rank = rankCandidates(raw[t].items, raw[t].scores, raw[t].trueItem, s.lists[t]);
        }
        RunContext ctx(1);
        mr = runMethods(s, p, ctx);
        oursCare = std::min(oursCare, msSince(t0));
    }
    auto mean = [](const std::vector<double>& v) {
        double a = 0;
        for (double x : v)
            a += x;
        return a / double(v.size());
    };
    const nlohmann::json pc =
        bench::runPythonPeer(PAPERLAB_STREAMS_PEER, "care " + carePath + " 0.1 0.05 1000 0.05 15 200 50");
    const double peerCare = pc.is_null() ? NAN : pc["ms"].get<double>();
    std::printf("care   %6zu rows  ours %8.2f ms  peer %9.2f ms  ratio %6.1f  risk care ours %.4f peer %.4f "
                "(BLAS %s)\n",
                raw.size(), oursCare, peerCare, peerCare / oursCare, mean(mr.lossCare),
                pc.is_null() ? NAN : pc["risk"][2].get<double>(),
                pc.is_null() ? "?" : pc["blas"].get<std::string>().c_str());
    rows.push_back({{"engine", "care-recsets static/aci/care loop"},
                    {"size", std::to_string(raw.size()) + " rows"},
                    {"unit", "ms"},
                    {"ours", oursCare},
                    {"peer", peerCare},
                    {"ratio", peerCare / oursCare}});

    // 2. Sketch updates.
    SketchSetup ss;
    ss.T = quick ? 16384 : 65536;
    ss.levels = 20;
    const std::vector<StreamOp> ops = generatedOps("monitoring", ss, Rng(2));
    const std::string opsPath = dir + "/ops.csv";
    {
        std::ofstream f(opsPath);
        f << "t,op,key,delta\n";
        for (const StreamOp& op : ops)
            f << op.t << ',' << (op.reset ? "reset" : "inc") << ',' << op.key << ','
              << (op.reset ? std::string() : std::to_string(int(op.delta))) << '\n';
    }
    double oursSk = 1e300, check = 0;
    for (int rep = 0; rep < 3; ++rep) {
        auto base = makeSketch("baseline", ss, Rng(5));
        auto robust = makeSketch("robust", ss, Rng(6));
        const auto t0 = Clock::now();
        double est = 0;
        for (const StreamOp& op : ops) {
            base->apply(op);
            robust->apply(op);
            est += base->estimate() + robust->estimate();
        }
        oursSk = std::min(oursSk, msSince(t0));
        check = est;
    }
    const nlohmann::json ps = bench::runPythonPeer(PAPERLAB_STREAMS_PEER, "sketch " + opsPath + " 4096 " +
                                                                              std::to_string(ss.T) + " 1");
    const double peerSk = ps.is_null() ? NAN : ps["ms"].get<double>();
    std::printf("sketch %6zu ops   ours %8.2f ms (%.3g ops/s)  peer %9.2f ms (%.3g ops/s)  ratio %6.1f  "
                "(checksum %.3g)\n",
                ops.size(), oursSk, ops.size() / (oursSk / 1000), peerSk, ops.size() / (peerSk / 1000),
                peerSk / oursSk, check);
    rows.push_back({{"engine", "resettable-sketches baseline+robust updates"},
                    {"size", std::to_string(ops.size()) + " ops"},
                    {"unit", "ms"},
                    {"ours", oursSk},
                    {"peer", peerSk},
                    {"ratio", peerSk / oursSk}});
    std::ofstream(jsonOut) << nlohmann::json{{"rows", rows}}.dump(2) << "\n";
    std::system(("rm -rf " + dir).c_str());
    return 0;
}
