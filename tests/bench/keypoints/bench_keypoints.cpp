// Benchmark of the keypoints engine's spectral step against peer.py (scipy + sklearn) on the same
// maze graph: a random-rooms maze (200 x 200 cells, 20 x 20 rooms; --quick: 60 x 60, 6 x 6), W =
// 4-neighbour adjacency of its free cells (weight 1), written as an edge list .npy for the peer.
// Ours: normalisedLaplacian + smallestEigenpairs (Spectra SymEigsShiftSolver, sigma = -1e-3,
// sparse LDLT) + NJW rows + kmeans (k-means++, 10 restarts, <= 100 Lloyd iterations).
// Peer: csgraph.laplacian(normed) + eigsh(sigma=-1e-3, which='LM') + row normalisation +
// KMeans(n_init=10, max_iter=100). Same k (16 clusters, 16 eigenpairs). Ratio = peer / ours
// (> 1: we are faster). One thread on both sides; best of REPS runs (wall time).
// Prints a table row and writes JSON (--json FILE, default bench_keypoints.json); also reports
// the largest eigenvalue difference and the ARI between the two labelings.

#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "keypoints/Maze.h"
#include "keypoints/SpectralClustering.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace pl::keypoints;
using Clock = std::chrono::steady_clock;

namespace {

nlohmann::json runPeer(const std::string& args) {
    return pl::bench::runPythonPeer(PAPERLAB_KEYPOINTS_PEER, args);
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_keypoints.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const int side = quick ? 60 : 200, rooms = quick ? 6 : 20, k = 16, reps = quick ? 3 : 2;
    pl::Rng rng(1);
    const Maze m = randomRooms(rng, side, side, rooms, rooms);
    std::vector<int> node(size_t(m.size()), -1);
    int n = 0;
    for (int c = 0; c < m.size(); ++c)
        if (m.isFree(c))
            node[size_t(c)] = n++;
    std::vector<Eigen::Triplet<double>> t;
    std::vector<double> edges;
    for (int c = 0; c < m.size(); ++c) {
        if (node[size_t(c)] < 0)
            continue;
        for (int a : {1, 3}) { // down, right: each undirected edge once
            const int v = m.step(c, a);
            if (v != c) {
                t.emplace_back(node[size_t(c)], node[size_t(v)], 1.0);
                t.emplace_back(node[size_t(v)], node[size_t(c)], 1.0);
                edges.push_back(node[size_t(c)]);
                edges.push_back(node[size_t(v)]);
            }
        }
    }
    SpMat W(n, n);
    W.setFromTriplets(t.begin(), t.end());
    const auto dir =
        std::filesystem::temp_directory_path() / ("bench_keypoints_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
        std::ofstream f(dir / "edges.npy", std::ios::binary);
        const std::string b = pl::writeNpy({int64_t(edges.size() / 2), 2}, edges);
        f.write(b.data(), std::streamsize(b.size()));
    }

    double best = 1e300;
    EigenPairs ep;
    KMeansResult km;
    double bestEig = 0, bestKm = 0;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        const SpMat L = normalisedLaplacian(W);
        ep = smallestEigenpairs(L, k);
        const auto t1 = Clock::now();
        const Eigen::MatrixXd X = njwEmbedding(ep.vectors, k);
        pl::Rng kr(7);
        km = kmeans(X, k, kr, 10, 100);
        const double total = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (total < best) {
            best = total;
            bestEig = std::chrono::duration<double, std::milli>(t1 - t0).count();
            bestKm = total - bestEig;
        }
    }
    {
        std::ofstream f(dir / "ours.txt");
        for (int l : km.labels)
            f << l << "\n";
        for (int i = 0; i < k; ++i)
            f << "e " << ep.values(i) << "\n";
    }
    const nlohmann::json peer = runPeer(dir.string() + " " + std::to_string(n) + " " + std::to_string(k) +
                                        " " + std::to_string(reps));
    const double peerMs = peer.value("best_ms", -1.0);
    const double ratio = peerMs > 0 ? peerMs / best : -1;
    std::printf("%-28s %-30s %9s %9s %7s\n", "engine", "size", "ours_ms", "peer_ms", "ratio");
    const std::string size = std::to_string(side) + "x" + std::to_string(side) + " maze, " +
                             std::to_string(n) + " nodes, k=" + std::to_string(k);
    std::printf("%-28s %-30s %9.1f %9.1f %7.2f\n", "keypoints spectral step", size.c_str(), best, peerMs,
                ratio);
    std::printf("  ours: Laplacian + eigenpairs %.1f ms, NJW + k-means %.1f ms\n", bestEig, bestKm);
    std::printf("  max |lambda ours - lambda eigsh| = %.2g, ARI(ours, sklearn) = %.3f, Lanczos restarts %d\n",
                peer.value("max_eig_diff", -1.0), peer.value("ari", -1.0), ep.iterations);
    nlohmann::json out;
    out["engine"] = "keypoints spectral step";
    out["size"] = size;
    out["nodes"] = n;
    out["clusters"] = k;
    out["ours_ms"] = best;
    out["peer_ms"] = peerMs;
    out["ratio"] = ratio;
    out["ours_eigen_ms"] = bestEig;
    out["ours_kmeans_ms"] = bestKm;
    out["peer"] = peer;
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("JSON: %s\n", jsonPath.c_str());
    std::filesystem::remove_all(dir);
    return 0;
}
