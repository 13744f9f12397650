// bench_protovar: time of the protovar-distillation engine against its peers (peer.py) on identical
// data (single thread on both sides):
//  kmeans: k-means++ seeds then 20 Lloyd iterations, k = 128, on N pooled residual vectors (16-dim)
//    of the tokeniser on procedural glyphs; peer sklearn KMeans(algorithm="lloyd", n_init=1,
//    max_iter=20, tol=0) with its own k-means++ seeds. Inertia printed for both.
//  sampling: a pool of P images of one class (4 scales, CFG w = 1, 3 prototypes, beta_1 = 3) from
//    the generator; peer: the same weights, codebook, resampling matrices and prototypes in a numpy
//    loop over the samples (positions of a scale vectorised).
// Times are process CPU times on both sides (clock_gettime(CLOCK_PROCESS_CPUTIME_ID) here,
// time.process_time() in the peer; both run one thread), so a loaded machine does not skew the ratio.
// Ratio = peer_ms / ours_ms (> 1: we are faster).
#include "bench/common/BenchPeer.h"
#include "distill/GlyphRenderer.h"
#include "distill/KMeans.h"
#include "distill/MultiScaleQuantiser.h"
#include "distill/ScaleGenerator.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

using namespace pl::distill;
namespace fs = std::filesystem;

namespace {

/// Process CPU time in ms.
double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

void writeMatrix(const fs::path& p, const Eigen::MatrixXd& m) {
    std::ofstream f(p);
    f.precision(17);
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            f << m(r, c) << ' ';
        f << '\n';
    }
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
    const int N = quick ? 5000 : 30000, pool = quick ? 100 : 500, iters = 20;
    const fs::path dir = fs::temp_directory_path() / "paperlab-bench-protovar";
    fs::create_directories(dir);
    pl::Rng rng(1);
    std::vector<int> y;
    const Eigen::MatrixXd imgs = renderGlyphSet(100, rng, y);
    MultiScaleQuantiser q(16, {1, 2, 3, 4}, 128);
    q.fit(imgs, rng, 8000);
    // pooled residuals of the trained tokeniser
    Eigen::MatrixXd X(N, 16);
    Eigen::Index at = 0;
    for (Eigen::Index i = 0; at < N; i = (i + 1) % imgs.rows()) {
        const Eigen::MatrixXd f = q.latent(imgs.row(i).transpose());
        Eigen::MatrixXd fhat = Eigen::MatrixXd::Zero(16, 16);
        for (int k = 0; k < 4 && at < N; ++k) {
            const Eigen::MatrixXd z = q.down(k) * (f - fhat);
            for (Eigen::Index p = 0; p < z.rows() && at < N; ++p)
                X.row(at++) = z.row(p) + 1e-3 * Eigen::RowVectorXd::Random(16);
            fhat += q.up(k) * z;
        }
    }
    writeMatrix(dir / "X.txt", X);
    double t0 = cpuMs();
    pl::Rng kr(2);
    const KMeansResult km = lloyd(X, kmeansPlusPlus(X, 128, kr), iters);
    const double oursKm = cpuMs() - t0;

    // generator with random weights (sampling cost does not depend on training)
    ScaleGenerator g(q, kGlyphClasses, 96, rng);
    SampleRequest req;
    req.cls = 2;
    req.count = pool;
    req.cfg = 1;
    req.betaK = {3, 1.5, 0.75, 0.375};
    req.prototypes.resize(4);
    for (int k = 0; k < 4; ++k)
        for (int m = 0; m < 3; ++m) {
            std::vector<Eigen::MatrixXd> cum;
            q.encode(q.latent(imgs.row(200 + 7 * m).transpose()), &cum);
            req.prototypes[size_t(k)].push_back(cum[size_t(k)]);
            writeMatrix(dir / ("P" + std::to_string(k) + "_" + std::to_string(m) + ".txt"), cum[size_t(k)]);
        }
    for (int k = 0; k < 4; ++k) {
        const auto w = g.weights(k);
        for (int j = 0; j < 4; ++j)
            writeMatrix(dir / ("W" + std::to_string(k) + "_" + std::to_string(j) + ".txt"), w[size_t(j)]);
        writeMatrix(dir / ("D" + std::to_string(k) + ".txt"), q.down(k));
        writeMatrix(dir / ("U" + std::to_string(k) + ".txt"), q.up(k));
    }
    writeMatrix(dir / "E.txt", q.codebook());
    t0 = cpuMs();
    pl::Rng sr(3);
    const SampledPool sp = g.sample(req, sr);
    const double oursSample = cpuMs() - t0;

    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_PROTOVAR_PEER, dir.string() + " " + std::to_string(iters) + " " + std::to_string(pool));
    const auto get = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    std::printf("%-34s %-28s %10s %10s %7s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    const std::string kmSize = std::to_string(N) + " x 16, k 128, " + std::to_string(iters) + " it";
    const double pk = get("sklearn_kmeans_ms"), ps = get("numpy_sampling_ms");
    std::printf("%-34s %-28s %10.1f %10.1f %7.2f  inertia ours %.2f, sklearn %.2f\n",
                "protovar k-means vs sklearn", kmSize.c_str(), oursKm, pk, pk / oursKm, km.inertia,
                get("sklearn_inertia"));
    const std::string sSize = std::to_string(pool) + " images, 4 scales, V 128";
    std::printf("%-34s %-28s %10.1f %10.1f %7.2f  entropy scale 1 ours %.2f bits, numpy %.2f\n",
                "protovar sampling vs numpy loop", sSize.c_str(), oursSample, ps, ps / oursSample,
                sp.entropyBits[0], get("numpy_entropy_scale1"));
    if (!jsonOut.empty()) {
        nlohmann::json cases = nlohmann::json::array();
        cases.push_back({{"engine", "protovar k-means vs sklearn KMeans"},
                         {"size", kmSize},
                         {"ours_ms", oursKm},
                         {"peer_ms", pk},
                         {"ratio", pk / oursKm}});
        cases.push_back({{"engine", "protovar sampling vs numpy loop"},
                         {"size", sSize},
                         {"ours_ms", oursSample},
                         {"peer_ms", ps},
                         {"ratio", ps / oursSample}});
        std::ofstream(jsonOut) << nlohmann::json{{"cases", cases}}.dump(2);
    }
    return 0;
}
