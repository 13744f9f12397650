// Benchmark of the torus-graph engine's score-matching estimators against peer.py (numpy) on the
// same phases (n = 20000 uniform phases, d = 16, 32, 64): closed-form Γ/H build (ours: node-blocked
// rank-k updates; peer: the straightforward dense per-sample D Dᵀ port where affordable, and the same
// node-blocked algorithm in numpy), the Cholesky solve, and one stochastic score-matching step
// (b = 64 + Adam). Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides
// (OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset, one BLAS thread). The results are cross-checked
// (η and one minibatch gradient). Then the largest d whose closed-form fit (build + solve) and whose
// 2000 SSM steps finish within 10 s. Prints a table, writes JSON (--json FILE).
// --quick: d = 16 only, no 10 s search.

#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "torusgraph/ScoreMatching.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

using namespace pl::torusgraph;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void saveVec(const std::string& path, const std::vector<double>& v, std::vector<int64_t> shape) {
    std::ofstream(path, std::ios::binary) << pl::writeNpy(shape, v);
}

RowMat phases(int64_t n, int d, uint64_t seed) {
    pl::Rng rng(seed);
    RowMat x(n, d);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x.data()[i] = rng.uniform(0, 2 * std::numbers::pi);
    return x;
}

double ssmStepMs(const TrigTables& t, int iters) {
    SsmOptions o;
    o.iterations = iters;
    o.batch = 64;
    o.recordEvery = 0;
    o.tailFraction = 0;
    pl::Rng r(3);
    const auto t0 = Clock::now();
    stochasticScoreMatching(t, o, r);
    return msSince(t0) / iters;
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_torusgraph.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const int64_t n = 20000;
    std::vector<int> dims{16};
    if (!quick)
        dims = {16, 32, 64};
    const auto dir = std::filesystem::temp_directory_path() / "bench_torusgraph";
    std::filesystem::create_directories(dir);
    nlohmann::json out = nlohmann::json::object();
    out["rows"] = nlohmann::json::array();
    std::printf("%-34s %-16s %11s %11s %8s\n", "engine", "size", "ours_ms", "peer_ms", "ratio");
    for (int d : dims) {
        const RowMat x = phases(n, d, 1);
        const TrigTables t = TrigTables::of(x);
        auto t0 = Clock::now();
        const GammaH gh = accumulateGammaH(t);
        const double buildMs = msSince(t0);
        t0 = Clock::now();
        const Vec eta = solveClosedForm(gh, 0);
        const double solveMs = msSince(t0);
        const int ssmIters = d >= 64 ? 200 : 500;
        const double stepMs = ssmStepMs(t, ssmIters);
        std::vector<int64_t> rows;
        pl::Rng rr(5);
        for (int i = 0; i < 64; ++i)
            rows.push_back(int64_t(rr.uniformInt(uint64_t(n))));
        const Vec grad = ssmGradient(t, rows, eta, 0);
        saveVec((dir / "x.npy").string(), std::vector<double>(x.data(), x.data() + x.size()), {n, d});
        saveVec((dir / "eta_cf.npy").string(), std::vector<double>(eta.data(), eta.data() + eta.size()),
                {eta.size()});
        saveVec((dir / "grad.npy").string(), std::vector<double>(grad.data(), grad.data() + grad.size()),
                {grad.size()});
        saveVec((dir / "rows.npy").string(), std::vector<double>(rows.begin(), rows.end()), {64});
        const nlohmann::json peer = pl::bench::runPythonPeer(PAPERLAB_TORUSGRAPH_PEER,
                                                             dir.string() + " " + std::to_string(d) + " " +
                                                                 std::to_string(d >= 64 ? 50 : 200) + " 16");
        const std::string size = "n=20000 d=" + std::to_string(d);
        auto row = [&](const char* name, double ours, double theirs) {
            std::printf("%-34s %-16s %11.2f %11.2f %8.2f\n", name, size.c_str(), ours, theirs,
                        theirs > 0 ? theirs / ours : 0.0);
        };
        const double pDense = peer.value("build_dense_ms", -1.0),
                     pBlocked = peer.value("build_blocked_ms", -1.0), pSolve = peer.value("solve_ms", -1.0),
                     pStep = peer.value("ssm_iter_ms", -1.0);
        if (pDense > 0)
            row("CF build vs numpy dense D Dᵀ", buildMs, pDense);
        row("CF build vs numpy node-blocked", buildMs, pBlocked);
        row("CF Cholesky solve", solveMs, pSolve);
        row("CF fit (build + solve, blocked)", buildMs + solveMs, pBlocked + pSolve);
        row("SSM step (b=64, Adam)", stepMs, pStep);
        std::printf("  check: |η_numpy − η_ours|/|η| = %.2e, minibatch gradient %.2e\n",
                    peer.value("eta_maxdiff", -1.0), peer.value("grad_maxdiff", -1.0));
        out["rows"].push_back(
            {{"n", n},
             {"d", d},
             {"ours", {{"build_ms", buildMs}, {"solve_ms", solveMs}, {"ssm_step_ms", stepMs}}},
             {"peer", peer}});
    }
    if (!quick) {
        // Largest d fitted in 10 s (n = 20000): closed form (build + solve) and 2000 SSM steps.
        int bestCf = 0;
        for (int d : {32, 40, 48, 56, 64, 72, 80}) {
            const TrigTables t = TrigTables::of(phases(n, d, 2));
            const auto t0 = Clock::now();
            const Vec eta = solveClosedForm(accumulateGammaH(t), 0);
            const double s = msSince(t0) / 1000;
            std::printf("  closed-form fit d=%d: %.2f s\n", d, s);
            if (s > 10 || !eta.allFinite())
                break;
            bestCf = d;
        }
        int bestSsm = 0;
        for (int d = 64; d <= 2048; d *= 2) {
            const TrigTables t = TrigTables::of(phases(2000, d, 3));
            const double s = ssmStepMs(t, 20) * 2000 / 1000;
            std::printf("  2000 SSM steps d=%d: %.2f s (from 20 timed steps)\n", d, s);
            if (s > 10)
                break;
            bestSsm = d;
        }
        std::printf("%-34s %-16s %11d\n", "largest d, CF fit in 10 s", "n=20000", bestCf);
        std::printf("%-34s %-16s %11d\n", "largest d, 2000 SSM steps in 10 s", "b=64", bestSsm);
        out["largest_d_10s"] = {{"closed_form", bestCf}, {"ssm_2000_steps", bestSsm}};
    }
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("JSON: %s\n", jsonPath.c_str());
    return 0;
}
