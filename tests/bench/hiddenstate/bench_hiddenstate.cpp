// bench_hiddenstate: time of our hidden-state engines against the numpy peer (peer.py) on identical
// data written to .npy.
//  inslen: AUROC of InsLen for all 32 x 32 (image layer, text layer) pairs over 300 captions
//    (P = 16 patches, I = 8 instruction tokens, A = 12 answer tokens, 3 objects, d = 64,
//    V = 1 000); the peer caches the lens per caption and layer like we do; matrices compared.
//  sae: pre-activations, TopK(10) codes, Markov fit on 1 000 in-domain texts and the scores of all
//    3 000 texts (6 layers, d = 64, m = 512); scores compared.
// Ratio = peer_ms / ours_ms (> 1: we are faster). Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "hiddenstate/InsLenScore.h"
#include "hiddenstate/SaeMarkov.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace pl::hiddenstate;
namespace fs = std::filesystem;

namespace {

void save(const fs::path& p, const std::vector<int64_t>& shape, const std::vector<double>& v) {
    std::ofstream(p, std::ios::binary) << pl::writeNpy(shape, v);
}

double ms(std::chrono::steady_clock::time_point a) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

nlohmann::json benchInsLen(const fs::path& dir, bool quick) {
    const int C = quick ? 60 : 300, L = quick ? 8 : 32, P = 16, I = 8, A = 12, n = 3, d = 64, V = 1000;
    pl::Rng rng(21);
    Eigen::MatrixXd W(V, d);
    for (Eigen::Index i = 0; i < W.size(); ++i)
        W.data()[i] = rng.normal();
    std::vector<InsLenCaption> caps(static_cast<size_t>(C));
    std::vector<double> img, ins, ans, ids, objs, labs, head;
    for (int i = 0; i < V; ++i)
        for (int j = 0; j < d; ++j)
            head.push_back(W(i, j));
    for (InsLenCaption& c : caps) {
        for (int l = 0; l < L; ++l) {
            c.image.emplace_back(P, d);
            c.instr.emplace_back(I, d);
            c.answer.emplace_back(A, d);
        }
        auto fill = [&](std::vector<Eigen::MatrixXd>& blk, std::vector<double>& flat) {
            for (auto& m : blk)
                for (Eigen::Index r = 0; r < m.rows(); ++r)
                    for (Eigen::Index j = 0; j < m.cols(); ++j)
                        flat.push_back(m(r, j) = rng.normal());
        };
        fill(c.image, img);
        fill(c.instr, ins);
        fill(c.answer, ans);
        for (int a = 0; a < A; ++a)
            ids.push_back(c.answerIds.emplace_back(int(rng.uniformInt(V))));
        for (int o = 0; o < n; ++o) {
            objs.push_back(c.objects.emplace_back(c.answerIds[size_t(1 + o * 3)]));
            labs.push_back(c.labels.emplace_back(int(rng.uniformInt(2))));
        }
    }
    save(dir / "ins_image.npy", {C, L, P, d}, img);
    save(dir / "ins_instr.npy", {C, L, I, d}, ins);
    save(dir / "ins_answer.npy", {C, L, A, d}, ans);
    save(dir / "ins_ids.npy", {C, A}, ids);
    save(dir / "ins_objects.npy", {C, n}, objs);
    save(dir / "ins_labels.npy", {C, n}, labs);
    save(dir / "ins_head.npy", {V, d}, head);
    std::vector<const InsLenCaption*> ptr;
    for (const auto& c : caps)
        ptr.push_back(&c);
    InsLenSettings s;
    s.instructionLayer = L / 2;
    const auto t0 = std::chrono::steady_clock::now();
    const InsLenScorer scorer(ptr, W, s, true);
    const Eigen::MatrixXd auc = scorer.aurocLayers();
    const double ours = ms(t0);
    const nlohmann::json peer = pl::bench::runPythonPeer(
        PAPERLAB_HIDDENSTATE_PEER, "inslen " + dir.string() + " " + std::to_string(L / 2));
    double diff = peer.is_null() ? NAN : 0;
    if (!peer.is_null())
        for (int i = 0; i < L * L; ++i)
            diff = std::max(diff, std::abs(peer["auroc"][size_t(i)].get<double>() - auc(i / L, i % L)));
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    const std::string size = std::to_string(C) + " captions, " + std::to_string(L) + "^2 layer pairs";
    std::printf("%-8s %-34s %10.1f %10.1f %7.2f %10.2g\n", "inslen", size.c_str(), ours, peerMs,
                peerMs / ours, diff);
    return {{"engine", "inslen-hallucination layer sweep"},
            {"size", size},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours},
            {"max_abs_diff_auroc", diff}};
}

