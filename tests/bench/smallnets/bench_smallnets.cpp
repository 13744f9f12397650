// bench_smallnets: time of our smallnets engines against the numpy / scikit-learn peer (peer.py)
// on identical data written to .npy.
//  forgetting: 20 configurations (sigma 0.05..1.0) x 5 seeds of sequential full-batch GD
//    (d = 16, m = 10, n = 100 per task, K = 3, T = 150, eta = 0.5, logistic loss); the final loss
//    matrices must agree to 1e-9 (checks that the peer does the same math).
//  eefp: the analysis of 100 000 x 4 x 10 logits with 1 000 thresholds (four exit scores), ECE,
//    FP-AUROC, EEFP, temperature per exit and the EEFP logistic models; accuracies at the budget
//    are compared.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "nn/Parameter.h"
#include "smallnets/ExitAnalysis.h"
#include "smallnets/SignedQuadraticNet.h"
#include "smallnets/TaskData.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace pl::smallnets;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& p, const std::vector<int64_t>& shape, const std::vector<double>& v) {
    std::ofstream(p, std::ios::binary) << pl::writeNpy(shape, v);
}

std::vector<double> rowMajor(const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            v.push_back(m(r, c));
    return v;
}

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

nlohmann::json benchForgetting(const fs::path& dir, bool quick) {
    const int configs = quick ? 4 : 20, seeds = quick ? 2 : 5;
    XorTaskSpec s;
    s.d = 16;
    s.tasks = 3;
    s.n = 100;
    GdSettings g;
    g.eta = 0.5;
    g.iters = 150;
    struct RunData {
        TaskSet train;
        Eigen::MatrixXd w;
    };
    std::vector<RunData> runs;
    for (int c = 0; c < configs; ++c)
        for (int r = 0; r < seeds; ++r) {
            s.sigma = 0.05 + 0.95 * c / std::max(1, configs - 1);
            pl::Rng root = pl::Rng(100 + uint64_t(r)).fork("c" + std::to_string(c));
            RunData d{makeXorTasks(s, orthonormalMeans(s.d, s.tasks, root.fork("means")), root.fork("train")),
                      {}};
            pl::Rng init = root.fork("init");
            d.w = pl::nn::normalMatrix(10, s.d, 0.01, init);
            Eigen::MatrixXd X(3 * s.n, s.d);
            Eigen::VectorXd y(3 * s.n);
            for (int k = 0; k < 3; ++k) {
                X.middleRows(k * s.n, s.n) = d.train.tasks[size_t(k)].X;
                y.segment(k * s.n, s.n) = d.train.tasks[size_t(k)].y;
            }
            const std::string id = std::to_string(runs.size());
            save(dir / ("X" + id + ".npy"), {X.rows(), X.cols()}, rowMajor(X));
            save(dir / ("y" + id + ".npy"), {y.size()}, rowMajor(y));
            save(dir / ("W" + id + ".npy"), {d.w.rows(), d.w.cols()}, rowMajor(d.w));
            runs.push_back(std::move(d));
        }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Eigen::MatrixXd> losses;
    for (const RunData& d : runs)
        losses.push_back(trainSequential(d.train, d.train, d.w, MarginLoss::Logistic, g, {}).trainLoss);
    const double ours = ms(t0);
    const nlohmann::json peer =
        pl::bench::runPythonPeer(PAPERLAB_SMALLNETS_PEER, "forgetting " + dir.string() + " " +
                                                              std::to_string(runs.size()) + " 100 150 0.5");
    double diff = 0;
    if (!peer.is_null())
        for (size_t r = 0; r < runs.size(); ++r)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i)
                    diff = std::max(diff, std::abs(peer["losses"][r][size_t(j)][size_t(i)].get<double>() -
                                                   losses[r](j, i)));
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    std::printf("%-12s %-34s %10.1f %10.1f %7.2f %10.2g\n", "forgetting",
                "20 configs x 5 seeds (d16 m10 n100)", ours, peerMs, peerMs / ours, diff);
    // Benchmark mode of the spec: the same runs split over two threads (independent runs, so the
    // results are bit-identical to the single-thread ones; checked).
    std::vector<Eigen::MatrixXd> losses2(runs.size());
    const auto t1 = std::chrono::steady_clock::now();
    {
        auto half = [&](size_t first) {
            for (size_t r = first; r < runs.size(); r += 2)
                losses2[r] =
                    trainSequential(runs[r].train, runs[r].train, runs[r].w, MarginLoss::Logistic, g, {})
                        .trainLoss;
        };
        std::thread other(half, size_t(1));
        half(0);
        other.join();
    }
    const double ours2 = ms(t1);
    bool identical = true;
    for (size_t r = 0; r < runs.size(); ++r)
        identical = identical && losses2[r] == losses[r];
    std::printf("%-12s %-34s %10.1f %10.1f %7.2f %10s\n", "forgetting", "  same, ours on 2 threads", ours2,
                peerMs, peerMs / ours2, identical ? "identical" : "DIFFERENT");
    return {{"engine", "continual-forgetting GD sweep"},
            {"size", "20 configs x 5 seeds, d16 m10 n100 K3 T150"},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours},
            {"max_abs_diff", diff},
            {"ours_2threads_ms", ours2},
            {"ratio_2threads", peerMs / ours2},
            {"two_threads_identical", identical},
            {"numpy", peer.is_null() ? "" : peer.value("numpy", "")}};
}

