// bench_specexit: the specexit-decoding built-in models (the mlp_lm target trained on the reasoning
// traces and its feature-level draft, both built by the engine's own builtinSpecSetup() with the
// panel defaults) decoding the engine's test problems greedily with decodeWithExit (temperature 0,
// gamma from the defaults (4), exit off, exactly gen_len tokens per prompt): autoregressive (AR)
// and speculative decoding (SD), in tokens per second, against peer_specexit.py's numpy decode
// loops (AR; SD: gamma drafts on the draft's fed-forward feature, one verification of gamma + 1
// rows, accept iff argmax agrees, bonus token) on the same models read from .safetensors. The
// numpy tokens must equal ours. Then draft training (trainDraft, the engine's examples, epochs and
// width) against the same loss and Adam written in numpy (initialisation and shuffles differ, so
// the final losses are compared, not the weights). Single thread on both sides.
// Run: bench_specexit [--quick] [--json FILE]
#include "bench/common/BenchPeer.h"
#include "core/RunContext.h"
#include "tinylm/ReasoningTraces.h"
#include "tinylm/SafeTensors.h"
#include "tinylm/SpecExitEngine.h"
#include "tinylm/SpecExitKeys.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace pl;
using namespace pl::tinylm;
namespace K = specexit::keys::param;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

Tensor tensorOf(const Mat& m) {
    Tensor t;
    t.dtype = "F64";
    t.shape = {m.rows(), m.cols()};
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            t.data.push_back(m(r, c));
    return t;
}

Tensor tensorOf(const std::vector<double>& v) {
    Tensor t;
    t.dtype = "F64";
    t.shape = {int64_t(v.size())};
    t.data = v;
    return t;
}

Tensor tensorOf(const RowVec& v) {
    return tensorOf(std::vector<double>(v.data(), v.data() + v.size()));
}

/// The draft in the file form peer_specexit.py reads (tensor names = DraftModel members).
SafeTensorsFile draftFile(const DraftModel& d) {
    SafeTensorsFile f;
    f.metadata = {{"arch", "specexit_draft"}, {"rem_scale", std::to_string(d.remScale)}};
    const std::pair<const char*, const Mat*> mats[] = {{"wg", &d.wg}, {"wt", &d.wt}, {"wc", &d.wc},
                                                       {"wp", &d.wp}, {"wr", &d.wr}, {"wf", &d.wf}};
    for (const auto& [name, m] : mats)
        f.tensors[name] = tensorOf(*m);
    const std::pair<const char*, const RowVec*> vecs[] = {{"bg", &d.bg}, {"bt", &d.bt}, {"bc", &d.bc},
                                                          {"bp", &d.bp}, {"br", &d.br}, {"bf", &d.bf}};
    for (const auto& [name, v] : vecs)
        f.tensors[name] = tensorOf(*v);
    return f;
}

/// The draft's training examples and its training configuration for the numpy trainer.
SafeTensorsFile examplesFile(const std::vector<DraftExample>& ex, const DraftTrainConfig& c,
                             double remScale) {
    const auto n = Eigen::Index(ex.size()), h = ex.empty() ? 0 : ex.front().feature.size();
    Mat feat(n, h), next(n, h);
    std::vector<double> tok, nxt, conf, prog, rem;
    for (Eigen::Index i = 0; i < n; ++i) {
        const DraftExample& e = ex[size_t(i)];
        feat.row(i) = e.feature;
        next.row(i) = e.nextFeature;
        tok.push_back(e.token);
        nxt.push_back(e.next);
        conf.push_back(e.conf);
        prog.push_back(e.prog);
        rem.push_back(e.rem);
    }
    SafeTensorsFile f;
    f.tensors = {{"feature", tensorOf(feat)}, {"next_feature", tensorOf(next)}, {"token", tensorOf(tok)},
                 {"next", tensorOf(nxt)},     {"conf", tensorOf(conf)},         {"prog", tensorOf(prog)},
                 {"rem", tensorOf(rem)}};
    auto s = [](double x) { return std::to_string(x); };
    f.metadata = {{"hidden", std::to_string(c.hidden)},
                  {"epochs", std::to_string(c.epochs)},
                  {"batch", std::to_string(c.batch)},
                  {"lr", s(c.lr)},
                  {"w_conf", s(c.wConf)},
                  {"w_prog", s(c.wProg)},
                  {"w_rem", s(c.wRem)},
                  {"w_feature", s(c.wFeature)},
                  {"rem_scale", s(remScale)}};
    return f;
}

