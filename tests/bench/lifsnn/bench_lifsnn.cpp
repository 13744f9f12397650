// bench_lifsnn: one SNN forward + surrogate-gradient BPTT step of the lif-mmwave network (input layer
// C -> H, nn::lifRecurrence over T steps, rate readout, cross-entropy, backward) on the paperlab_nn
// tape, against peer.py (the same network as a numpy time loop vectorised over the batch, with a
// hand-written BPTT) on the same input and weights; loss and |dL/dW1| must agree. Ratio = peer_ms /
// ours_ms (> 1: we are faster). Single thread on both sides. JSON: --json FILE (default bench_lifsnn.json).
#include "bench/common/BenchPeer.h"

#include "core/NpyReader.h"
#include "core/Rng.h"
#include "nn/Parameter.h"
#include "nn/SpikingOps.h"
#include "nn/Tape.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

using namespace pl;
using nn::Mat;
using nn::Var;

namespace {

void save(const std::string& path, const std::vector<int64_t>& shape, const Mat& m) {
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> rm = m;
    std::ofstream(path, std::ios::binary)
        << writeNpy(shape, std::vector<double>(rm.data(), rm.data() + rm.size()));
}

struct Case {
    int b, t, c, h;
};

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_lifsnn.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const std::vector<Case> cases =
        quick ? std::vector<Case>{{32, 64, 8, 32}}
              : std::vector<Case>{{4, 128, 8, 32}, {32, 128, 8, 32}, {64, 128, 16, 64}};
    const int reps = quick ? 3 : 10, k = 6;
    const double beta = 0.8, slope = 5;
    nlohmann::json out;
    out["cases"] = nlohmann::json::array();
    std::printf("%-34s %-18s %9s %9s %7s %10s %10s\n", "engine", "B x T x C -> H", "ours_ms", "peer_ms",
                "ratio", "|dloss|", "|dgW1|");
    for (const Case& cs : cases) {
        Rng rng(11);
        nn::Parameter w1("w1", nn::glorotUniform(cs.c, cs.h, rng)), b1("b1", Mat::Constant(1, cs.h, 0.1));
        nn::Parameter w2("w2", nn::glorotUniform(cs.h, k, rng)), b2("b2", Mat::Zero(1, k));
        const Mat x = nn::normalMatrix(cs.t * cs.b, cs.c, 1.5, rng);
        std::vector<int> y;
        Mat yy(cs.b, 1);
        for (int i = 0; i < cs.b; ++i) {
            y.push_back(i % k);
            yy(i, 0) = i % k;
        }
        save("/tmp/bench_lif_x.npy", {cs.t, cs.b, cs.c}, x);
        save("/tmp/bench_lif_w1.npy", {cs.c, cs.h}, w1.value);
        save("/tmp/bench_lif_b1.npy", {cs.h}, b1.value);
        save("/tmp/bench_lif_w2.npy", {cs.h, k}, w2.value);
        save("/tmp/bench_lif_b2.npy", {k}, b2.value);
        save("/tmp/bench_lif_y.npy", {cs.b}, yy);
        double best = 1e300, loss = 0;
        for (int r = 0; r < reps; ++r) {
            w1.grad.setZero(w1.value.rows(), w1.value.cols());
            b1.grad.setZero(1, cs.h);
            w2.grad.setZero(cs.h, k);
            b2.grad.setZero(1, k);
            const auto t0 = std::chrono::steady_clock::now();
            nn::Tape t;
            const Var cur = nn::add(nn::matmul(t.constant(x), t.param(w1)), t.param(b1));
            const Var s = nn::lifRecurrence(cur, t.constant(Mat::Constant(1, 1, beta)), cs.t, 1.0, slope);
            const Var z = nn::add(nn::matmul(nn::timeMean(s, cs.t), t.param(w2)), t.param(b2));
            const Var l = nn::mean(nn::softmaxCrossEntropy(z, y));
            t.backward(l);
            best = std::min(
                best,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            loss = l.scalar();
        }
        const nlohmann::json peer = bench::runPythonPeer(
            PAPERLAB_LIFSNN_PEER,
            "/tmp/bench_lif_x.npy /tmp/bench_lif_w1.npy /tmp/bench_lif_b1.npy /tmp/bench_lif_w2.npy "
            "/tmp/bench_lif_b2.npy /tmp/bench_lif_y.npy " +
                std::to_string(beta) + " " + std::to_string(slope) + " " + std::to_string(reps));
        const double pm = peer.value("step_ms", -1.0);
        const double dl = peer.contains("loss") ? std::abs(peer["loss"].get<double>() - loss) : -1;
        const double dg =
            peer.contains("gw1_norm") ? std::abs(peer["gw1_norm"].get<double>() - w1.grad.norm()) : -1;
        const std::string size = std::to_string(cs.b) + "x" + std::to_string(cs.t) + "x" +
                                 std::to_string(cs.c) + "->" + std::to_string(cs.h);
        std::printf("%-34s %-18s %9.3f %9.3f %7.2f %10.2g %10.2g\n", "SNN step (tape, fused LIF BPTT)",
                    size.c_str(), best, pm, pm / best, dl, dg);
        out["cases"].push_back({{"engine", "lifsnn SNN forward + BPTT"},
                                {"size", size},
                                {"ours_ms", best},
                                {"peer_ms", pm},
                                {"ratio", pm / best},
                                {"loss_diff", dl},
                                {"grad_diff", dg}});
    }
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return 0;
}