nlohmann::json benchEefp(const fs::path& dir, bool quick) {
    const int N = quick ? 20000 : 100000, K = 4, C = 10, T = 1000;
    pl::Rng rng(7);
    ExitLogits e;
    e.logits.assign(K, Eigen::MatrixXd(N, C));
    std::vector<double> flat(size_t(N) * K * C), labels;
    for (int i = 0; i < N; ++i) {
        const int y = int(rng.uniformInt(C));
        const double u = rng.uniform();
        e.labels.push_back(y);
        labels.push_back(y);
        for (int k = 0; k < K; ++k)
            for (int c = 0; c < C; ++c) {
                const double v = rng.normal() + (c == y ? (1.0 + 1.2 * k) * (1.2 - u) * 1.5 : 0.0);
                e.logits[size_t(k)](i, c) = v;
                flat[(size_t(i) * K + size_t(k)) * C + size_t(c)] = v;
            }
    }
    e.flops = {1, 2, 3, 4};
    save(dir / "logits.npy", {N, K, C}, flat);
    save(dir / "labels.npy", {N}, labels);
    AnalysisSettings s;
    s.thresholds = T;
    s.perturbations = 0; // the peer computes the per-exit metrics, fits and the four sweeps only
    const auto t0 = std::chrono::steady_clock::now();
    const ExitAnalysis a = analyseExits(e, s, pl::Rng(1), {});
    const double ours = ms(t0);
    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_SMALLNETS_PEER, "eefp " + dir.string() + " " + std::to_string(T) + " 0.1 15 0.5");
    double diff = 0;
    if (!peer.is_null())
        for (int p = 0; p < 4; ++p)
            diff =
                std::max(diff, std::abs(peer["acc_at_budget"][size_t(p)].get<double>() - a.accAtBudget[p]));
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    std::printf("%-12s %-34s %10.1f %10.1f %7.2f %10.2g\n", "eefp",
                (std::to_string(N) + " x 4 x 10, 1000 thr").c_str(), ours, peerMs, peerMs / ours, diff);
    return {{"engine", "eefp-early-exit analysis"},
            {"size", std::to_string(N) + " x 4 x 10, 1000 thresholds"},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours},
            {"max_abs_diff_acc", diff}};
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_smallnets.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const fs::path dir = fs::temp_directory_path() / "bench_smallnets";
    fs::create_directories(dir);
    std::printf("%-12s %-34s %10s %10s %7s %10s\n", "engine", "case", "ours_ms", "peer_ms", "ratio",
                "|diff|");
    nlohmann::json out;
    out["cases"] = nlohmann::json::array({benchForgetting(dir, quick), benchEefp(dir, quick)});
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return 0;
}
