#include "InsLenEngine.h"

#include "InsLenKeys.h"
#include "core/Detection.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Numeric.h"
#include "core/PathUtil.h"
#include "core/ResultBuilders.h"
#include "hiddenstate/InsLenScore.h"
#include "hiddenstate/InsLenToy.h"
#include "hiddenstate/ScoreDensity.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace pl::hiddenstate {

namespace P = inslen::keys::param;
namespace K = inslen::keys;

namespace {

InsLenSettings settingsFrom(const ParamSet& p) {
    InsLenSettings s;
    s.imageLayer = int(p.getInt(P::kImageLayer));
    s.textLayer = int(p.getInt(P::kTextLayer));
    s.instructionLayer = int(p.getInt(P::kInstructionLayer));
    s.k = int(p.getInt(P::kK));
    s.contextNum = int(p.getInt(P::kContextNum));
    s.bias = p.getDouble(P::kBias);
    s.scale = p.getDouble(P::kScale);
    s.weight = p.getDouble(P::kWeight);
    s.glsimW = p.getDouble(P::kGlsimW);
    return s;
}

/// The file-mode inputs: exactly one head, at least one caption, consistent L, d and ids.
void gatherFiles(const InputList& inputs, Eigen::MatrixXd& head, std::vector<const InsLenCaption*>& caps) {
    const LmHeadInput* h = nullptr;
    for (const auto& in : inputs)
        if (const auto* x = dynamic_cast<const LmHeadInput*>(in.get())) {
            if (h)
                throw InputError(in->path, "a second LM head (.npy); give exactly one");
            h = x;
        }
    if (!h)
        throw InputError(inputs.empty() ? std::string("(no input)") : inputs[0]->path,
                         "mode = file needs one .npy LM head [V, d] and caption .npz files");
    head = h->head;
    int L = 0;
    for (const auto& in : inputs)
        if (const auto* c = dynamic_cast<const CaptionsInput*>(in.get()))
            for (const InsLenCaption& cap : c->captions) {
                checkCaptionAgainst(cap, head.rows(), L, int(head.cols()));
                L = cap.layers();
                caps.push_back(&cap);
            }
    if (caps.empty())
        throw InputError(h->path, "no caption .npz among the inputs");
}

void packScores(const InsLenScores& r, bool haveSvar, ResultDocument& doc) {
    auto& v = doc.vectors;
    v[K::vector::kInslen] = r.inslen;
    v[K::vector::kCalibratedLocal] = r.calibratedLocal;
    v[K::vector::kContextConsistency] = r.contextConsistency;
    v[K::vector::kMeanProb] = r.meanProb;
    v[K::vector::kGlsim] = r.glsim;
    v[K::vector::kLabel] = r.label;
    v[K::vector::kCaption].assign(r.caption.begin(), r.caption.end());
    if (haveSvar)
        v[K::vector::kSvar] = r.svar;
    std::vector<char> pos;
    for (double y : r.label)
        pos.push_back(char(y == 1));
    const std::vector<double>* det[] = {&r.inslen,   &r.calibratedLocal, &r.contextConsistency,
                                        &r.meanProb, &r.glsim,           &r.svar};
    const char* metricKey[] = {K::metric::kAurocInslen,  K::metric::kAurocCalibratedLocal,
                               K::metric::kAurocContext, K::metric::kAurocMeanProb,
                               K::metric::kAurocGlsim,   K::metric::kAurocSvar};
    for (int i = 0; i < 6; ++i) {
        const bool present = i < 5 || haveSvar;
        doc.metrics[metricKey[i]] = present ? rankAuroc(*det[i], pos) : kNaN;
        if (!present)
            continue;
        std::vector<double> fpr, tpr;
        rocPoints(*det[i], pos, fpr, tpr);
        doc.series[K::series::kRocPrefix + std::string(K::kDetectors[i])] = seriesOf(
            fpr, tpr, "false-positive rate (hallucinated flagged as real)", "true-positive rate (real)");
        addDensities(*det[i], pos, std::string(K::kDetectors[i]), K::series::kDensityRealPrefix,
                     K::series::kDensityHallPrefix, doc);
    }
    doc.metrics[K::metric::kAuprInslen] = averagePrecision(r.inslen, pos);
    doc.metrics[K::metric::kFpr95Inslen] = fprAtTpr(r.inslen, pos, 0.95);
    doc.metrics[K::metric::kObjectsScored] = double(r.inslen.size());
    doc.metrics[K::metric::kObjectsSkipped] = double(r.skipped);
    const double real = double(std::count(pos.begin(), pos.end(), char(1)));
    doc.metrics[K::metric::kHallucinationRate] = r.label.empty() ? kNaN : 1.0 - real / double(r.label.size());
}

void packPatchGrid(const InsLenScorer& s, const InsLenScores& r, ResultDocument& doc) {
    if (r.inslen.empty())
        return;
    const Eigen::VectorXd& p = s.patchProb(0);
    const int P = int(p.size()), side = std::max(1, int(std::ceil(std::sqrt(double(P)))));
    const int rows = (P + side - 1) / side;
    Eigen::MatrixXd g = Eigen::MatrixXd::Constant(rows, side, kNaN), top = Eigen::MatrixXd::Zero(rows, side);
    for (int i = 0; i < P; ++i)
        g(i / side, i % side) = p(i);
    for (int i : s.topPatches(0))
        top(i / side, i % side) = 1;
    doc.matrices[K::matrix::kPatchGrid] = matrixOf(g, "patch row ", "patch col ", 1);
    doc.matrices[K::matrix::kTopPatchGrid] = matrixOf(top, "patch row ", "patch col ", 1);
}

void reportClaim(ResultDocument& doc, bool toy) {
    const auto& m = doc.metrics;
    const double a = m.at(K::metric::kAurocInslen);
    const bool ok = std::isfinite(a) && std::isfinite(m.at(K::metric::kAurocGlsim)) &&
                    std::isfinite(m.at(K::metric::kAurocMeanProb));
    doc.claims.push_back(claimOf(
        K::claim::kReport,
        std::string("Report only (no ranking asserted; that needs real MLLMs): every detector's AUROC is "
                    "measured on ") +
            (toy ? "the toy's generated captions" : "the given captions") +
            " with both real and hallucinated objects present.",
        ok, a, 0.5,
        "AUROC InsLen " + formatFixed(a, 3) + ", GLSIM " + formatFixed(m.at(K::metric::kAurocGlsim), 3) +
            ", mean prob " + formatFixed(m.at(K::metric::kAurocMeanProb), 3) + ", SVAR " +
            formatFixed(m.at(K::metric::kAurocSvar), 3) + " over " +
            formatSignificant(m.at(K::metric::kObjectsScored), 6) + " objects (hallucination rate " +
            formatFixed(m.at(K::metric::kHallucinationRate), 3) + ")"));
}

} // namespace

