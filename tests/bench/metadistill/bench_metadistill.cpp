// bench_metadistill: CMA-ES generations of the search engine against a numpy transcription (peer.py):
// per generation lambda = 32 standard normal draws, candidates m + sigma C^(1/2) z, the BBOB sphere,
// the tutorial's update (CSA, rank-one, rank-mu) and the lazy eigendecomposition, at d = 10. Both
// restart the distribution when sigma < 1e-12 so that every generation does the same work.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "search/BbobFunctions.h"
#include "search/CmaEs.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

using namespace pl::search;

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
    }
    const int d = 10, lambda = 32, G = quick ? 2000 : 20000;
    pl::Rng rng(1);
    const BbobFunction sphere("sphere", d, rng);
    auto start = [&] {
        Eigen::VectorXd m(d);
        for (int j = 0; j < d; ++j)
            m[j] = rng.uniform(-4.0, 4.0);
        return std::make_unique<CmaEs>(m, 2.0, lambda);
    };
    const auto t0 = std::chrono::steady_clock::now();
    auto es = start();
    double best = 1e300;
    for (int g = 0; g < G; ++g) {
        const Eigen::MatrixXd X = es->candidates(es->drawZ(rng));
        const Eigen::VectorXd f = sphere.evalRows(X);
        best = std::min(best, f.minCoeff());
        es->tell(X, f);
        if (es->state().sigma < 1e-12)
            es = start();
    }
    const double ours =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const nlohmann::json peer =
        pl::bench::runPythonPeer(PAPERLAB_METADISTILL_PEER,
                                 std::to_string(d) + " " + std::to_string(lambda) + " " + std::to_string(G));
    const double peerMs = peer.is_object() ? peer["ms"].get<double>() : -1;
    const double ratio = peerMs > 0 ? peerMs / ours : -1;
    std::printf("%-22s %-26s %10s %10s %7s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    char size[64], note[160];
    std::snprintf(size, sizeof size, "d=%d lambda=%d G=%d", d, lambda, G);
    std::snprintf(note, sizeof note, "%.2f us vs %.2f us per generation; best f %.2g ours, %.2g peer",
                  1000 * ours / G, peerMs > 0 ? 1000 * peerMs / G : -1.0, best,
                  peer.is_object() ? peer["best"].get<double>() : -1.0);
    std::printf("%-22s %-26s %10.1f %10.1f %7.2f  %s\n", "cmaes_generation", size, ours, peerMs, ratio, note);
    if (!jsonOut.empty())
        std::ofstream(jsonOut) << nlohmann::json{{"cases",
                                                  nlohmann::json::array({{{"engine", "cmaes_generation"},
                                                                          {"size", size},
                                                                          {"ours_ms", ours},
                                                                          {"peer_ms", peerMs},
                                                                          {"ratio", ratio},
                                                                          {"note", note}}})}}
                                      .dump(2);
    return 0;
}
