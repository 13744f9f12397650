// Benchmarks of the embedding-geometry engine against scipy/sklearn peers (peer.py), one thread on
// both sides, best of REPS runs (wall time). Ratio = peer / ours (> 1: we are faster).
//  1. DRO step: for N images of the negative-label-ood stand-in (M = 1000 negatives each), the exact
//     KL dual (over log lambda) and the Renyi dual (alpha = 2, over eta) at rho = 1: ours = Brent
//     (Boost.Math) on sorted values; peer = scipy.optimize.minimize_scalar(method='bounded') in a
//     Python loop over the images. Target >= 50x.
//  2. APORIA-LP: the kNN graph (k = 10) on [Fisher score, 2 PCs] of the vMF stand-in at 30,000
//     responses and label propagation (alpha = 0.2) from 40 seeds: ours = sorted exact kNN, Gaussian
//     weights, sparse iteration; peer = sklearn LabelSpreading(kernel='knn', n_neighbors=10,
//     alpha=0.2) (0/1 kNN affinities, KD-tree neighbours). Target >= 3x.
// Prints a table and writes JSON (--json FILE, default bench_embedgeo.json).
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "embedgeo/AporiaGeometry.h"
#include "embedgeo/DroDuals.h"
#include "embedgeo/EmbedGeometry.h"
#include "embedgeo/NegLabelData.h"
#include "embedgeo/ResponseWorld.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pl::embedgeo;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void writeMatrix(const std::filesystem::path& p, const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            v.push_back(m(i, j));
    std::ofstream(p, std::ios::binary) << pl::writeNpy({m.rows(), m.cols()}, v);
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_embedgeo.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const int reps = 3, nImages = quick ? 200 : 2000, prompts = quick ? 200 : 1000;
    const auto dir =
        std::filesystem::temp_directory_path() / ("bench_embedgeo_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);

    // 1. DRO step on the stand-in's image-negative cosines.
    pl::Rng rng(1);
    NegLabelWorldSpec ws;
    ws.imagesPerSide = nImages / 2;
    const NegLabelWorld w = makeNegLabelWorld(ws, rng);
    const Eigen::MatrixXd S = cosineMatrix(w.test.images, w.test.negText);
    std::vector<double> kl(size_t(S.rows())), re(size_t(S.rows()));
    double oursDro = 1e300;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        for (Eigen::Index i = 0; i < S.rows(); ++i) {
            const Eigen::VectorXd s = S.row(i).transpose();
            kl[size_t(i)] = klDual(s, 1.0).value;
            re[size_t(i)] = renyiDual(s, 2.0, 1.0).value;
        }
        oursDro = std::min(oursDro, msSince(t0));
    }
    writeMatrix(dir / "sim.npy", S);
    Eigen::MatrixXd both(S.rows(), 2);
    for (Eigen::Index i = 0; i < S.rows(); ++i)
        both.row(i) << kl[size_t(i)], re[size_t(i)];
    writeMatrix(dir / "ours_dro.npy", both);

    // 2. kNN graph + LP on 30,000 vMF responses.
    ResponseWorldSpec rs;
    rs.prompts = prompts;
    rs.responses = 30;
    pl::Rng rr(2);
    const ResponseSet set = makeVmfResponses(rs, 256, rr);
    const PromptGeometry g = promptGeometry(set);
    const Pca pca = fitPca(g.centred, 16);
    const Eigen::MatrixXd Xp = standardise(pca.project(g.centred));
    Eigen::MatrixXd X(Xp.rows(), Xp.cols() + 6);
    X << Xp, standardise(g.features);
    std::vector<int> seedIdx, seedY, seed(set.label.size(), -1);
    for (size_t i = 0; i < set.label.size() && seedIdx.size() < 40; i += 97) {
        seedIdx.push_back(int(i));
        seedY.push_back(set.label[i]);
        seed[i] = set.label[i];
    }
    const Eigen::VectorXd f = X * fisherDirection(X, seedIdx, seedY, 1.0);
    const double sd = std::sqrt((f.array() - f.mean()).square().mean());
    Eigen::MatrixXd Z(X.rows(), 3);
    Z << (f.array() - f.mean()).matrix() / sd, Xp.leftCols(2);
    double oursLp = 1e300;
    std::vector<int64_t> pred;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        const LpGraph graph = knnGraph(Z, 10);
        pred = argmaxLabels(propagate(graph, seed, 0.2).F);
        oursLp = std::min(oursLp, msSince(t0));
    }
    writeMatrix(dir / "z.npy", Z);
    Eigen::MatrixXd lab(Z.rows(), 3);
    for (Eigen::Index i = 0; i < Z.rows(); ++i)
        lab.row(i) << seed[size_t(i)], double(pred[size_t(i)]), set.label[size_t(i)];
    writeMatrix(dir / "labels.npy", lab);

    const nlohmann::json peer =
        pl::bench::runPythonPeer(PAPERLAB_EMBEDGEO_PEER, dir.string() + " " + std::to_string(reps));
    const double peerDro = peer.value("dro_ms", -1.0), peerLp = peer.value("lp_ms", -1.0);
    const auto ratio = [](double p, double o) { return p > 0 ? p / o : -1.0; };
    const std::string s1 = std::to_string(S.rows()) + " images x " + std::to_string(S.cols()) + " negatives";
    const std::string s2 = std::to_string(Z.rows()) + " responses, k = 10";
    std::printf("%-36s %-34s %9s %9s %7s\n", "engine", "size", "ours_ms", "peer_ms", "ratio");
    std::printf("%-36s %-34s %9.1f %9.1f %7.2f\n", "DRO step (KL + Renyi duals)", s1.c_str(), oursDro,
                peerDro, ratio(peerDro, oursDro));
    std::printf("%-36s %-34s %9.1f %9.1f %7.2f\n", "kNN graph + label propagation", s2.c_str(), oursLp,
                peerLp, ratio(peerLp, oursLp));
    std::printf(
        "  max |dual diff| KL %.2g Renyi %.2g; label agreement with LabelSpreading %.4f; F1 ours %.3f "
        "peer %.3f\n",
        peer.value("max_kl_diff", -1.0), peer.value("max_renyi_diff", -1.0), peer.value("agreement", -1.0),
        peer.value("f1_ours", -1.0), peer.value("f1_peer", -1.0));
    nlohmann::json o;
    o["cases"] = nlohmann::json::array({{{"engine", "DRO step (KL + Renyi duals)"},
                                         {"size", s1},
                                         {"ours_ms", oursDro},
                                         {"peer_ms", peerDro},
                                         {"ratio", ratio(peerDro, oursDro)}},
                                        {{"engine", "kNN graph + label propagation"},
                                         {"size", s2},
                                         {"ours_ms", oursLp},
                                         {"peer_ms", peerLp},
                                         {"ratio", ratio(peerLp, oursLp)}}});
    o["peer"] = peer;
    std::ofstream(jsonPath) << o.dump(2) << "\n";
    std::filesystem::remove_all(dir);
    return peer.is_null() ? 1 : 0;
}
