// bench_distill: time of the distill engine's student training against the numpy peer (peer.py) on
// identical data: 20 classes x 20 rendered 16x16 RGB images (768 standardised features) and the
// stand-in teacher's signatures (50 questions x 5 options).
//  train: LaViD student (768-32-16 ReLU backbone, 20-class head, 250-output question head), loss
//    CE + MSE to t_y, Adam lr 3e-3, batch 32, E epochs (ours: the nn tape; peer: numpy with
//    hand-written backprop, the same architecture and schedule). Final training losses are printed
//    (not compared: different inits and batch orders).
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "distill/LavidExperiment.h"
#include "distill/LavidWorld.h"
#include "distill/Student.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::distill;
namespace fs = std::filesystem;

namespace {

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
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
    const int epochs = quick ? 5 : 30;
    const fs::path dir = fs::temp_directory_path() / "paperlab-bench-distill";
    fs::create_directories(dir);
    pl::Rng wr(1), rr(2);
    const LavidWorld w = makeLavidWorld(20, 50, 5, wr);
    DistillData train = renderLavidImages(w, 20, 0.95, rr), test = train;
    standardise(train, test);
    const Eigen::MatrixXd S = teacherSignatures(w, 0.5, 0.1, 3, pl::Rng(3));
    Eigen::MatrixXd Xy(train.X.rows(), train.X.cols() + 1);
    Xy << train.X,
        Eigen::Map<const Eigen::VectorXi>(train.y.data(), Eigen::Index(train.y.size())).cast<double>();
    writeMatrix(dir / "train.txt", Xy);
    writeMatrix(dir / "signatures.txt", S);

    pl::Rng init(4), fit(5);
    Student st(int(train.X.cols()), 32, 16, 20, 250, init);
    StudentTraining cfg;
    cfg.epochs = epochs;
    cfg.options = 5;
    cfg.signatures = S;
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> losses = st.train(train.X, train.y, cfg, fit, [](double) {});
    const double ours = ms(t0);

    const nlohmann::json peer =
        pl::bench::runPythonPeer(PAPERLAB_DISTILL_PEER, dir.string() + " " + std::to_string(epochs));
    const auto get = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    const std::string size = "400 x 768 rows x " + std::to_string(epochs) + " epochs";
    std::printf("%-28s %-30s %10s %10s %7s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    const double p = get("numpy_train_ms");
    std::printf("%-28s %-30s %10.1f %10.1f %7.2f  final loss ours %.4f, numpy %.4f\n",
                "lavid student vs numpy", size.c_str(), ours, p, p / ours, losses.back(),
                get("numpy_final_loss"));
    if (!jsonOut.empty()) {
        nlohmann::json cases = nlohmann::json::array();
        cases.push_back({{"engine", "distill lavid student vs numpy"},
                         {"size", size},
                         {"ours_ms", ours},
                         {"peer_ms", p},
                         {"ratio", p / ours}});
        std::ofstream(jsonOut) << nlohmann::json{{"cases", cases}}.dump(2);
    }
    return 0;
}
