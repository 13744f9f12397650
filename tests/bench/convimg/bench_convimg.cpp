// bench_convimg: time of the convimg engine against the numpy / scipy peer (peer.py) on identical
// data written to .npy.
//  conv: R steps of y = conv3x3(x, w) (16 -> 16 channels, batch 8, 32 x 32), L = sum(y .* g),
//    backward to x and w; the sums of y, dx and dw are compared.
//  agent: the visual-persuasion stand-in agent's utility (32 random 5 x 5 RGB filters by im2col +
//    GEMM, ReLU, 3 x 3 region pooling, readout) on N rendered 48 x 48 images, against
//    scipy.ndimage.convolve; the utilities are compared.
//  darcy: S conditional Darcy solves on 48 x 48 cells (assembly + CG with a diagonal
//    preconditioner to 1e-10); the solutions are compared.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "convimg/ConvOps.h"
#include "convimg/Darcy.h"
#include "convimg/PersuasionWorld.h"
#include "core/NpyReader.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::convimg;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& p, const std::vector<int64_t>& shape, const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            v.push_back(m(r, c));
    std::ofstream(p, std::ios::binary) << pl::writeNpy(shape, v);
}

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

Eigen::MatrixXd uniform(int r, int c, pl::Rng& rng) {
    Eigen::MatrixXd m(r, c);
    for (int j = 0; j < c; ++j)
        for (int i = 0; i < r; ++i)
            m(i, j) = rng.uniform(-1, 1);
    return m;
}

nlohmann::json benchConv(const fs::path& dir, bool quick) {
    const int reps = quick ? 5 : 40, C = 16;
    const MapShape s{8, 32, 32};
    pl::Rng rng(1);
    const Eigen::MatrixXd x = uniform(C, s.columns(), rng), w = uniform(C, C * 9, rng),
                          g = uniform(C, s.columns(), rng);
    // The peer gets x as (C, B*H*W) with columns b*H*W + y*W + x, like ours.
    save(dir / "x.npy", {C, s.columns()}, x);
    save(dir / "w.npy", {C, C * 9}, w);
    save(dir / "g.npy", {C, s.columns()}, g);
    double sy = 0, sdx = 0, sdw = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) {
        pl::nn::Tape t;
        const Var xv = t.variable(x), wv = t.variable(w);
        const Var y = conv2d(xv, wv, s, 3);
        t.backward(pl::nn::sum(pl::nn::mul(y, t.constant(g))));
        sy = y.value().sum();
        sdx = xv.grad().sum();
        sdw = wv.grad().sum();
    }
    const double ours = ms(t0);
    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_CONVIMG_PEER, "conv " + dir.string() + " " + std::to_string(reps) + " 8 32 32");
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    const double diff =
        peer.is_null()
            ? NAN
            : std::max({std::abs(peer["sy"].get<double>() - sy), std::abs(peer["sdx"].get<double>() - sdx),
                        std::abs(peer["sdw"].get<double>() - sdw)});
    std::printf("%-10s %-36s %10.1f %10.1f %7.2f %10.2g\n", "conv", "3x3 16->16, batch 8, 32x32, fwd+bwd",
                ours, peerMs, peerMs / ours, diff);
    return {{"engine", "convimg conv3x3 step (im2col + GEMM)"},
            {"size", std::to_string(reps) + " steps, 16->16 channels, batch 8, 32x32"},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours},
            {"max_abs_diff_of_sums", diff}};
}

