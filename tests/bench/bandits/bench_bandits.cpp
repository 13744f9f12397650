// Benchmarks of the bandit engine against numpy peers (peer.py), one thread on both sides, best of
// REPS runs (wall time). Ratio = peer / ours (> 1: we are faster).
//  1. LinUCB (OFUL index, Sherman-Morrison updates of V^-1 and every ||x||^2_{V^-1}) on K = 100
//     arms in d = 8, T rounds, Bernoulli rewards: ours = simulateRun(LinUcb); peer = the same
//     algorithm vectorised per round with numpy inside a Python loop over T. Target >= 20x.
//  2. Surrogate inference on the stand-in library (100,000 compounds, 96-bit fingerprints, 97
//     features with the bias): ours = bit-packed (mean by per-byte tables of weight sums; mean + variance
//     over pairs of set bits); peer = numpy float32 X @ w (and ((X @ S) * X).sum(1)) on the materialised
//     dense features. Target >= 10x (mean).
// Prints a table and writes JSON (--json FILE, default bench_bandits.json).
#include "bandits/BitRegression.h"
#include "bandits/LinearBandits.h"
#include "bandits/ScreenLibrary.h"
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pl::bandits;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void writeNpyFile(const std::filesystem::path& p, std::vector<int64_t> shape, const std::vector<double>& v) {
    std::ofstream f(p, std::ios::binary);
    const std::string b = pl::writeNpy(shape, v);
    f.write(b.data(), std::streamsize(b.size()));
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_bandits.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const int K = 100, d = 8, reps = 3;
    const int64_t T = quick ? 5000 : 20000;
    const auto dir = std::filesystem::temp_directory_path() / ("bench_bandits_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);

    // 1. LinUCB.
    LinearProblem P;
    pl::Rng rng(1);
    P.X.resize(K, d);
    for (int i = 0; i < K; ++i) {
        for (int j = 0; j < d; ++j)
            P.X(i, j) = std::fabs(rng.normal());
        P.X.row(i).normalize();
    }
    Eigen::VectorXd theta(d);
    for (int j = 0; j < d; ++j)
        theta[j] = std::fabs(rng.normal()) + 1e-3;
    P.mu = P.X * theta.normalized();
    P.muStar = P.mu.maxCoeff();
    LinearSettings s;
    s.T = T;
    double oursUcb = 1e300, meanReward = 0;
    for (int r = 0; r < reps; ++r) {
        std::vector<double> sum(size_t(T), 0.0);
        Eigen::VectorXd pulls = Eigen::VectorXd::Zero(K);
        pl::Rng run(10 + r);
        const auto t0 = Clock::now();
        simulateRun(P, LinearAlgorithm::LinUcb, s, run, sum, pulls, {});
        oursUcb = std::min(oursUcb, msSince(t0));
        meanReward = 0;
        for (double v : sum)
            meanReward += v / double(T);
    }
    std::vector<double> rowMajor;
    for (int i = 0; i < K; ++i)
        for (int j = 0; j < d; ++j)
            rowMajor.push_back(P.X(i, j));
    writeNpyFile(dir / "arms.npy", {K, d}, rowMajor);
    writeNpyFile(dir / "mu.npy", {K}, std::vector<double>(P.mu.data(), P.mu.data() + K));

    // 2. Inference on the stand-in library.
    const ScreenLibrary lib = standInLibrary(StandInSpec{}, 1);
    const int64_t N = lib.fp.rows();
    const int B = lib.fp.bits();
    std::vector<int64_t> rows;
    std::vector<double> y;
    for (int64_t r = 0; r < N; r += 50) {
        rows.push_back(r);
        y.push_back(lib.score[size_t(r)]);
    }
    BitRegression model;
    model.fit(lib.fp, rows, y, 0.1, 1.0);
    std::vector<int> scratch(size_t(B) + 1);
    std::vector<double> out(static_cast<size_t>(N)), outVar(static_cast<size_t>(N));
    double oursMean = 1e300, oursFull = 1e300;
    for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        for (int64_t i = 0; i < N; ++i)
            out[size_t(i)] = model.predictMean(lib.fp, i);
        oursMean = std::min(oursMean, msSince(t0));
        t0 = Clock::now();
        for (int64_t i = 0; i < N; ++i)
            model.predict(lib.fp, i, scratch.data(), out[size_t(i)], outVar[size_t(i)]);
        oursFull = std::min(oursFull, msSince(t0));
    }
    double nnz = 0;
    std::vector<double> dense;
    dense.reserve(size_t(N) * size_t(B));
    for (int64_t i = 0; i < N; ++i) {
        nnz += lib.fp.popcount(i);
        for (int b = 0; b < B; ++b)
            dense.push_back(lib.fp.test(i, b) ? 1.0 : 0.0);
    }
    writeNpyFile(dir / "bits.npy", {N, B}, dense);
    writeNpyFile(dir / "w.npy", {B + 1},
                 std::vector<double>(model.mean().data(), model.mean().data() + B + 1));
    std::vector<double> cov;
    for (int i = 0; i <= B; ++i)
        for (int j = 0; j <= B; ++j)
            cov.push_back(model.covariance()(i, j));
    writeNpyFile(dir / "cov.npy", {B + 1, B + 1}, cov);
    writeNpyFile(dir / "ours_mean.npy", {N}, out);
    writeNpyFile(dir / "ours_var.npy", {N}, outVar);

    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_BANDITS_PEER, dir.string() + " " + std::to_string(T) + " " + std::to_string(reps));
    const double peerUcb = peer.value("linucb_ms", -1.0), peerMean = peer.value("mean_ms", -1.0),
                 peerFull = peer.value("meanvar_ms", -1.0);
    const auto ratio = [](double p, double o) { return p > 0 ? p / o : -1.0; };
    std::printf("%-36s %-34s %9s %9s %7s\n", "engine", "size", "ours_ms", "peer_ms", "ratio");
    const std::string s1 = "K=100, d=8, T=" + std::to_string(T);
    const std::string s2 = std::to_string(N) + " rows, " + std::to_string(B + 1) + " features";
    std::printf("%-36s %-34s %9.1f %9.1f %7.2f\n", "LinUCB (Sherman-Morrison)", s1.c_str(), oursUcb, peerUcb,
                ratio(peerUcb, oursUcb));
    std::printf("%-36s %-34s %9.1f %9.1f %7.2f\n", "bit-packed inference: mean", s2.c_str(), oursMean,
                peerMean, ratio(peerMean, oursMean));
    std::printf("%-36s %-34s %9.1f %9.1f %7.2f\n", "bit-packed inference: mean + var", s2.c_str(), oursFull,
                peerFull, ratio(peerFull, oursFull));
    std::printf("  mean set bits %.1f; LinUCB mean reward ours %.4f peer %.4f; max |mean diff| %.2g, max "
                "|var diff| %.2g\n",
                nnz / double(N), meanReward, peer.value("linucb_mean_reward", -1.0),
                peer.value("max_mean_diff", -1.0), peer.value("max_var_diff", -1.0));
    nlohmann::json o;
    o["linucb"] = {
        {"size", s1}, {"ours_ms", oursUcb}, {"peer_ms", peerUcb}, {"ratio", ratio(peerUcb, oursUcb)}};
    o["inference_mean"] = {
        {"size", s2}, {"ours_ms", oursMean}, {"peer_ms", peerMean}, {"ratio", ratio(peerMean, oursMean)}};
    o["inference_mean_var"] = {
        {"size", s2}, {"ours_ms", oursFull}, {"peer_ms", peerFull}, {"ratio", ratio(peerFull, oursFull)}};
    o["mean_set_bits"] = nnz / double(N);
    o["peer"] = peer;
    std::ofstream(jsonPath) << o.dump(2) << "\n";
    std::filesystem::remove_all(dir);
    return peer.is_null() ? 1 : 0;
}