void writeFile(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

bool sameTokens(const nlohmann::json& peer, const char* key, const std::vector<int>& ours) {
    if (peer.is_null() || !peer.contains(key) || peer[key].size() != ours.size())
        return false;
    for (size_t i = 0; i < ours.size(); ++i)
        if (peer[key][i].get<int>() != ours[i])
            return false;
    return true;
}

nlohmann::json row(const std::string& engine, const std::string& size, const std::string& unit, double ours,
                   double peer, double ratio, const std::string& note) {
    return {{"engine", engine}, {"size", size},   {"unit", unit}, {"ours", ours},
            {"peer", peer},     {"ratio", ratio}, {"note", note}};
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonPath = "bench_specexit.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonPath = argv[++i];
    }
    const fs::path dir = fs::temp_directory_path() / "bench_specexit";
    fs::create_directories(dir);
    const SpecExitEngine engine;
    ParamSet p(engine.params());
    if (quick) {
        p.setText(K::kTraces, "300");
        p.setText(K::kEpochs, "2");
        p.setText(K::kDraftEpochs, "1");
        p.setText(K::kProblems, "8");
    }
    RunContext ctx(1);
    std::vector<DraftExample> examples;
    auto t0 = Clock::now();
    const SpecSetup u = builtinSpecSetup(p, ctx, &examples);
    const double setupMs = msSince(t0);
    writeFile(dir / "target.safetensors", writeSafeTensors(toSafeTensors(u.target)));
    writeFile(dir / "draft.safetensors", writeSafeTensors(draftFile(u.draft)));
    {
        std::ofstream f(dir / "prompts.txt");
        for (const SpecProblem& pr : u.problems) {
            for (size_t i = 0; i < pr.prompt.size(); ++i)
                f << (i ? " " : "") << pr.prompt[i];
            f << "\n";
        }
    }
    ExitConfig c; // as the engine's greedy check: temperature 0, exit off, exactly gen_len tokens
    c.gamma = int(p.getInt(K::kGamma));
    c.temperature = 0;
    c.maxLen = int(p.getInt(K::kGenLen));
    c.stopAtEos = c.forceAtCap = false;
    c.boundary = traces::kSemi;
    c.answer = traces::kA;
    c.eos = traces::kEos;
    const int reps = quick ? 1 : 5;
    std::vector<int> arTokens, sdTokens;
    double arMs = 1e300, sdMs = 1e300;
    int accepted = 0, verifications = 0;
    for (int r = 0; r < reps; ++r) { // best of reps, both sides
        Rng rng(7);
        std::vector<int> ar, sd;
        t0 = Clock::now();
        for (const SpecProblem& pr : u.problems) {
            const DecodeRun run = decodeWithExit(u.target, &u.draft, pr.prompt, ExitMethod::Ar, c, rng);
            ar.insert(ar.end(), run.tokens.begin(), run.tokens.end());
        }
        arMs = std::min(arMs, msSince(t0));
        accepted = verifications = 0;
        t0 = Clock::now();
        for (const SpecProblem& pr : u.problems) {
            const DecodeRun run = decodeWithExit(u.target, &u.draft, pr.prompt, ExitMethod::Sd, c, rng);
            sd.insert(sd.end(), run.tokens.begin(), run.tokens.end());
            for (int a : run.acceptLens)
                accepted += a;
            verifications += int(run.acceptLens.size());
        }
        sdMs = std::min(sdMs, msSince(t0));
        arTokens = std::move(ar);
        sdTokens = std::move(sd);
    }
    DraftTrainConfig dc;
    dc.hidden = int(p.getInt(K::kDraftHidden));
    dc.epochs = int(p.getInt(K::kDraftEpochs));
    writeFile(dir / "examples.safetensors", writeSafeTensors(examplesFile(examples, dc, u.draft.remScale)));
    std::vector<double> trainLoss;
    t0 = Clock::now();
    (void)trainDraft(u.target, examples, dc, Rng(3), &trainLoss);
    const double trainMs = msSince(t0);

    const nlohmann::json peer = bench::runPythonPeer(
        PAPERLAB_SPECEXIT_PEER, dir.string() + " " + std::to_string(c.maxLen) + " " +
                                    std::to_string(c.gamma) + " " + std::to_string(reps));
    const bool arSame = sameTokens(peer, "ar_tokens", arTokens);
    const bool sdSame = sameTokens(peer, "sd_tokens", sdTokens);
    const bool sdEqAr = sdTokens == arTokens;
    const double total = double(arTokens.size());
    auto peerNum = [&](const char* k) { return peer.is_null() ? NAN : peer[k].get<double>(); };
    const double arTps = total / (arMs / 1000), sdTps = total / (sdMs / 1000);
    const double peerArTps = total / (peerNum("ar_ms") / 1000), peerSdTps = total / (peerNum("sd_ms") / 1000);
    const double peerTrainMs = peerNum("train_ms"), peerLoss = peerNum("train_loss");
    const double ourLoss = trainLoss.empty() ? NAN : trainLoss.back();
    const std::string size = std::to_string(u.problems.size()) + " prompts x " + std::to_string(c.maxLen) +
                             " tokens, gamma " + std::to_string(c.gamma);
    const std::string tsize = std::to_string(examples.size()) + " examples x " + std::to_string(dc.epochs) +
                              " epochs, hidden " + std::to_string(dc.hidden);
    char lossNote[160];
    std::snprintf(lossNote, sizeof lossNote, "final epoch loss ours %.4f, numpy %.4f", ourLoss, peerLoss);
    const std::string accNote =
        "tokens/verification " + std::to_string(verifications ? total / verifications : 0.0).substr(0, 4) +
        ", mean accepted " +
        std::to_string(verifications ? double(accepted) / verifications : 0.0).substr(0, 4);
    nlohmann::json rows = nlohmann::json::array(
        {row("specexit-ar", size, "tokens/s", arTps, peerArTps, arTps / peerArTps,
             arSame ? "tokens identical to numpy" : "TOKENS DIFFER FROM NUMPY"),
         row("specexit-sd", size, "tokens/s", sdTps, peerSdTps, sdTps / peerSdTps,
             std::string(sdSame ? "tokens identical to numpy" : "TOKENS DIFFER FROM NUMPY") +
                 (sdEqAr ? ", SD == AR" : ", SD != AR") + "; " + accNote),
         row("specexit-sd-vs-np-ar", size, "tokens/s", sdTps, peerArTps, sdTps / peerArTps,
             "our SD against numpy's AR loop"),
         row("specexit-draft-train", tsize, "ms", trainMs, peerTrainMs, peerTrainMs / trainMs,
             std::string("ratio = numpy ms / ours ms; ") + lossNote)});
    std::printf("%-22s %-40s %12s %12s %8s %s\n", "engine", "case", "ours", "numpy", "ratio", "note");
    for (const auto& r : rows)
        std::printf("%-22s %-40s %12.1f %12.1f %8.2f %s [%s]\n", r["engine"].get<std::string>().c_str(),
                    r["size"].get<std::string>().c_str(), r["ours"].get<double>(), r["peer"].get<double>(),
                    r["ratio"].get<double>(), r["note"].get<std::string>().c_str(),
                    r["unit"].get<std::string>().c_str());
    std::printf("setup (target + draft training, engine defaults%s): %.0f ms; numpy %s, BLAS %s\n",
                quick ? ", quick sizes" : "", setupMs,
                peer.is_null() ? "?" : peer["numpy"].get<std::string>().c_str(),
                peer.is_null() ? "?" : peer["blas"].get<std::string>().c_str());
    nlohmann::json out;
    out["rows"] = rows;
    out["same"] = arSame && sdSame;
    out["sd_equals_ar"] = sdEqAr;
    std::ofstream(jsonPath) << out.dump(2) << "\n";
    std::printf("same: %s\n", arSame && sdSame ? "true" : "false");
    return arSame && sdSame && sdEqAr ? 0 : 1;
}
