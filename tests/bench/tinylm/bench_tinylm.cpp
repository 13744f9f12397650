// bench_tinylm: tokens per second of greedy decoding with the fafo-decoding built-in model (V 128,
// d 144, 2 layers) on copy prompts: our autoregressive loop and FAFO (Quest, budget 128, W 5,
// N 4, G 8) against peer.py's numpy autoregressive loop (decode loops timed without the prefill,
// which is reported on its own row) with a KV cache over the same model
// (written as .safetensors) and prompts. The numpy tokens must equal ours (same math).
// Ratio = ours tokens/s / numpy tokens/s. Single thread on both sides.
#include "bench/common/BenchPeer.h"
#include "core/Rng.h"
#include "tinylm/Decoding.h"
#include "tinylm/InductionModel.h"
#include "tinylm/SafeTensors.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace pl::tinylm;

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_tinylm.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const fs::path dir = fs::temp_directory_path() / "bench_tinylm";
    fs::create_directories(dir);
    const TransformerModel m = makeInductionModel({});
    std::ofstream(dir / "model.safetensors", std::ios::binary) << writeSafeTensors(toSafeTensors(m));
    const int nPrompts = quick ? 2 : 6, gen = quick ? 64 : 192;
    const auto prompts = makeCopyPrompts(nPrompts, m.vocab(), 100, 600, 0.5, pl::Rng(42));
    {
        std::ofstream f(dir / "prompts.txt");
        for (const auto& p : prompts) {
            for (size_t i = 0; i < p.tokens.size(); ++i)
                f << (i ? " " : "") << p.tokens[i];
            f << "\n";
        }
    }
    using clock = std::chrono::steady_clock;
    std::vector<int> arTokens;
    double arMs = 0, fafoMs = 0, prefillMs = 0;
    int fafoForwards = 0;
    bool fafoSame = true;
    for (const auto& p : prompts) {
        auto t0 = clock::now();
        const Prefill pf = prefillPrompt(m, p.tokens, int(p.tokens.size()) + gen + 16);
        prefillMs += std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        t0 = clock::now();
        const DecodeStats ar = decodeGreedy(m, pf, {gen, 0.05, nullptr});
        arMs += std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        arTokens.insert(arTokens.end(), ar.tokens.begin(), ar.tokens.end());
        const Prefill& pf2 = pf;
        t0 = clock::now();
        QuestView q(128, 16);
        LookaheadConfig la;
        la.view = &q;
        la.budget = 128;
        const DecodeStats f = decodeLookahead(m, pf2, p.tokens, {gen, 0.05, nullptr}, la);
        fafoMs += std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        fafoForwards += f.forwards;
        fafoSame = fafoSame && f.tokens == ar.tokens;
    }
    const nlohmann::json peer =
        pl::bench::runPythonPeer(PAPERLAB_TINYLM_PEER, dir.string() + " " + std::to_string(gen));
    bool same = !peer.is_null();
    if (same) {
        const auto& pt = peer["tokens"];
        same = pt.size() == arTokens.size();
        for (size_t i = 0; same && i < arTokens.size(); ++i)
            same = pt[i].get<int>() == arTokens[i];
    }
    const double total = double(nPrompts) * gen;
    const double peerTps = peer.is_null() ? NAN : total / (peer["ms"].get<double>() / 1000.0);
    const double arTps = total / (arMs / 1000.0), fafoTps = total / (fafoMs / 1000.0);
    std::printf("%-10s %-34s %12s %12s %8s %s\n", "engine", "case", "ours tok/s", "numpy tok/s", "ratio",
                "check");
    const std::string size = std::to_string(nPrompts) + " prompts x " + std::to_string(gen) + " tokens";
    std::printf("%-10s %-34s %12.1f %12.1f %8.2f %s\n", "tinylm-ar", size.c_str(), arTps, peerTps,
                arTps / peerTps, same ? "tokens identical" : "TOKENS DIFFER");
    std::printf("%-10s %-34s %12.1f %12.1f %8.2f %s (%.2f tokens/forward)\n", "fafo", size.c_str(), fafoTps,
                peerTps, fafoTps / peerTps, fafoSame ? "lossless" : "NOT LOSSLESS", total / fafoForwards);
    const double peerPrefill = peer.is_null() ? NAN : peer["prefill_ms"].get<double>();
    std::printf("%-10s %-34s %12.1f %12.1f %8.2f %s\n", "prefill", "ms, all prompts", prefillMs, peerPrefill,
                peerPrefill / prefillMs, "(ratio = numpy ms / ours ms)");
    nlohmann::json out;
    out["rows"] = nlohmann::json::array({{{"engine", "tinylm-ar"},
                                          {"size", size},
                                          {"unit", "tokens/s"},
                                          {"ours", arTps},
                                          {"peer", peerTps},
                                          {"ratio", arTps / peerTps}},
                                         {{"engine", "fafo"},
                                          {"size", size},
                                          {"unit", "tokens/s"},
                                          {"ours", fafoTps},
                                          {"peer", peerTps},
                                          {"ratio", fafoTps / peerTps}},
                                         {{"engine", "tinylm-prefill"},
                                          {"size", size},
                                          {"unit", "ms"},
                                          {"ours", prefillMs},
                                          {"peer", peerPrefill},
                                          {"ratio", peerPrefill / prefillMs}}});
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    return same && fafoSame ? 0 : 1;
}