std::vector<ParamSpec> InsLenEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::choice(P::kMode, "mode", {"toy", "file"}, "toy",
                              "file: your exported states; toy: the in-engine stand-in model (input files are always scored)"),
            "data"),
        grp(ParamSpec::integer(P::kImageLayer, "image layer", -1, 255, -1,
                               "layer of the image lens and patch states (-1 = last)"),
            "layers"),
        grp(ParamSpec::integer(P::kTextLayer, "text layer", -1, 255, -1,
                               "layer of the object token's answer state (-1 = last)"),
            "layers"),
        grp(ParamSpec::integer(P::kInstructionLayer, "instruction layer", -1, 255, -1,
                               "layer of the instruction lens and context states (-1 = last)"),
            "layers"),
        grp(ParamSpec::integer(P::kK, "top-k patches", 1, 256, 8, "patches ranked by the image lens"),
            "score"),
        grp(ParamSpec::integer(P::kContextNum, "context tokens", 1, 64, 4,
                               "instruction tokens that most predict the object"),
            "score"),
        grp(ParamSpec::real(P::kBias, "bias", 0, 10, 1,
                            "CC = (bias - weighed_diff) x mean context prob (1 LLaVA, 4 InternVL)"),
            "score"),
        grp(ParamSpec::real(P::kScale, "lens scale", 1e-3, 10, 0.1, "softmax(scale . H W^T)", {}, true),
            "score"),
        grp(ParamSpec::real(P::kWeight, "CC weight", 0, 1, 0.4, "InsLen = (1 - w) CL + w CC"), "score"),
        grp(ParamSpec::real(P::kGlsimW, "GLSIM global weight", 0, 1, 0.5, "GLSIM = w global + (1 - w) local"),
            "score"),
        grp(ParamSpec::integer(P::kObjects, "objects", 10, 200, 40, "toy: object vocabulary"), "toy"),
        grp(ParamSpec::integer(P::kPatches, "patches", 8, 64, 16, "toy: image patches per scene"), "toy"),
        grp(ParamSpec::integer(P::kDim, "width d", 16, 128, 32, "toy: model width"), "toy"),
        grp(ParamSpec::integer(P::kLayers, "layers", 1, 4, 2, "toy: transformer blocks"), "toy"),
        grp(ParamSpec::integer(P::kSteps, "training steps", 10, 5000, 300, "toy: Adam steps of 8 scenes"),
            "toy"),
        grp(ParamSpec::integer(P::kCaptions, "captions", 10, 2000, 150, "toy: generated test captions"),
            "toy"),
    };
}

