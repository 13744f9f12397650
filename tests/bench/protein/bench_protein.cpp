// bench_protein: all-vs-all C-alpha RMSD of a synthetic ensemble (1000 models of the two-domain
// hinge protein, ANM samples of both states) by the protein engine (one GEMM for all
// cross-covariances + QCP per pair, 1 thread) against peer.py (numpy), and the TM-score search
// against the TMscore program on the same pairs of 1ni7 models (the program's time includes its
// process start and file reading; ours reads the files once).
// Prints a table and writes JSON (--json FILE, default bench_protein.json).
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "protein/ResidueMatching.h"
#include "protein/StructureReader.h"
#include "protein/Superposition.h"
#include "protein/SyntheticProtein.h"
#include "protein/TmScore.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace pl::protein;
namespace fs = std::filesystem;

namespace {

double nowMs() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

using pl::bench::runCommand;

void writeFile(const fs::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary);
    f << bytes;
}

std::string pdbModel(const std::string& text, int k) {
    std::istringstream in(text);
    std::string line, out;
    int model = 0;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("MODEL", 0) == 0) {
            inside = ++model == k;
            continue;
        }
        if (line.rfind("ENDMDL", 0) == 0) {
            if (inside)
                break;
            continue;
        }
        if (inside && line.rfind("ATOM", 0) == 0)
            out += line + "\n";
    }
    return out + "END\n";
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_protein.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const int N = quick ? 300 : 1000;
    HingeChainParams hp;
    hp.residuesPerDomain = 100;
    const HingeProtein prot = buildHingeProtein(hp);
    const AnmModes ma = anmModes(prot.stateA, 15, 10), mb = anmModes(prot.stateB, 15, 10);
    pl::Rng rng(1);
    std::vector<Eigen::Matrix3Xd> models;
    for (int i = 0; i < N; ++i)
        models.push_back(i % 2 ? anmSample(prot.stateB, mb, 0.8, rng) : anmSample(prot.stateA, ma, 0.8, rng));
    const long L = prot.stateA.cols();
    double best = 1e300;
    Eigen::MatrixXd D;
    for (int rep = 0; rep < 3; ++rep) {
        const double t0 = nowMs();
        D = rmsdMatrix(models);
        best = std::min(best, nowMs() - t0);
    }
    const fs::path dir = fs::temp_directory_path() / ("bench_protein_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::vector<double> xs;
    for (const auto& m : models)
        for (long i = 0; i < L; ++i)
            for (int c = 0; c < 3; ++c)
                xs.push_back(m(c, i));
    writeFile(dir / "x.npy", pl::writeNpy({N, L, 3}, xs));
    std::vector<double> ds(D.data(), D.data() + D.size()); // symmetric: order irrelevant
    writeFile(dir / "d.npy", pl::writeNpy({N, N}, ds));
    // Same rules as every peer: one BLAS thread, OpenBLAS tuning variables unset.
    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_PROTEIN_PEER, (dir / "x.npy").string() + " " + (dir / "d.npy").string());
    if (peer.is_null())
        return 1;
    const double peerMs = peer.value("ms", 0.0);
    nlohmann::json out;
    out["cases"] = nlohmann::json::array();
    std::printf("%-30s %-26s %10s %10s %7s %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "check");
    char size[64];
    std::snprintf(size, sizeof size, "N=%d L=%ld", N, L);
    std::printf("%-30s %-26s %10.1f %10.1f %7.2f max|diff| %.2e\n", "all-vs-all RMSD (QCP)", size, best,
                peerMs, peerMs / best, peer.value("max_abs_diff", -1.0));
    out["cases"].push_back({{"engine", "all-vs-all RMSD"},
                            {"size", size},
                            {"ours_ms", best},
                            {"peer", "numpy einsum + batched SVD"},
                            {"peer_ms", peerMs},
                            {"ratio", peerMs / best},
                            {"max_abs_diff", peer.value("max_abs_diff", -1.0)}});

    // TM-score against the TMscore program on model pairs of 1ni7.
    const std::string ex = "/usr/share/doc/tm-align/examples/1ni7.pdb.gz";
    if (fs::exists(ex) && fs::exists("/usr/bin/TMscore")) {
        std::ifstream in(ex, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = StructureReader::gunzip(ss.str(), ex);
        const int pairs = quick ? 5 : 19;
        for (int k = 1; k <= pairs + 1; ++k)
            writeFile(dir / ("m" + std::to_string(k) + ".pdb"), pdbModel(text, k));
        std::vector<std::shared_ptr<ProteinStructure>> st;
        for (int k = 1; k <= pairs + 1; ++k)
            st.push_back(StructureReader::readFile((dir / ("m" + std::to_string(k) + ".pdb")).string()));
        double maxDiff = 0;
        const double t0 = nowMs();
        std::vector<double> ours;
        for (int k = 1; k <= pairs; ++k) {
            const auto p = matchResidues(st[size_t(k)]->models[0], st[0]->models[0]);
            Eigen::Matrix3Xd x(3, long(p.size())), y(3, long(p.size()));
            for (size_t i = 0; i < p.size(); ++i) {
                x.col(long(i)) = st[size_t(k)]->models[0].ca.col(p[i].first);
                y.col(long(i)) = st[0]->models[0].ca.col(p[i].second);
            }
            ours.push_back(tmScore(x, y, int(st[0]->models[0].keys.size())).tmScore);
        }
        const double oursMs = nowMs() - t0;
        const double t1 = nowMs();
        for (int k = 1; k <= pairs; ++k) {
            const std::string o =
                runCommand("/usr/bin/TMscore " + (dir / ("m" + std::to_string(k + 1) + ".pdb")).string() +
                           " " + (dir / "m1.pdb").string());
            const size_t pos = o.find("TM-score    =");
            if (pos != std::string::npos)
                maxDiff = std::max(maxDiff, std::abs(std::stod(o.substr(pos + 13)) - ours[size_t(k - 1)]));
        }
        const double progMs = nowMs() - t1;
        std::snprintf(size, sizeof size, "%d pairs, L=149", pairs);
        std::printf("%-30s %-26s %10.1f %10.1f %7.2f max|dTM| %.4f\n", "TM-score search", size, oursMs,
                    progMs, progMs / oursMs, maxDiff);
        out["cases"].push_back({{"engine", "TM-score search"},
                                {"size", size},
                                {"ours_ms", oursMs},
                                {"peer", "TMscore program (incl. process start)"},
                                {"peer_ms", progMs},
                                {"ratio", progMs / oursMs},
                                {"max_abs_diff_tm", maxDiff}});
    }
    fs::remove_all(dir);
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return 0;
}
