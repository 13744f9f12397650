// bench_robusttrain: time of the robusttrain engine against the numpy / scikit-learn peer (peer.py)
// on identical data (blobs, 10 classes, d = 20) written to a text file.
//  train: standard training of a 20-64-10 ReLU MLP, Adam lr 0.01, batch 64, E epochs over N rows
//    (ours: the nn tape; peers: numpy with hand-written backprop, sklearn MLPClassifier.partial_fit
//    once per minibatch). Final training accuracies are printed (not compared: different inits).
//  sweep: accuracy under multiplicative weight noise, 15 sigma levels x 20 draws on 1000 test rows,
//    with the weights of our trained network (the peer reads them; clean accuracies must agree).
//  fedavg: FedAvg rounds of the fedgr-noisy-labels panel (10 clients of a Dirichlet(0.5) split of
//    10-class blobs in d = 32 with injected noise, MLP 32-64-10, 2 local epochs of Adam batch-32
//    steps per round) against the same loop in numpy (peer_fedgr.py) and against sklearn
//    partial_fit on the same minibatches (per-client models, no averaging: timing only).
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "robusttrain/Datasets.h"
#include "robusttrain/DwpTraining.h"
#include "robusttrain/FedMethods.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::robusttrain;
namespace fs = std::filesystem;

namespace {

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

void writeData(const fs::path& p, const Dataset& d) {
    std::ofstream f(p);
    f.precision(17);
    for (int i = 0; i < d.rows(); ++i) {
        for (int j = 0; j < d.dim(); ++j)
            f << d.X(i, j) << ' ';
        f << d.y[size_t(i)] << '\n';
    }
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
    const int N = quick ? 1000 : 4000, epochs = quick ? 3 : 10, draws = quick ? 5 : 20;
    const fs::path dir = fs::temp_directory_path() / "paperlab-bench-robusttrain";
    fs::create_directories(dir);
    const pl::Rng root(1);
    const Dataset train = makeBlobs(10, 20, 4, N, root.fork("layout"), root.fork("train"));
    const Dataset test = makeBlobs(10, 20, 4, 1000, root.fork("layout"), root.fork("test"));
    writeData(dir / "train.txt", train);
    writeData(dir / "test.txt", test);

    pl::Rng init(2);
    Mlp net = makeMlp({20, 64, 10}, Activation::Relu, init);
    DwpTrainConfig c;
    c.epochs = epochs;
    auto t0 = std::chrono::steady_clock::now();
    trainRobust(net, train, DwpMethod::Standard, c, pl::Rng(3), {});
    const double oursTrain = ms(t0);
    const double trainAcc = accuracy(forward(net, train.X), train.y);
    for (int l = 0; l < 2; ++l) {
        writeMatrix(dir / ("W" + std::to_string(l) + ".txt"), net.W[size_t(l)].value);
        writeMatrix(dir / ("b" + std::to_string(l) + ".txt"), net.b[size_t(l)].value);
    }
    std::vector<double> sigmas;
    for (int i = 0; i <= 14; ++i)
        sigmas.push_back(0.05 * i);
    t0 = std::chrono::steady_clock::now();
    const SweepStats s = sigmaSweep(net, test, sigmas, draws, NoiseKind::Multiplicative, pl::Rng(4), {});
    const double oursSweep = ms(t0);

    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_ROBUSTTRAIN_PEER, dir.string() + " " + std::to_string(epochs) + " " + std::to_string(draws));
    const auto get = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    // Federated local training (fedgr-noisy-labels).
    const int rounds = quick ? 3 : 10;
    pl::robusttrain::FederationConfig fc;
    fc.samplesPerClient = quick ? 100 : 300;
    const Federation fed = buildFederation(GatheredInputs{}, fc, root.fork("federation"));
    {
        std::ofstream f(dir / "clients.txt");
        f.precision(17);
        for (int i = 0; i < fed.train.rows(); ++i) {
            for (int j = 0; j < fed.train.dim(); ++j)
                f << fed.train.X(i, j) << ' ';
            f << fed.train.y[size_t(i)] << ' ' << fed.client[size_t(i)] << '\n';
        }
    }
    writeData(dir / "fedtest.txt", fed.test);
    pl::Rng finit(5);
    Mlp g = makeMlp({fed.train.dim(), 64, fed.train.classes}, Activation::Relu, finit);
    LocalConfig lc;
    lc.lr = 0.005;
    const LocalTargets all{fed.train.y, std::vector<double>(fed.train.y.size(), 1.0)};
    t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r)
        g = federatedRound(g, fed, all, lc, nullptr, pl::Rng(6).fork(std::to_string(r)), {});
    const double oursFed = ms(t0);
    const double fedAcc = accuracy(forward(g, fed.test.X), fed.test.y);
    const nlohmann::json fpeer = pl::bench::runPythonPeer(PAPERLAB_ROBUSTTRAIN_PEER_FEDGR,
                                                          dir.string() + " " + std::to_string(rounds) + " 2");
    const auto fget = [&](const char* k) { return fpeer.is_null() ? NAN : fpeer[k].get<double>(); };

    struct Row {
        std::string engine, size;
        double ours, peer;
        std::string note;
    };
    const std::string trainSize = std::to_string(N) + " rows x " + std::to_string(epochs) + " epochs";
    const std::vector<Row> rows = {
        {"train vs numpy", trainSize, oursTrain, get("numpy_train_ms"),
         "train acc ours " + std::to_string(trainAcc) + ", numpy " + std::to_string(get("numpy_train_acc"))},
        {"train vs sklearn", trainSize, oursTrain, get("sklearn_train_ms"),
         "sklearn acc " + std::to_string(get("sklearn_train_acc"))},
        {"noise sweep vs numpy", "15 x " + std::to_string(draws) + " x 1000", oursSweep, get("sweep_ms"),
         "clean acc ours " + std::to_string(s.mean[0]) + ", numpy " + std::to_string(get("clean_acc"))},
        {"fedavg vs numpy",
         std::to_string(fed.train.rows()) + " rows x " + std::to_string(rounds) + " rounds", oursFed,
         fget("numpy_fedavg_ms"),
         "test acc ours " + std::to_string(fedAcc) + ", numpy " + std::to_string(fget("numpy_fedavg_acc"))},
        {"fedavg vs sklearn",
         std::to_string(fed.train.rows()) + " rows x " + std::to_string(rounds) + " rounds", oursFed,
         fget("sklearn_local_ms"), "sklearn: per-client partial_fit, no averaging"},
    };
    std::printf("%-22s %-26s %10s %10s %7s  %s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "note");
    nlohmann::json cases = nlohmann::json::array();
    for (const Row& r : rows) {
        std::printf("%-22s %-26s %10.1f %10.1f %7.2f  %s\n", r.engine.c_str(), r.size.c_str(), r.ours, r.peer,
                    r.peer / r.ours, r.note.c_str());
        cases.push_back({{"engine", "robusttrain " + r.engine},
                         {"size", r.size},
                         {"ours_ms", r.ours},
                         {"peer_ms", r.peer},
                         {"ratio", r.peer / r.ours}});
    }
    if (!jsonOut.empty())
        std::ofstream(jsonOut) << nlohmann::json{{"cases", cases}}.dump(2);
    return 0;
}
