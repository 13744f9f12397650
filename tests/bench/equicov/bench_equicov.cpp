// bench_equicov: Sigma = exp(S), exp(-S), q and the mean LE-ESO loss for N = 4000 random symmetric
// 6x6 generators on the paperlab_nn tape (nn::symExpm, rowQuadForm, logBesselK), against peer.py
// (numpy batched eigh + scipy kve; scipy expm per matrix as a second row) on the same input; the
// losses must agree. Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
// Prints a table and writes JSON (--json FILE, default bench_equicov.json).
#include "bench/common/BenchPeer.h"

#include "core/NpyReader.h"
#include "core/Rng.h"
#include "nn/MatrixFunctionOps.h"
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

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f << bytes;
}

double lossOf(nn::Tape& t, Var s, Var r, bool backward) {
    Mat vecI = Mat::Zero(36, 1);
    for (int i = 0; i < 6; ++i)
        vecI(i * 7, 0) = 1;
    const Var sigma = nn::symExpm(s, 6);
    (void)sigma;
    const Var q = nn::addScalar(nn::rowQuadForm(r, nn::symExpm(nn::neg(s), 6)), 1e-9);
    const Var z = nn::exp(nn::scale(nn::log(nn::scale(q, 2.0)), 0.5));
    const Var loss =
        nn::mean(nn::sub(nn::add(nn::scale(nn::matmul(s, t.constant(vecI)), 0.5), nn::log(nn::scale(q, 0.5))),
                         nn::logBesselK(z, 2.0)));
    if (backward)
        t.backward(loss);
    return loss.scalar();
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_equicov.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const int n = 4000, reps = quick ? 3 : 10;
    Rng rng(18);
    Mat s(n, 36), r(n, 6);
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < 6; ++i)
            for (int j = i; j < 6; ++j)
                s(k, i * 6 + j) = s(k, j * 6 + i) = 0.5 * rng.normal();
        for (int i = 0; i < 6; ++i)
            r(k, i) = rng.normal();
    }
    const std::string dir = "/tmp", sp = dir + "/bench_equicov_s.npy", rp = dir + "/bench_equicov_r.npy";
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> srm = s, rrm = r;
    writeFile(sp, writeNpy({n, 36}, std::vector<double>(srm.data(), srm.data() + srm.size())));
    writeFile(rp, writeNpy({n, 6}, std::vector<double>(rrm.data(), rrm.data() + rrm.size())));
    double fwd = 1e300, both = 1e300, loss = 0;
    for (int k = 0; k < reps; ++k) {
        for (int pass = 0; pass < 2; ++pass) {
            nn::Tape t;
            const Var sv = pass ? t.variable(s) : t.constant(s);
            const auto t0 = std::chrono::steady_clock::now();
            loss = lossOf(t, sv, t.constant(r), pass == 1);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            (pass ? both : fwd) = std::min(pass ? both : fwd, ms);
        }
    }
    const nlohmann::json peer =
        bench::runPythonPeer(PAPERLAB_EQUICOV_PEER, sp + " " + rp + " " + std::to_string(reps));
    const double eigh = peer.value("eigh_ms", -1.0), loop = peer.value("expm_loop_ms", -1.0);
    const double dl = peer.contains("loss") ? std::abs(peer["loss"].get<double>() - loss) : -1;
    std::printf("%-40s %-10s %9s %9s %7s %10s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "|dloss|");
    std::printf("%-40s %-10d %9.2f %9.2f %7.2f %10.2g\n", "Sigma + LE-ESO loss vs numpy eigh", n, fwd, eigh,
                eigh / fwd, dl);
    std::printf("%-40s %-10d %9.2f %9.2f %7.2f %10s\n", "Sigma + LE-ESO loss vs scipy expm loop", n, fwd,
                loop, loop / fwd, "");
    std::printf("%-40s %-10d %9.2f %9s %7s\n", "  (ours: forward + Daleckii-Krein backward)", n, both, "-",
                "-");
    nlohmann::json out;
    out["cases"] = {{{"engine", "equicov Sigma+loss vs numpy eigh"},
                     {"size", std::to_string(n)},
                     {"ours_ms", fwd},
                     {"peer_ms", eigh},
                     {"ratio", eigh / fwd}},
                    {{"engine", "equicov Sigma+loss vs scipy expm loop"},
                     {"size", std::to_string(n)},
                     {"ours_ms", fwd},
                     {"peer_ms", loop},
                     {"ratio", loop / fwd}}};
    out["loss_diff"] = dl;
    out["ours_forward_backward_ms"] = both;
    out["peer"] = peer;
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return 0;
}
