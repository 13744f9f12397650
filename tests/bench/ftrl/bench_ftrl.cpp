// Benchmark of the ftrl-potential-games hot loops against peer.py (numpy / plain Python, the same
// algorithms) on the same games, written to CSV files that both sides read:
//  * entropic FTRL (simultaneous, constant eta = 3, per-step Nash gap and averages), linear snakes
//    n = 4, 16, 64: steps per second;
//  * exact step-by-step fictitious play on the linear snake n = 5 (1.05e8 steps for us): steps/s;
//  * exact event-driven fictitious play on the linear snake n = 9 (1.4e21 steps): runs per second
//    (the fair reference is a plain-Python transcription of the same algorithm).
// Both sides also report a result that is checked for agreement. Single thread. Prints a table and
// writes JSON (--json FILE, default bench_ftrl.json). --quick shortens every measurement.

#include "bench/common/BenchPeer.h"
#include "games/FictitiousPlay.h"
#include "games/FtrlDynamics.h"
#include "games/SnakeGame.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace pl::games;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

void writeCsv(const std::string& path, const Eigen::MatrixXd& M) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
        throw std::runtime_error("cannot write " + path);
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j)
            std::fprintf(f, "%.17g%s", M(i, j), j + 1 == M.cols() ? "\n" : ",");
    std::fclose(f);
}

Eigen::MatrixXd integerMatrix(const ExactPayoffs& e, bool b) {
    Eigen::MatrixXd M(e.rows, e.cols);
    for (int i = 0; i < e.rows; ++i)
        for (int j = 0; j < e.cols; ++j)
            M(i, j) = double(b ? e.bAt(i, j) : e.aAt(i, j));
    return M;
}

/// Runs peer.py with the BLAS environment overrides removed for this command only and one thread.
nlohmann::json peer(const std::string& args) {
    nlohmann::json out = pl::bench::runPythonPeer(PAPERLAB_FTRL_PEER, args);
    if (out.is_null())
        throw std::runtime_error("peer failed: " PAPERLAB_FTRL_PEER " " + args);
    return out;
}

