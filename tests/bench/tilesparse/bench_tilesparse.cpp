// Benchmark of the tilesparse engine's attention kernels against peer.py (numpy) on the same
// inputs: dense decode attention over shared keys, and exact tile-sparse attention on a QK-2D
// uniform selection of 10 % of the head-group x key-block tiles (oracle importance). Ratio =
// peer_ms / ours_ms (> 1: we are faster). Single thread on both sides (the peer runs with
// OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset and one BLAS thread). Prints a table and writes
// JSON (--json FILE, default bench_tilesparse.json). --quick: the default size only, 3 repetitions.

#include "core/NpyReader.h"
#include "core/Rng.h"
#include "tilesparse/MlaWorkload.h"
#include "tilesparse/TileAttention.h"
#include "tilesparse/TileSelection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace pl::tilesparse;
using Clock = std::chrono::steady_clock;

namespace {

double bestMs(int reps, const std::function<void()>& fn) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return best;
}

void save(const std::string& path, const Mat& m) {
    std::vector<double> d;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            d.push_back(m(r, c));
    std::ofstream(path, std::ios::binary) << pl::writeNpy({m.rows(), m.cols()}, d);
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
    std::vector<Size> sizes{{"default 64x4096 d64", 32, 2, 4096, 64, 64}};
    if (!quick)
        sizes.push_back({"large 256x16384 d576/512", 128, 2, 16384, 576, 512});
    const int reps = quick ? 3 : 5;
    const auto dir = std::filesystem::temp_directory_path() / "bench_tilesparse";
    std::filesystem::create_directories(dir);
    nlohmann::json out = nlohmann::json::array();
    std::printf("%-28s %-26s %10s %10s %8s\n", "engine", "size", "ours_ms", "peer_ms", "ratio");
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
        const TileGrid grid{int(Q.rows()), s.context, 4, 16};
        Mat P;
        const Mat Od = denseAttention(Q, w.K, w.V, &P);
        const Mat imp = tileMass(rowBlockMass(P, grid), grid);
        const TileMask mask = selectQk2dUniform(imp, grid.tiles() / 10, forcedBlocks(grid, 1));
        const Mat Os = sparseAttention(Q, w.K, w.V, grid, mask);
        const double denseMs = bestMs(reps, [&] { denseAttention(Q, w.K, w.V); });
        const double sparseMs = bestMs(reps, [&] { sparseAttention(Q, w.K, w.V, grid, mask); });
        save((dir / "q.npy").string(), Q);
        save((dir / "k.npy").string(), w.K);
        save((dir / "v.npy").string(), w.V);
        Mat mm(mask.groups, mask.blocks);
        for (int g = 0; g < mask.groups; ++g)
            for (int b = 0; b < mask.blocks; ++b)
                mm(g, b) = mask.at(g, b) ? 1 : 0;
        save((dir / "mask.npy").string(), mm);
        save((dir / "o_dense.npy").string(), Od);
        save((dir / "o_sparse.npy").string(), Os);
        const std::string cmd = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 "
                                "OMP_NUM_THREADS=1 /usr/bin/python3 " PAPERLAB_TILESPARSE_PEER " " +
                                dir.string() + " 4 16 " + std::to_string(reps);
        nlohmann::json peer;
        if (FILE* f = popen(cmd.c_str(), "r")) {
            std::string text;
            char buf[512];
            while (fgets(buf, sizeof buf, f))
                text += buf;
            pclose(f);
            try {
                peer = nlohmann::json::parse(text);
            } catch (...) {
            }
        }
        const double pd = peer.value("dense_ms", -1.0), ps = peer.value("sparse_ms", -1.0);
        std::printf("%-28s %-26s %10.2f %10.2f %8.2f\n", "dense attention", s.name.c_str(), denseMs, pd,
                    pd > 0 ? pd / denseMs : 0.0);
        std::printf("%-28s %-26s %10.2f %10.2f %8.2f\n", "QK-2D sparse (10% tiles)", s.name.c_str(), sparseMs,
                    ps, ps > 0 ? ps / sparseMs : 0.0);
        out.push_back({{"size", s.name},
                       {"dense", {{"ours_ms", denseMs}, {"peer_ms", pd}}},
                       {"sparse", {{"ours_ms", sparseMs}, {"peer_ms", ps}, {"tiles", mask.count()}}},
                       {"peer", peer}});
    }
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("JSON: %s\n", jsonPath.c_str());
    return 0;
}
