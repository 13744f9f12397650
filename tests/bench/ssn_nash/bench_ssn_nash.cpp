// Benchmark of the ssn-nash solvers against peer.py on the same games: for each size, a Gaussian
// game (pl::Rng, seed --seed) is written to .npy and solved to duality gap 1e-8 by
//  * our PRM+ (C++) and numpy PRM+ (the same algorithm, peer.py): time and iterations,
//  * our hybrid (PRM+ then semi-smooth Newton),
//  * our LP reference (COIN-OR CLP) and scipy's HiGHS linprog.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides (the peer runs with
// OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset and one BLAS thread). Prints a table and writes JSON
// (--json FILE, default bench_ssn_nash.json). --quick: one repetition, sizes 50 only.

#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "games/GameGenerators.h"
#include "games/LpReference.h"
#include "games/SsnNash.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pl::games;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kTarget = 1e-8;

/// Best wall time in milliseconds of `reps` runs of fn.
double bestMs(int reps, const std::function<void()>& fn) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return best;
}

std::string formatDouble(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// Runs peer.py with the BLAS environment overrides removed for this command only, one thread.
nlohmann::json runPeer(const std::string& npy, int64_t cap, int reps) {
    const std::string args =
        npy + " " + formatDouble(kTarget) + " " + std::to_string(cap) + " " + std::to_string(reps);
    nlohmann::json out = pl::bench::runPythonPeer(PAPERLAB_SSN_PEER, args);
    if (out.is_null())
        throw std::runtime_error("peer failed: " PAPERLAB_SSN_PEER " " + args);
    return out;
}

struct Row {
    std::string engine;
    int size = 0;
    double oursMs = 0, peerMs = 0;
    std::string note;
};

} // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {50, 200};
    uint64_t seed = 1;
    bool quick = false;
    std::string jsonPath = "bench_ssn_nash.json";
    int64_t cap = 2'000'000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") {
            quick = true;
            sizes = {50};
        } else if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            std::stringstream ss(argv[++i]);
            for (std::string t; std::getline(ss, t, ',');)
                sizes.push_back(std::stoi(t));
        } else if (a == "--seed" && i + 1 < argc) {
            seed = std::stoull(argv[++i]);
        } else if (a == "--json" && i + 1 < argc) {
            jsonPath = argv[++i];
        } else if (a == "--cap" && i + 1 < argc) {
            cap = std::stoll(argv[++i]);
        } else {
            std::fprintf(
                stderr,
                "usage: bench_ssn_nash [--sizes 50,200] [--seed N] [--cap N] [--quick] [--json FILE]\n");
            return 1;
        }
    }
    const int reps = quick ? 1 : 3;
    char dirTemplate[] = "/tmp/bench_ssn_nash.XXXXXX";
    if (!mkdtemp(dirTemplate)) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::string dir = dirTemplate;

    std::vector<Row> rows;
    nlohmann::json out = {{"benchmark", "ssn-nash"},
                          {"target_gap", kTarget},
                          {"seed", std::to_string(seed)},
                          {"cases", nlohmann::json::array()}};
    for (int n : sizes) {
        pl::Rng rng = pl::Rng(seed).fork("bench-" + std::to_string(n));
        const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, n, n, rng);
        std::vector<double> data;
        data.reserve(size_t(n) * size_t(n));
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                data.push_back(A(i, j));
        const std::string npy = dir + "/gaussian_" + std::to_string(n) + ".npy";
        std::ofstream(npy, std::ios::binary) << pl::writeNpy({n, n}, data);

        ZeroSumSolverOptions opt;
        opt.targetGap = kTarget;
        opt.maxPrmIterations = cap;
        opt.recordTrace = false;
        SolveMonitor mon;
        ZeroSumSolution prm, hyb;
        LpGameSolution lp;
        const double prmMs = bestMs(std::max(1, reps / 2), [&] { prm = solvePrmPlus(A, opt, mon); });
        const double hybMs = bestMs(reps, [&] { hyb = solveHybrid(A, opt, mon); });
        const double lpMs = bestMs(reps, [&] { lp = solveZeroSumLp(A); });
        const nlohmann::json peer = runPeer(npy, cap, reps);

        const double peerPrm = peer["prm_plus_ms"], peerLp = peer["lp_ms"];
        const int64_t peerIt = peer["prm_plus_iterations"];
        char note[200];
        std::snprintf(note, sizeof note, "iterations %lld vs %lld; gap %.1e vs %.1e",
                      (long long)prm.iterations, (long long)peerIt, prm.certificate.gap(),
                      double(peer["prm_plus_gap"]));
        rows.push_back({"prm_plus (C++ vs numpy)", n, prmMs, peerPrm, note});
        rows.push_back({"prm_plus per iteration (us)", n,
                        1e3 * prmMs / double(std::max<int64_t>(prm.iterations, 1)),
                        1e3 * peerPrm / double(std::max<int64_t>(peerIt, 1)), "same algorithm"});
        std::snprintf(note, sizeof note, "hybrid %lld iterations (%lld Newton), gap %.1e",
                      (long long)hyb.iterations, (long long)hyb.newtonSteps, hyb.certificate.gap());
        rows.push_back({"hybrid vs numpy prm_plus", n, hybMs, peerPrm, note});
        std::snprintf(note, sizeof note, "|v_hybrid - v_highs| = %.1e",
                      std::abs(hyb.certificate.value - double(peer["lp_value"])));
        rows.push_back({"hybrid vs scipy highs LP", n, hybMs, peerLp, note});
        std::snprintf(note, sizeof note, "|v_clp - v_highs| = %.1e",
                      std::abs(lp.value - double(peer["lp_value"])));
        rows.push_back({"clp LP vs scipy highs LP", n, lpMs, peerLp, note});
        out["peer_numpy"] = peer["numpy"];
        out["peer_blas"] = peer["blas"];
        std::remove(npy.c_str());
    }
    rmdir(dir.c_str());

    std::printf("%-30s %6s %12s %12s %9s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    for (const Row& r : rows) {
        const double ratio = r.peerMs / r.oursMs;
        std::printf("%-30s %6d %12.3f %12.3f %9.2f  %s\n", r.engine.c_str(), r.size, r.oursMs, r.peerMs,
                    ratio, r.note.c_str());
        out["cases"].push_back({{"engine", r.engine},
                                {"size", r.size},
                                {"ours_ms", r.oursMs},
                                {"peer_ms", r.peerMs},
                                {"ratio", ratio},
                                {"note", r.note}});
    }
    std::printf("ratio = peer_ms / ours_ms (> 1: ours faster); target gap %.0e; peer: numpy %s, BLAS %s\n",
                kTarget, std::string(out.value("peer_numpy", "?")).c_str(),
                std::string(out.value("peer_blas", "?")).c_str());
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return 0;
}
