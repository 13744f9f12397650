// Benchmark of the tilesparse engine's float32 decode-attention kernel (TileAttentionF32: fused
// scores + running-max softmax + V sum per key chunk, MLA: V = the first d_v latent coordinates,
// read once with K) against peer.py (numpy float32: matmul + softmax + matmul, fancy-indexed block
// gather for the sparse case) on the same Q/K/mask written to .npy. Cases: the 16 heads x
// 32k tokens x d 576 (d_v 512) with T_q = 1, 2, 4 query tokens per head (multi-token
// prediction), dense and QK-2D sparse (each group of 4 rows its own top 10 % of 64-key blocks by
// exact mass). Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
//
// Roofline: the bench measures the machine's peaks itself -- read bandwidth with a stream-like
// sum over 512 MB (and a copy), FLOP/s with a float32 GEMM (numpy/OpenBLAS sgemm 2048^3, one
// thread: the best GEMM on this machine) -- and reports each case's achieved GFLOP/s and GB/s
// (FLOPs 2 R N (d_k + d_v) over the computed keys, bytes = distinct key blocks fetched x d_k x 4
// + Q/O) and the fraction of its roofline bound min(peak FLOP/s, AI x bandwidth) reached.
// Times are thread CPU times (the machine may be shared; wall times are in the JSON too).
// Prints a table and writes JSON (--json FILE, default bench_tilesparse.json).
// --quick: a small case only (16 heads x 4096 x d 64), 3 repetitions.

#include "bench/common/BenchPeer.h"
#include "core/Rng.h"
#include "tilesparse/MlaWorkload.h"
#include "tilesparse/TileAttention.h"
#include "tilesparse/TileAttentionF32.h"
#include "tilesparse/TileSelection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace pl::tilesparse;
using Clock = std::chrono::steady_clock;
using RowF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

namespace {

/// Thread CPU time in ms. The benchmark machine may be shared: CPU time is what a single-thread
/// kernel costs, wall time also counts waiting for a core; both sides are timed the same way.
double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

/// Best CPU time (ms) of `reps` calls; the best wall time goes to *wallMs.
double bestMs(int reps, const std::function<void()>& fn, double* wallMs = nullptr) {
    double best = 1e300, bestWall = 1e300;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        const double c0 = cpuMs();
        fn();
        best = std::min(best, cpuMs() - c0);
        bestWall = std::min(bestWall, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    if (wallMs)
        *wallMs = bestWall;
    return best;
}

/// float32 C-order .npy (version 1.0).
void saveF32(const std::string& path, const float* data, int64_t rows, int64_t cols) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                         std::to_string(cols) + "), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    std::ofstream f(path, std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    const uint16_t len = uint16_t(header.size());
    f.write(reinterpret_cast<const char*>(&len), 2);
    f << header;
    f.write(reinterpret_cast<const char*>(data), std::streamsize(sizeof(float) * size_t(rows * cols)));
}

typedef float v8f __attribute__((vector_size(32)));

/// Stream-like single-thread read bandwidth (GB/s): best of 5 sums over `bytes`; and copy
/// bandwidth (read + write bytes).
std::pair<double, double> measureBandwidth(size_t bytes) {
    const size_t n = bytes / sizeof(float);
    std::vector<float> a(n, 1.0f), b(n, 0.0f);
    double readBest = 0, copyBest = 0;
    volatile float sink = 0;
    for (int rep = 0; rep < 5; ++rep) {
        const double t0 = cpuMs();
        v8f s0 = {}, s1 = {}, s2 = {}, s3 = {};
        for (size_t i = 0; i + 32 <= n; i += 32) {
            v8f x0, x1, x2, x3;
            std::memcpy(&x0, &a[i], 32);
            std::memcpy(&x1, &a[i + 8], 32);
            std::memcpy(&x2, &a[i + 16], 32);
            std::memcpy(&x3, &a[i + 24], 32);
            s0 += x0;
            s1 += x1;
            s2 += x2;
            s3 += x3;
        }
        const v8f s = s0 + s1 + s2 + s3;
        sink = sink + s[0] + s[7];
        const double sec = (cpuMs() - t0) / 1e3;
        readBest = std::max(readBest, double(bytes) / sec / 1e9);
        const double t1 = cpuMs();
        std::memcpy(b.data(), a.data(), n * sizeof(float));
        const double sec2 = (cpuMs() - t1) / 1e3;
        copyBest = std::max(copyBest, 2.0 * double(bytes) / sec2 / 1e9);
        sink = sink + b[n / 2];
    }
    return {readBest, copyBest};
}

nlohmann::json runPeer(const std::string& args) {
    return pl::bench::runPythonPeer(PAPERLAB_TILESPARSE_PEER, args);
}

struct Size {
    std::string name;
    int heads, mtp, context, dk, dv;
};

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_tilesparse.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    std::vector<Size> sizes;
    if (quick)
        sizes.push_back({"16h x 4096 d64 Tq2", 16, 2, 4096, 64, 64});
    else
        for (int t : {1, 2, 4})
            sizes.push_back({"16h x 32768 d576/512 Tq" + std::to_string(t), 16, t, 32768, 576, 512});
    const int reps = quick ? 3 : 5;
    constexpr int kGroupRows = 4, kBlockKeys = 64;
    const auto dir = std::filesystem::temp_directory_path() / "bench_tilesparse";
    std::filesystem::create_directories(dir);

