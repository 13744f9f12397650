// bench_gemq: the gemq engine against its Python peers (peer.py) on identical inputs written to
// binary files (float64, little-endian).
//  lp: the global LP over E experts x {2,3,4,8} bits at 10 budgets; ours: the convex-hull greedy;
//    peer: scipy linprog(method='highs') (dense options as columns). The objectives must agree.
//  quantise: every expert's w1 (d x f) and w2 (f x d) at 4 bits, groups of 32; peer: numpy, the
//    groups reshaped and reduced in one vectorised pass per matrix shape. The outputs must agree.
//  sweep: the cost table (every expert at every bit-width, Fisher-weighted squared error) and the LP
//    at 10 budgets; peer: numpy + HiGHS.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "core/Rng.h"
#include "gemq/Allocation.h"
#include "gemq/Quantiser.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::gemq;
namespace fs = std::filesystem;

namespace {

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

void writeRowMajor(std::ofstream& f, const Eigen::MatrixXd& m) {
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r = m;
    f.write(reinterpret_cast<const char*>(r.data()), std::streamsize(r.size() * sizeof(double)));
}

} // namespace

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
    const fs::path dir = fs::temp_directory_path() / "bench_gemq";
    fs::create_directories(dir);
    const int L = 16, E = quick ? 16 : 64, d = 128, f = 32, G = 32;
    const std::vector<int> bits = {2, 3, 4, 8};
    pl::Rng rng(2605);
    std::vector<Eigen::MatrixXd> w1, w2, f1, f2;
    {
        std::ofstream wf(dir / "weights.bin", std::ios::binary), ff(dir / "fisher.bin", std::ios::binary);
        for (int i = 0; i < L * E; ++i) {
            Eigen::MatrixXd a(d, f), b(f, d), fa(d, f), fb(f, d);
            const double layer = std::exp(-0.3 * (i / E));
            for (Eigen::Index k = 0; k < a.size(); ++k) {
                a.data()[k] = rng.normal() * 0.1;
                b.data()[k] = rng.normal() * 0.1;
                fa.data()[k] = layer * rng.uniform();
                fb.data()[k] = layer * rng.uniform();
            }
            writeRowMajor(wf, a);
            writeRowMajor(wf, b);
            writeRowMajor(ff, fa);
            writeRowMajor(ff, fb);
            w1.push_back(a);
            w2.push_back(b);
            f1.push_back(fa);
            f2.push_back(fb);
        }
    }
    const std::vector<double> budgets = {2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0};
    // quantise
    auto t0 = std::chrono::steady_clock::now();
    double checksum = 0;
    for (int i = 0; i < L * E; ++i)
        checksum +=
            quantiseGroupwise(w1[size_t(i)], 4, G).sum() + quantiseGroupwise(w2[size_t(i)], 4, G).sum();
    const double quantMs = ms(t0);
    // sweep: cost table + LP at every budget
    t0 = std::chrono::steady_clock::now();
    AllocProblem pr;
    pr.layers = L;
    pr.experts = E;
    pr.bits = bits;
    pr.cost.resize(L * E, Eigen::Index(bits.size()));
    for (int i = 0; i < L * E; ++i) {
        pr.params.push_back(double(2 * d * f));
        for (size_t j = 0; j < bits.size(); ++j) {
            const Eigen::MatrixXd e1 = w1[size_t(i)] - quantiseGroupwise(w1[size_t(i)], bits[j], G);
            const Eigen::MatrixXd e2 = w2[size_t(i)] - quantiseGroupwise(w2[size_t(i)], bits[j], G);
            pr.cost(i, Eigen::Index(j)) = 0.5 * (f1[size_t(i)].cwiseProduct(e1.cwiseAbs2()).sum() +
                                                 f2[size_t(i)].cwiseProduct(e2.cwiseAbs2()).sum());
        }
    }
    std::vector<double> sweepObj;
    for (double b : budgets)
        sweepObj.push_back(allocate(pr, b, true).lpObjective);
    const double sweepMs = ms(t0);
    {
        std::ofstream c(dir / "cost.bin", std::ios::binary);
        writeRowMajor(c, pr.cost);
    }
    // lp alone (the costs of the sweep), repeated at every budget
    t0 = std::chrono::steady_clock::now();
    std::vector<double> lpObj;
    for (double b : budgets)
        lpObj.push_back(allocate(pr, b, true).lpObjective);
    const double lpMs = ms(t0);
    char args[512];
    std::snprintf(args, sizeof args, "%s %d %d %d %d %d", dir.string().c_str(), L, E, d, f, G);
    const nlohmann::json peer = pl::bench::runPythonPeer(PAPERLAB_GEMQ_PEER, args);
    const auto get = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    double lpDev = 0, sweepDev = 0;
    if (!peer.is_null())
        for (size_t k = 0; k < budgets.size(); ++k) {
            lpDev = std::max(lpDev, std::abs(lpObj[k] - peer["lp_obj"][k].get<double>()) / lpObj[k]);
            sweepDev =
                std::max(sweepDev, std::abs(sweepObj[k] - peer["sweep_obj"][k].get<double>()) / sweepObj[k]);
        }
    struct Row {
        std::string engine, size;
        double ours, peer;
        std::string note;
    };
    const std::string experts = std::to_string(L * E) + " experts";
    char note[200];
    std::snprintf(note, sizeof note, "10 budgets; max rel. objective difference %.1e", lpDev);
    std::vector<Row> rows{{"lp_hull_greedy", experts + " x 4 bits", lpMs, get("lp_ms"), note}};
    std::snprintf(note, sizeof note, "%.1fM weights at 4 bits, g %d; checksum %.6f ours, %.6f peer",
                  double(L * E) * 2 * d * f / 1e6, G, checksum, get("quant_checksum"));
    rows.push_back({"quantise", experts, quantMs, get("quant_ms"), note});
    std::snprintf(note, sizeof note, "cost table (4 bit-widths) + LP at 10 budgets; max rel. diff %.1e",
                  sweepDev);
    rows.push_back({"pareto_sweep", experts, sweepMs, get("sweep_ms"), note});
    std::printf("%-18s %-22s %10s %10s %7s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    nlohmann::json cases = nlohmann::json::array();
    for (const Row& r : rows) {
        std::printf("%-18s %-22s %10.1f %10.1f %7.2f  %s\n", r.engine.c_str(), r.size.c_str(), r.ours, r.peer,
                    r.peer / r.ours, r.note.c_str());
        cases.push_back({{"engine", r.engine},
                         {"size", r.size},
                         {"ours_ms", r.ours},
                         {"peer_ms", r.peer},
                         {"ratio", r.peer / r.ours}});
    }
    if (!jsonOut.empty())
        std::ofstream(jsonOut) << nlohmann::json{{"cases", cases}}.dump(2);
    return 0;
}
