// Benchmark of the grid-world engine against peer.py (pure Python + networkx, numpy; one thread):
//  1. CraftGrid stepping with a BFS navigator: an agent visits tree, stone, coal, iron and diamond
//     tiles in turn (BFS first move every step, turn, USE) on the same generated 24 x 24 map;
//     steps per second (aim: ≥ 50× the Python grid world with networkx BFS);
//  2. behaviour-cloning Adam steps of the 2 × 128 ReLU MLP (330 inputs, 35 classes, batch 128) on the
//     engines/nn tape against a numpy MLP with hand-written backprop and Adam (aim: ≥ 5×).
// Run: bench_gridworld [--quick] [--json FILE]
#include "bench/common/BenchPeer.h"
#include "core/RunContext.h"
#include "gridworld/CraftGrid.h"
#include "gridworld/GridMap.h"
#include "gridworld/MlpClassifier.h"

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

/// The navigation loop of both sides; returns the number of tiles used.
int navigate(const GridMap& m, int steps) {
    const std::string targets = "TSCID";
    int cell = m.start, facing = 0, target = 0, used = 0;
    for (int t = 0; t < steps; ++t) {
        const char tile = targets[size_t(target)];
        const int move = firstMoveToTile(m, cell, tile);
        if (move < 0) {
            target = (target + 1) % 5;
        } else if (move < 4) {
            facing = move;
            cell += kDRow[size_t(move)] * m.cols + kDCol[size_t(move)];
        } else {
            const int r = cell / m.cols, c = cell % m.cols;
            if (m.inside(r + kDRow[size_t(facing)], c + kDCol[size_t(facing)]) &&
                m.at(r + kDRow[size_t(facing)], c + kDCol[size_t(facing)]) == tile) {
                ++used; // USE
                target = (target + 1) % 5;
            } else {
                for (int k = 0; k < 4; ++k)
                    if (m.inside(r + kDRow[size_t(k)], c + kDCol[size_t(k)]) &&
                        m.at(r + kDRow[size_t(k)], c + kDCol[size_t(k)]) == tile) {
                        facing = k; // turn
                        break;
                    }
            }
        }
    }
    return used;
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut = "bench_gridworld.json";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonOut = argv[++i];
    }
    nlohmann::json rows = nlohmann::json::array();
    const std::string mapPath = "/tmp/bench_gridworld_map.txt";
    const GridMap m = generateMap(24, "TSCID", pl::Rng(7), "bench");
    std::ofstream(mapPath) << m.toText();
    const int steps = quick ? 2000 : 20000;
    auto t0 = Clock::now();
    const int used = navigate(m, steps);
    const double oursSteps = steps / (msSince(t0) / 1000);
    const int peerStepsN = quick ? 300 : 2000;
    const nlohmann::json pn = pl::bench::runPythonPeer(
        PAPERLAB_GRIDWORLD_PEER, "navigate " + mapPath + " " + std::to_string(peerStepsN));
    const double peerSteps = pn.is_null() ? -1 : pn["steps_per_s"].get<double>();
    std::printf("grid stepping + BFS (24x24): ours %.0f steps/s (%d tiles used); peer (python+networkx) %.0f "
                "steps/s; ratio %.1fx\n",
                oursSteps, used, peerSteps, oursSteps / peerSteps);
    rows.push_back({{"engine", "gridworld BFS stepping"},
                    {"size", "24x24"},
                    {"unit", "steps/s"},
                    {"ours", oursSteps},
                    {"peer", peerSteps},
                    {"ratio", oursSteps / peerSteps}});

    const int in = 330, hidden = 128, classes = 35, n = 4096, iters = quick ? 30 : 200;
    pl::Rng rng(3);
    Eigen::MatrixXd x(n, in);
    std::vector<int> y(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < in; ++c)
            x(r, c) = rng.uniform() < 0.1 ? 1.0 : 0.0;
        y[size_t(r)] = int(rng.uniformInt(classes));
    }
    MlpClassifier net(in, hidden, classes, rng);
    pl::RunContext ctx(1);
    FitOptions o;
    o.iterations = iters;
    t0 = Clock::now();
    net.fit(x, y, o, rng, ctx);
    const double oursMs = msSince(t0) / iters;
    const nlohmann::json pm = pl::bench::runPythonPeer(
        PAPERLAB_GRIDWORLD_PEER, "mlp " + std::to_string(iters) + " " + std::to_string(in) + " " +
                                     std::to_string(hidden) + " " + std::to_string(classes) + " 128");
    const double peerMs = pm.is_null() ? -1 : pm["ms_per_step"].get<double>();
    std::printf("BC Adam step (330-128-128-35, batch 128): ours %.3f ms; peer (numpy) %.3f ms; ratio %.2fx\n",
                oursMs, peerMs, peerMs / oursMs);
    rows.push_back({{"engine", "gridworld BC Adam step"},
                    {"size", "330-128-128-35 b128"},
                    {"unit", "ms/step"},
                    {"ours", oursMs},
                    {"peer", peerMs},
                    {"ratio", peerMs / oursMs}});
    std::ofstream(jsonOut) << nlohmann::json{{"rows", rows}}.dump(2) << "\n";
    return 0;
}