    // Machine peaks, measured here.
    const auto [readGbs, copyGbs] = measureBandwidth(quick ? (size_t(128) << 20) : (size_t(512) << 20));
    const nlohmann::json gemm = runPeer("--gemm " + std::to_string(quick ? 1024 : 2048));
    const double peakGflops = gemm.value("gemm_gflops", -1.0);
    const double peakGbs = std::max(readGbs, copyGbs); // STREAM-style: copy counts read + write bytes
    std::printf("machine: read %.1f GB/s, copy %.1f GB/s (stream-like, 1 thread); sgemm %.1f GFLOP/s (%s, 1 "
                "thread); ridge %.1f FLOP/B; kernel ISA %s\n",
                readGbs, copyGbs, peakGflops, gemm.value("blas", std::string("?")).c_str(),
                peakGflops / peakGbs, tileAttentionF32UsesAvx2() ? "AVX2+FMA" : "baseline");
    nlohmann::json out;
    out["clock"] = "thread CPU time (single thread; wall times in *_wall_ms)";
    out["machine"] = {{"read_gbs", readGbs}, {"peak_gbs", peakGbs},
                      {"copy_gbs", copyGbs}, {"sgemm_gflops", peakGflops},
                      {"gemm", gemm},        {"kernel_avx2", tileAttentionF32UsesAvx2()}};
    out["cases"] = nlohmann::json::array();
    std::printf("%-24s %-26s %9s %9s %7s %8s %8s %9s\n", "engine", "size", "ours_ms", "peer_ms", "ratio",
                "GFLOP/s", "GB/s", "roofline");
    for (const Size& s : sizes) {
        WorkloadSpec ws;
        ws.heads = s.heads;
        ws.mtpTokens = s.mtp;
        ws.context = s.context;
        ws.dk = s.dk;
        ws.dv = s.dv;
        ws.steps = 1;
        const Workload w = generateWorkload(ws, pl::Rng(1));
        const Mat& Q = w.Q[0];
        const int R = int(Q.rows());
        const TileGrid grid{R, s.context, kGroupRows, kBlockKeys};
        const Mat P = attentionProbs(Q, w.K);
        const Mat imp = tileMass(rowBlockMass(P, grid), grid);
        const TileMask mask = selectQk2dUniform(imp, grid.tiles() / 10, forcedBlocks(grid, 1));
        // float32 operands; MLA: V is K's first d_v columns (the kernel reads V through K).
        const RowF q = Q.cast<float>(), k = w.K.cast<float>();
        F32Attention a;
        a.Q = q.data();
        a.K = k.data();
        a.V = k.data();
        a.ldv = s.dk;
        a.rows = R;
        a.dk = s.dk;
        a.keys = s.context;
        a.dv = s.dv;
        RowF od(R, s.dv), os(R, s.dv);
        double denseWall = 0, sparseWall = 0;
        const double denseMs = bestMs(
            reps, [&] { tileAttentionF32(a, grid, nullptr, od.data()); }, &denseWall);
        const double sparseMs = bestMs(
            reps, [&] { tileAttentionF32(a, grid, &mask, os.data()); }, &sparseWall);
        saveF32((dir / "q.npy").string(), q.data(), R, s.dk);
        saveF32((dir / "k.npy").string(), k.data(), s.context, s.dk);
        RowF mm(mask.groups, mask.blocks);
        for (int g = 0; g < mask.groups; ++g)
            for (int b = 0; b < mask.blocks; ++b)
                mm(g, b) = mask.at(g, b) ? 1.0f : 0.0f;
        saveF32((dir / "mask.npy").string(), mm.data(), mask.groups, mask.blocks);
        saveF32((dir / "o_dense.npy").string(), od.data(), R, s.dv);
        saveF32((dir / "o_sparse.npy").string(), os.data(), R, s.dv);
        const nlohmann::json peer =
            runPeer(dir.string() + " " + std::to_string(kGroupRows) + " " + std::to_string(kBlockKeys) + " " +
                    std::to_string(s.dv) + " " + std::to_string(reps));
        const double pd = peer.value("dense_ms", -1.0), ps = peer.value("sparse_ms", -1.0);
        // Roofline of each configuration (float32, MLA: one read of each fetched key block).
        auto report = [&](const char* what, double ms, double peerMs, double tiles, double blocks,
                          double wallMs, double peerWallMs) {
            const double keysComputed = tiles * kBlockKeys * kGroupRows / R; // per row
            const double flops = 2.0 * R * keysComputed * (s.dk + s.dv);
            const double bytes = blocks * kBlockKeys * s.dk * 4.0 + 4.0 * R * (s.dk + s.dv);
            const double gflops = flops / (ms * 1e6), gbs = bytes / (ms * 1e6);
            const double boundMs = std::max(flops / (peakGflops * 1e6), bytes / (peakGbs * 1e6));
            const double frac = boundMs / ms;
            std::printf("%-24s %-26s %9.2f %9.2f %7.2f %8.1f %8.1f %8.0f%%\n", what, s.name.c_str(), ms,
                        peerMs, peerMs > 0 ? peerMs / ms : 0.0, gflops, gbs, 100 * frac);
            return nlohmann::json{{"ours_ms", ms},
                                  {"peer_ms", peerMs},
                                  {"ours_wall_ms", wallMs},
                                  {"peer_wall_ms", peerWallMs},
                                  {"ratio", peerMs > 0 ? peerMs / ms : 0.0},
                                  {"flops", flops},
                                  {"bytes", bytes},
                                  {"intensity", flops / bytes},
                                  {"gflops", gflops},
                                  {"gbs", gbs},
                                  {"roofline_bound_ms", boundMs},
                                  {"roofline_fraction", frac},
                                  {"bound", flops / bytes > peakGflops / peakGbs ? "compute" : "memory"}};
        };
        const nlohmann::json dj = report("dense attention", denseMs, pd, double(grid.tiles()), grid.blocks(),
                                         denseWall, peer.value("dense_wall_ms", -1.0));
        const nlohmann::json sj =
            report("QK-2D sparse (10% tiles)", sparseMs, ps, double(mask.count()),
                   double(mask.fetchedBlocks()), sparseWall, peer.value("sparse_wall_ms", -1.0));
        out["cases"].push_back({{"size", s.name},
                                {"rows", R},
                                {"dense", dj},
                                {"sparse", sj},
                                {"tiles", mask.count()},
                                {"fetched_blocks", mask.fetchedBlocks()},
                                {"peer", peer}});
        if (peer.contains("dense_maxdiff"))
            std::printf("  max |ours - numpy|: dense %.2g, sparse %.2g (numpy %s, %s)\n",
                        peer.value("dense_maxdiff", -1.0), peer.value("sparse_maxdiff", -1.0),
                        peer.value("numpy", std::string("?")).c_str(),
                        peer.value("blas", std::string("?")).c_str());
    }
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("JSON: %s\n", jsonPath.c_str());
    return 0;
}
