// Benchmark of the olaf-world engine against peer.py (numpy, sklearn; one thread):
//  1. Adam steps of the latent action model at the panel's default sizes (16 x 16 frames, 64 hidden
//     units, d_z = 2, φ 8-d, 8 windows of k = 4 transitions, λ = 1) on the engines/nn tape against the
//     same model in numpy with hand-written backprop (aim: ≥ 3×);
//  2. the frozen PCA encoder (8 components of 3840 SpriteWorld frames of 256 pixels) against
//     sklearn.decomposition.PCA (aim: parity).
// Run: bench_olaf [--quick] [--json FILE]
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/RunContext.h"
#include "gridworld/FrozenEncoder.h"
#include "gridworld/LatentActionModel.h"
#include "gridworld/SpriteWorld.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

using namespace pl::gridworld;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut = "bench_olaf.json";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonOut = argv[++i];
    }
    nlohmann::json rows = nlohmann::json::array();
    SpriteWorldOptions so;
    so.clipsPerContext = 60;
    const ClipSet clips = generateSpriteWorld(so, pl::Rng(1));
    const FrozenEncoder phi = FrozenEncoder::pca(clips.frames, 8);
    const Eigen::MatrixXd pf = phi.encode(clips.frames);

    const int iters = quick ? 100 : 1000;
    LamOptions lo;
    lo.iterations = iters;
    lo.lossEvery = iters;
    pl::Rng init(2), train(3);
    LatentActionModel m(clips.pixels(), 8, clips.frames.mean(), 0.2, lo, init);
    pl::RunContext ctx(1);
    auto t0 = Clock::now();
    m.train(clips, pf, train, ctx, 0, 1);
    const double oursMs = msSince(t0) / iters;
    const int peerIters = quick ? 50 : 300;
    const nlohmann::json pm =
        pl::bench::runPythonPeer(PAPERLAB_OLAF_PEER, "lam " + std::to_string(peerIters) + " 256 64 2 8 8 4");
    const double peerMs = pm.is_null() ? -1 : pm["ms_per_step"].get<double>();
    std::printf(
        "LAM Adam step (256 px, 64 hidden, dz 2, 8 x 4 transitions): ours %.3f ms; peer (numpy) %.3f ms; "
        "ratio %.2fx\n",
        oursMs, peerMs, peerMs / oursMs);
    rows.push_back({{"engine", "olaf LAM Adam step"},
                    {"size", "256px h64 dz2 b8x4"},
                    {"unit", "ms/step"},
                    {"ours", oursMs},
                    {"peer", peerMs},
                    {"ratio", peerMs / oursMs}});

    const std::string npy = "/tmp/bench_olaf_frames.npy";
    std::vector<double> flat(clips.frames.size());
    for (Eigen::Index r = 0; r < clips.frames.rows(); ++r)
        for (Eigen::Index c = 0; c < clips.frames.cols(); ++c)
            flat[size_t(r * clips.frames.cols() + c)] = clips.frames(r, c);
    std::ofstream(npy, std::ios::binary) << pl::writeNpy({clips.frames.rows(), clips.frames.cols()}, flat);
    const int reps = quick ? 3 : 20;
    t0 = Clock::now();
    double explained = 0;
    for (int r = 0; r < reps; ++r)
        explained = FrozenEncoder::pca(clips.frames, 8).explained();
    const double oursPca = msSince(t0) / reps;
    const nlohmann::json pp =
        pl::bench::runPythonPeer(PAPERLAB_OLAF_PEER, "pca " + npy + " 8 " + std::to_string(reps));
    const double peerPca = pp.is_null() ? -1 : pp["ms"].get<double>();
    std::printf(
        "PCA (3840 x 256 frames, 8 components): ours %.2f ms (explained %.4f); peer (sklearn) %.2f ms "
        "(explained %.4f); ratio %.2fx\n",
        oursPca, explained, peerPca, pp.is_null() ? -1.0 : pp["explained"].get<double>(), peerPca / oursPca);
    rows.push_back({{"engine", "olaf PCA"},
                    {"size", "3840x256 k8"},
                    {"unit", "ms"},
                    {"ours", oursPca},
                    {"peer", peerPca},
                    {"ratio", peerPca / oursPca}});
    std::ofstream(jsonOut) << nlohmann::json{{"rows", rows}}.dump(2) << "\n";
    return 0;
}
