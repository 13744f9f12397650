// bench_curve: training-step time of the curve-scene-graph relation predictor on the paperlab_nn
// tape (forward + backward + Adam, baseline cross-entropy loss, deterministic edges) against
// peer.py, the same model in numpy with a hand-written backward (np.add.at for the edge
// scatters), on the same packed batch and the same initial parameters written to .npy.
// Both sides run `steps` Adam steps; the losses of the first and last step are compared
// (they must agree to ~1e-9, which checks that the peer is the same model).
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
// Prints a table and writes JSON (--json FILE, default bench_curve.json).
#include "bench/common/BenchPeer.h"
#include "curve/CurveStudy.h"

#include "core/NpyReader.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::curve;

namespace {

void save(const std::filesystem::path& dir, const std::string& name, const Eigen::MatrixXd& m) {
    std::vector<double> data;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            data.push_back(m(r, c));
    std::ofstream(dir / (name + ".npy"), std::ios::binary) << pl::writeNpy({m.rows(), m.cols()}, data);
}

void saveIdx(const std::filesystem::path& dir, const std::string& name, const std::vector<int>& v) {
    std::ofstream(dir / (name + ".npy"), std::ios::binary)
        << pl::writeNpy({int64_t(v.size())}, std::vector<double>(v.begin(), v.end()));
}

nlohmann::json runPeer(const std::string& args) {
    return pl::bench::runPythonPeer(PAPERLAB_CURVE_PEER, args);
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_curve.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const auto dir = std::filesystem::temp_directory_path() / "bench_curve";
    std::filesystem::create_directories(dir);
    struct Case {
        int scenes, hidden;
    };
    const std::vector<Case> cases =
        quick ? std::vector<Case>{{32, 16}} : std::vector<Case>{{32, 16}, {256, 32}};
    const int steps = quick ? 5 : 20;
    nlohmann::json out;
    out["steps"] = steps;
    out["cases"] = nlohmann::json::array();
    std::printf("%-28s %-26s %9s %9s %7s %12s\n", "engine", "size", "ours_ms", "peer_ms", "ratio", "|dloss|");
    for (const Case& c : cases) {
        StudySettings st;
        st.trainScenes = c.scenes;
        st.testScenes = 1;
        st.targetScenes = 0;
        const SceneSet set = makeSyntheticScenes(st, pl::Rng(11));
        std::vector<const Scene*> train;
        for (const auto& s : set.scenes)
            if (s.split == Split::Train)
                train.push_back(&s);
        const GraphBatch b = buildBatch(train);
        ModelConfig mc;
        mc.hidden = c.hidden;
        RelationModel model(mc, pl::Rng(12));
        // Write the batch and the initial parameters.
        save(dir, "nodeX", b.nodeX);
        save(dir, "edgeX", b.edgeX);
        saveIdx(dir, "src", b.src);
        saveIdx(dir, "dst", b.dst);
        saveIdx(dir, "pairEdge", b.pairEdge);
        saveIdx(dir, "label", b.pairLabel);
        for (auto* p : model.parameters())
            save(dir, "p_" + p->name, p->value);
        // Ours: `steps` Adam steps, the first is warm-up of the allocator and not timed.
        pl::nn::Adam opt(0.01);
        auto params = model.parameters();
        std::vector<double> losses;
        double ms = 0;
        for (int s = 0; s <= steps; ++s) {
            const auto t0 = std::chrono::steady_clock::now();
            for (auto* p : params)
                p->zeroGrad();
            pl::nn::Tape t;
            const auto f = model.forward(t, b, nullptr, 1.0);
            const pl::nn::Var loss = pl::nn::mean(pl::nn::softmaxCrossEntropy(f.logits, b.pairLabel));
            t.backward(loss);
            opt.step(params);
            const auto t1 = std::chrono::steady_clock::now();
            if (s > 0)
                ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
            losses.push_back(loss.scalar());
        }
        ms /= steps;
        const nlohmann::json peer =
            runPeer(dir.string() + " " + std::to_string(mc.layers) + " " + std::to_string(steps));
        const double peerMs = peer.value("step_ms", -1.0);
        double dl = -1;
        if (peer.contains("losses") && peer["losses"].size() == losses.size()) {
            dl = 0;
            for (size_t i = 0; i < losses.size(); ++i)
                dl = std::max(dl, std::abs(losses[i] - peer["losses"][i].get<double>()));
        }
        const std::string size = std::to_string(c.scenes) + " scenes, " + std::to_string(b.src.size()) +
                                 " edges, h=" + std::to_string(c.hidden);
        std::printf("%-28s %-26s %9.3f %9.3f %7.2f %12.2g\n", "curve train step (tape)", size.c_str(), ms,
                    peerMs, peerMs > 0 ? peerMs / ms : 0.0, dl);
        out["cases"].push_back({{"scenes", c.scenes},
                                {"edges", b.src.size()},
                                {"pairs", b.pairEdge.size()},
                                {"hidden", c.hidden},
                                {"ours_ms", ms},
                                {"peer_ms", peerMs},
                                {"ratio", peerMs > 0 ? peerMs / ms : 0.0},
                                {"max_loss_diff", dl},
                                {"peer", peer}});
    }
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("JSON: %s\n", jsonPath.c_str());
    return 0;
}