struct Row {
    std::string engine, size, unit;
    double ours = 0, peer = 0;
    std::string check;
};

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_ftrl.json";
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && k + 1 < argc)
            jsonPath = argv[++k];
        else {
            std::fprintf(stderr, "usage: bench_ftrl [--quick] [--json FILE]\n");
            return 1;
        }
    }
    char tmpl[] = "/tmp/bench_ftrl_XXXXXX";
    if (!mkdtemp(tmpl)) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::string dir = tmpl;
    std::vector<Row> rows;
    nlohmann::json blas;

    // --- Entropic FTRL on linear snakes.
    for (int n : {4, 16, 64}) {
        const FtrlGame g = makeLinearSnake(n);
        const std::string a = dir + "/ftrl_A.csv", b = dir + "/ftrl_B.csv";
        writeCsv(a, g.A);
        writeCsv(b, g.B);
        FtrlConfig c;
        c.eta = 3.0;
        c.record = false;
        c.maxSteps = int64_t((quick ? 3e6 : 3e7) / double(n * n + 16));
        auto t0 = Clock::now();
        const FtrlTrace tr = runFtrl(g, c);
        const double ours = double(c.maxSteps) / secondsSince(t0);
        const int peerSteps = quick ? 3000 : 20000;
        const nlohmann::json pj = peer("ftrl " + a + " " + b + " " + std::to_string(peerSteps) + " 3");
        blas = pj["blas"];
        // Agreement: our iterate after the peer's number of steps.
        FtrlConfig cc = c;
        cc.maxSteps = peerSteps;
        const FtrlTrace same = runFtrl(g, cc);
        double diff = 0;
        for (int k = 0; k < n; ++k)
            diff = std::max(diff, std::abs(same.x(k) - pj["x"][size_t(k)].get<double>()));
        char check[64];
        std::snprintf(check, sizeof check, "max|dx| %.1e", diff);
        rows.push_back({"FTRL entropic", "snake n=" + std::to_string(n), "steps/s", ours,
                        peerSteps / pj["seconds"].get<double>(), check});
        (void)tr;
    }

    // --- Exact step-by-step fictitious play, linear snake n = 5.
    {
        const int n = 5;
        const FtrlGame g = makeLinearSnake(n);
        const std::string a = dir + "/fp_A.csv", b = dir + "/fp_B.csv";
        writeCsv(a, integerMatrix(*g.exact, false));
        writeCsv(b, integerMatrix(*g.exact, true));
        FpOptions o;
        o.targetRow = o.targetCol = n - 1;
        o.maxSteps = quick ? 10000000 : 1000000000;
        auto t0 = Clock::now();
        const FpResult r = runFictitiousPlayStep(*g.exact, o);
        const double ours = double(r.stretches) / secondsSince(t0);
        const int peerSteps = quick ? 20000 : 200000;
        const nlohmann::json pj = peer("fp " + a + " " + b + " " + std::to_string(peerSteps) + " 4 4");
        // Agreement on the snake n = 4 (169 284 steps) would take the peer ~1 s; compare n = 3 instead.
        const FtrlGame g3 = makeLinearSnake(3);
        writeCsv(dir + "/fp3_A.csv", integerMatrix(*g3.exact, false));
        writeCsv(dir + "/fp3_B.csv", integerMatrix(*g3.exact, true));
        const nlohmann::json p3 = peer("fp " + dir + "/fp3_A.csv " + dir + "/fp3_B.csv 100000 2 2");
        FpOptions o3;
        o3.targetRow = o3.targetCol = 2;
        const FpResult r3 = runFictitiousPlayStep(*g3.exact, o3);
        const std::string check = "n=3 steps " + toDecimal(r3.steps) + " vs " +
                                  std::to_string(p3["reached"].get<int64_t>()) +
                                  (r.reached ? ", n=5 steps " + toDecimal(r.steps) : "");
        rows.push_back({"FP step-by-step (exact)", "snake n=5", "steps/s", ours,
                        double(pj["steps"].get<int64_t>()) / pj["seconds"].get<double>(), check});
    }

    // --- Exact event-driven fictitious play, linear snake n = 9.
    {
        const int n = 9;
        const FtrlGame g = makeLinearSnake(n);
        const std::string a = dir + "/ev_A.csv", b = dir + "/ev_B.csv";
        writeCsv(a, integerMatrix(*g.exact, false));
        writeCsv(b, integerMatrix(*g.exact, true));
        FpOptions o;
        o.targetRow = o.targetCol = n - 1;
        o.maxSteps = UInt128(1) << 100;
        const int reps = quick ? 2000 : 20000;
        FpResult r;
        auto t0 = Clock::now();
        for (int k = 0; k < reps; ++k)
            r = runFictitiousPlayEvents(*g.exact, o);
        const double ours = reps / secondsSince(t0);
        const nlohmann::json pj =
            peer("fp_events " + a + " " + b + " 8 8 " + std::to_string(quick ? 200 : 2000));
        const std::string check = toDecimal(r.steps) == pj["steps"].get<std::string>()
                                      ? "steps agree (" + toDecimal(r.steps) + ")"
                                      : "STEPS DIFFER";
        rows.push_back({"FP event-driven (exact)", "snake n=9", "runs/s", ours,
                        pj["reps"].get<double>() / pj["seconds"].get<double>(), check});
    }

    std::printf("%-26s %-13s %-8s %14s %14s %9s  %s\n", "engine", "size", "unit", "ours", "peer", "ratio",
                "check");
    nlohmann::json out;
    out["peer"] = "tests/bench/ftrl/peer.py (numpy " + std::string("/usr/bin/python3") + ")";
    out["blas"] = blas;
    out["quick"] = quick;
    for (const Row& r : rows) {
        std::printf("%-26s %-13s %-8s %14.4g %14.4g %9.1f  %s\n", r.engine.c_str(), r.size.c_str(),
                    r.unit.c_str(), r.ours, r.peer, r.ours / r.peer, r.check.c_str());
        out["rows"].push_back({{"engine", r.engine},
                               {"size", r.size},
                               {"unit", r.unit},
                               {"ours", r.ours},
                               {"peer", r.peer},
                               {"ratio", r.ours / r.peer},
                               {"check", r.check}});
    }
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("%s\n", out.dump().c_str());
    for (const char* f : {"ftrl_A.csv", "ftrl_B.csv", "fp_A.csv", "fp_B.csv", "fp3_A.csv", "fp3_B.csv",
                          "ev_A.csv", "ev_B.csv"})
        std::remove((dir + "/" + f).c_str());
    rmdir(dir.c_str());
    return 0;
}