nlohmann::json benchSae(const fs::path& dir, bool quick) {
    const int L = 6, N = quick ? 1000 : 3000, d = 64, m = 512, k = 10, train = N / 3;
    pl::Rng rng(22);
    std::vector<Eigen::MatrixXd> acts(static_cast<size_t>(L), Eigen::MatrixXd(N, d));
    std::vector<SaeLayer> sae(static_cast<size_t>(L));
    std::vector<double> fa, fw, fbe, fbd;
    for (int l = 0; l < L; ++l) {
        for (int x = 0; x < N; ++x)
            for (int j = 0; j < d; ++j)
                fa.push_back(acts[size_t(l)](x, j) = rng.normal() + (x < train ? 0.3 : 0.0));
        SaeLayer& s = sae[size_t(l)];
        s.encoder.resize(d, m);
        s.encoderBias.resize(m);
        s.decoderBias.resize(d);
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < m; ++j)
                fw.push_back(s.encoder(i, j) = rng.normal() / 8);
        for (int j = 0; j < m; ++j)
            fbe.push_back(s.encoderBias(j) = 0.1 * rng.normal());
        for (int i = 0; i < d; ++i)
            fbd.push_back(s.decoderBias(i) = 0.1 * rng.normal());
    }
    save(dir / "sae_acts.npy", {L, N, d}, fa);
    save(dir / "sae_wenc.npy", {L, d, m}, fw);
    save(dir / "sae_benc.npy", {L, m}, fbe);
    save(dir / "sae_bdec.npy", {L, d}, fbd);
    std::vector<int> rows(static_cast<size_t>(train));
    for (int i = 0; i < train; ++i)
        rows[size_t(i)] = i;
    const auto t0 = std::chrono::steady_clock::now();
    LayerCodes codes;
    for (int l = 0; l < L; ++l)
        codes.push_back(topKCodes(saePreActivations(sae[size_t(l)], acts[size_t(l)]), k));
    MarkovTransitions mk;
    mk.fit(codes, rows, m, 0.1);
    std::vector<double> score;
    for (int x = 0; x < N; ++x)
        score.push_back(mk.score(codes, x));
    const double ours = ms(t0);
    const nlohmann::json peer =
        pl::bench::runPythonPeer(PAPERLAB_HIDDENSTATE_PEER, "sae " + dir.string() + " " + std::to_string(k) +
                                                                " " + std::to_string(train));
    double diff = peer.is_null() ? NAN : 0;
    if (!peer.is_null())
        for (int x = 0; x < N; ++x)
            diff = std::max(diff, std::abs(peer["score"][size_t(x)].get<double>() - score[size_t(x)]));
    const double peerMs = peer.is_null() ? NAN : peer["ms"].get<double>();
    const std::string size = std::to_string(L) + " layers, " + std::to_string(N) + " texts, m 512, k 10";
    std::printf("%-8s %-34s %10.1f %10.1f %7.2f %10.2g\n", "sae", size.c_str(), ours, peerMs, peerMs / ours,
                diff);
    return {{"engine", "sae-domain-ood coding + fit + scoring"},
            {"size", size},
            {"ours_ms", ours},
            {"peer_ms", peerMs},
            {"ratio", peerMs / ours},
            {"max_abs_diff_score", diff}};
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_hiddenstate.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const fs::path dir = fs::temp_directory_path() / "bench_hiddenstate";
    fs::create_directories(dir);
    std::printf("%-8s %-34s %10s %10s %7s %10s\n", "engine", "case", "ours_ms", "peer_ms", "ratio", "|diff|");
    nlohmann::json out;
    out["cases"] = nlohmann::json::array({benchInsLen(dir, quick), benchSae(dir, quick)});
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return 0;
}