nlohmann::json benchDarcy(const fs::path& dir, bool quick) {
    const int solves = quick ? 3 : 20, n = 48;
    pl::Rng rng(2);
    std::vector<Eigen::MatrixXd> Ks;
    for (int i = 0; i < solves; ++i) {
        Ks.push_back(randomPermeability(n, rng));
        save(dir / ("K" + std::to_string(i) + ".npy"), {n, n}, Ks.back());
    }
    const Eigen::MatrixXd f = defaultSource(n);
    save(dir / "f.npy", {n, n}, f);
    std::vector<Eigen::MatrixXd> ps;
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& K : Ks)
        ps.push_back(solveDarcy(K, f, DarcyTask::Conditional, 0.5).p);
    const double ours = ms(t0);
    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_CONVIMG_PEER, "darcy " + dir.string() + " " + std::to_string(solves) + " 0.5");
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    double diff = 0;
    if (!peer.is_null())
        for (int i = 0; i < solves; ++i)
            for (int c = 0; c < n * n; ++c)
                diff = std::max(diff, std::abs(peer["p"][size_t(i)][size_t(c)].get<double>() -
                                               ps[size_t(i)](c / n, c % n)));
    std::printf("%-10s %-36s %10.1f %10.1f %7.2f %10.2g\n", "darcy", "48x48 conditional, CG 1e-10", ours,
                peerMs, peerMs / ours, diff);
    return {{"engine", "convimg Darcy FV solve (assembly + CG)"},
            {"size", std::to_string(solves) + " solves, 48x48"},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours},
            {"max_abs_diff", diff}};
}

nlohmann::json benchAgent(const fs::path& dir, bool quick) {
    const int n = quick ? 20 : 200, S = 48;
    const PersuasionAgent agent(AgentTaste::Planted, S, 5, 1.0, 0.3, pl::Rng(7));
    pl::Rng rng(8);
    std::vector<Image> imgs;
    Eigen::MatrixXd all(3 * n, S * S);
    for (int i = 0; i < n; ++i) {
        Variant v = originalVariant();
        for (size_t g = 0; g < v.size(); ++g)
            if (rng.uniform() < 0.3)
                v[g] = 1 + int(rng.uniformInt(editGroups()[g].options.size()));
        imgs.push_back(renderProduct(i % 5, v, S));
        all.middleRows(3 * i, 3) = imgs.back().rgb;
    }
    const auto w = agent.weights();
    save(dir / "imgs.npy", {3 * n, S * S}, all);
    save(dir / "filters.npy", {32, 75}, w.filters);
    Eigen::MatrixXd rest(4, 288);
    rest.setZero();
    rest.row(0).head(32) = w.bias.transpose();
    rest.row(1) = w.mu.transpose();
    rest.row(2) = w.sd.transpose();
    rest.row(3) = w.v.transpose();
    rest(0, 287) = w.offset; // after the 32 biases
    save(dir / "readout.npy", {4, 288}, rest);
    std::vector<double> u;
    const auto t0 = std::chrono::steady_clock::now();
    for (const Image& img : imgs)
        u.push_back(agent.utility(img));
    const double ours = ms(t0);
    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_CONVIMG_PEER, "agent " + dir.string() + " " + std::to_string(n) + " " + std::to_string(S));
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    double diff = NAN;
    if (!peer.is_null()) {
        diff = 0;
        for (int i = 0; i < n; ++i)
            diff = std::max(diff, std::abs(peer["u"][size_t(i)].get<double>() - u[size_t(i)]));
    }
    const std::string size = std::to_string(n) + " images 48x48x3, 32 filters 5x5";
    std::printf("%-10s %-36s %10.1f %10.1f %7.2f %10.2g\n", "agent", size.c_str(), ours, peerMs,
                peerMs / ours, diff);
    return {{"engine", "agent"},
            {"size", size},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours}};
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_convimg.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const fs::path dir = fs::temp_directory_path() / "paperlab-bench-convimg";
    fs::create_directories(dir);
    std::printf("%-10s %-36s %10s %10s %7s %10s\n", "engine", "size", "ours ms", "peer ms", "ratio",
                "max diff");
    nlohmann::json out;
    out["cases"] =
        nlohmann::json::array({benchConv(dir, quick), benchDarcy(dir, quick), benchAgent(dir, quick)});
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    fs::remove_all(dir);
    return 0;
}