std::shared_ptr<const LoadedInput> InsLenEngine::load(const std::string& path) const {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (lowerExtension(path) == "npy") {
        const NpyArray a = NpyReader::readFile(path);
        if (a.shape.size() != 2 || a.shape[0] < 1 || a.shape[1] < 1)
            throw InputError(path, "the LM head must be a 2-d array [V, d]");
        auto in = std::make_shared<LmHeadInput>();
        in->head.resize(a.shape[0], a.shape[1]);
        for (int64_t i = 0; i < a.shape[0]; ++i)
            for (int64_t j = 0; j < a.shape[1]; ++j) {
                const double v = a.data[size_t(i * a.shape[1] + j)];
                if (!std::isfinite(v))
                    throw InputError(path, "LM head: non-finite value at row " + std::to_string(i));
                in->head(i, j) = v;
            }
        in->path = path;
        in->kind = "npy";
        in->summary = "LM head, V = " + std::to_string(a.shape[0]) + ", d = " + std::to_string(a.shape[1]);
        return in;
    }
    auto in = std::make_shared<CaptionsInput>();
    std::vector<std::string> files;
    if (fs::is_directory(path, ec)) {
        for (const auto& e : fs::directory_iterator(path, ec))
            if (e.is_regular_file() && lowerExtension(e.path().string()) == "npz")
                files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw InputError(path, "folder holds no .npz caption");
    } else {
        files.push_back(path);
    }
    for (const std::string& f : files)
        in->captions.push_back(captionFromArchive(NpzReader::readFile(f)));
    for (const InsLenCaption& c : in->captions)
        checkCaptionAgainst(c, int64_t(1) << 40, in->captions[0].layers(), in->captions[0].dim());
    in->path = path;
    in->kind = "npz";
    in->summary = std::to_string(in->captions.size()) +
                  " caption(s), L = " + std::to_string(in->captions[0].layers()) +
                  ", d = " + std::to_string(in->captions[0].dim());
    return in;
}

ResultDocument InsLenEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    // Files given: they are what the user wants scored, whatever `mode` says (toy is the default).
    const bool toy = p.getString(P::kMode) == "toy" && inputs.empty();
    if (p.getString(P::kMode) == "toy" && !inputs.empty())
        doc.notes.push_back("mode = toy with input files: the files are scored (mode = file)");
    Eigen::MatrixXd head;
    std::vector<const InsLenCaption*> caps;
    ToyMultimodalRun toyRun;
    if (toy) {
        ToyMultimodalConfig c;
        c.objects = int(p.getInt(P::kObjects));
        c.patches = int(p.getInt(P::kPatches));
        c.dim = int(p.getInt(P::kDim));
        c.layers = int(p.getInt(P::kLayers));
        c.steps = int(p.getInt(P::kSteps));
        c.captions = int(p.getInt(P::kCaptions));
        toyRun = runToyMultimodal(c, Rng(ctx.seed()), [&](double f) {
            ctx.throwIfCancelled();
            ctx.progress(0.8 * f, "toy model");
        });
        head = toyRun.lmHead;
        for (const InsLenCaption& cap : toyRun.captions)
            caps.push_back(&cap);
        Series s = emptySeries("training step", "next-token cross-entropy (mean of 10 steps)");
        for (size_t i = 0; i < toyRun.loss.size(); ++i)
            addPoint(s, double(10 * (i + 1)), toyRun.loss[i]);
        doc.series[K::series::kTrainLoss] = s;
        doc.notes.push_back("stand-in: a tiny multimodal transformer on synthetic scenes, not an MLLM");
    } else {
        gatherFiles(inputs, head, caps);
    }
    ctx.throwIfCancelled();
    const InsLenScorer scorer(caps, head, settingsFrom(p), true);
    ctx.progress(0.9, "scoring");
    const InsLenScores r = scorer.score();
    const bool haveSvar = !r.svar.empty() && std::all_of(r.svar.begin(), r.svar.end(),
                                                         [](double v) { return std::isfinite(v); });
    packScores(r, haveSvar, doc);
    ctx.throwIfCancelled();
    const Eigen::MatrixXd layers = scorer.aurocLayers();
    doc.matrices[K::matrix::kAurocLayers] = matrixOf(layers, "image layer ", "text layer ", 0);
    packPatchGrid(scorer, r, doc);
    reportClaim(doc, toy);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::hiddenstate
