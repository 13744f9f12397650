#include "gridworld/OlafWorldEngine.h"

#include "core/Errors.h"
#include "core/PathUtil.h"
#include "gridworld/FrozenEncoder.h"
#include "gridworld/OlafReadouts.h"
#include "gridworld/OlafWorldKeys.h"
#include "gridworld/SpriteWorld.h"

#include <filesystem>

namespace pl::olaf {

using namespace pl::gridworld;

std::vector<ParamSpec> OlafWorldEngine::params() const {
    using namespace keys::param;
    return {
        ParamSpec::choice(kPhi, "frozen encoder φ", {"pca", "sfa"}, "pca",
                          "pca: principal directions of all frames; sfa: linear slow features on random "
                          "Fourier features (label-free, temporal)"),
        ParamSpec::integer(kPhiDim, "φ dimension", 2, 64, 8, "features of φ"),
        ParamSpec::integer(kDz, "latent dimension d_z", 1, 8, 2, "dimension of the latent action z"),
        ParamSpec::real(kBeta, "β (KL weight)", 0, 1, 0.01, "weight of KL(q(z|o_t,o_t+1) ‖ N(0, I))"),
        ParamSpec::real(kLambdaAlign, "λ (SeqΔ-REPA weight)", 0, 10, 1,
                        "weight of 1 − cos(h(Σ z), Δφ) in the aligned model (the baseline uses 0)"),
        ParamSpec::integer(kWindow, "window k", 1, 8, 4, "transitions integrated in Z = Σ z_τ"),
        ParamSpec::integer(kIterations, "Adam steps", 100, 50000, 1000, "minibatch steps per model"),
        ParamSpec::integer(kContexts, "contexts", 2, 10, 4, "SpriteWorld visual contexts (generated data)"),
        ParamSpec::integer(kDistractors, "distractors", 0, 3, 1,
                           "randomly moving blobs per frame (generated data)"),
        ParamSpec::integer(kClipsPerContext, "clips per context", 20, 2000, 60, "generated data"),
        ParamSpec::integer(kClipLength, "clip length", 8, 32, 16, "frames per generated clip"),
        ParamSpec::integer(kFrame, "frame side", 12, 32, 16, "px, generated data"),
        ParamSpec::integer(kHidden, "hidden units", 16, 256, 64,
                           "units of the one hidden layer of encoder, decoder and projector"),
        ParamSpec::real(kLearningRate, "learning rate", 1e-4, 0.05, 2e-3, "Adam step size"),
        ParamSpec::integer(kBatch, "windows per step", 2, 64, 8, "each window holds k transitions"),
        ParamSpec::integer(kProbeLabels, "probe labels", 5, 500, 50,
                           "labelled transitions of context A for the probe and of the new context for "
                           "the action adapter"),
        ParamSpec::integer(kSfaFeatures, "SFA Fourier features", 32, 512, 128,
                           "random Fourier features under the slow features (φ = sfa)")};
}

std::shared_ptr<const LoadedInput> OlafWorldEngine::load(const std::string& path) const {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        auto in = std::make_shared<ClipInput>();
        in->clips = readClipFolder(path);
        in->path = path;
        in->kind = "png clips";
        in->summary = std::to_string(in->clips.clips.size()) + " clip(s) of " +
                      std::to_string(in->clips.height) + " x " + std::to_string(in->clips.width) +
                      " PNG frames";
        return in;
    }
    const std::string ext = lowerExtension(path);
    if (ext == "npy") {
        auto in = std::make_shared<ClipInput>();
        in->clips = readClipNpy(path);
        in->path = path;
        in->kind = "npy clips";
        in->summary = std::to_string(in->clips.clips.size()) + " clip(s) of " +
                      std::to_string(in->clips.clips.front().rows()) + " frames, " +
                      std::to_string(in->clips.height) + " x " + std::to_string(in->clips.width);
        return in;
    }
    if (ext == "csv") {
        auto in = std::make_shared<LabelInput>();
        in->labels = readLabelFile(path);
        in->path = path;
        in->kind = in->labels.actions ? "actions" : "contexts";
        in->summary =
            std::to_string(in->labels.rows.size()) + (in->labels.actions ? " action rows" : " clip contexts");
        return in;
    }
    throw InputError(path,
                     "olaf-world reads clips (.npy or a folder of PNG frames) and contexts/actions (.csv)");
}

namespace {

/// Step 1: the clips (the user's, or SpriteWorld's).
ClipSet loadClips(const InputList& inputs, const ParamSet& p, const Rng& rng,
                  std::vector<std::string>& notes) {
    using namespace keys::param;
    std::vector<const ClipFile*> files;
    std::vector<const LabelFile*> labels;
    for (const auto& in : inputs) {
        if (const auto* c = dynamic_cast<const ClipInput*>(in.get()))
            files.push_back(&c->clips);
        else if (const auto* l = dynamic_cast<const LabelInput*>(in.get()))
            labels.push_back(&l->labels);
        else
            throw InputError(in->path, "not an input loaded by olaf-world");
    }
    if (files.empty()) {
        if (!labels.empty())
            throw UsageError(
                "olaf-world: contexts.csv or actions.csv given without clips (.npy or PNG folder)");
        SpriteWorldOptions o;
        o.contexts = int(p.getInt(kContexts));
        o.clipsPerContext = int(p.getInt(kClipsPerContext));
        o.clipLength = int(p.getInt(kClipLength));
        o.frame = int(p.getInt(kFrame));
        o.distractors = int(p.getInt(kDistractors));
        if (o.clipLength < p.getInt(kWindow) + 1)
            throw UsageError("olaf-world: clip_length must be at least window + 1");
        return generateSpriteWorld(o, rng.fork("spriteworld"));
    }
    notes.push_back(
        "user clips: the SpriteWorld parameters (contexts, distractors, clips per context, clip length, "
        "frame) are not used");
    return assembleClips(files, labels, int(p.getInt(kWindow)), notes);
}

/// Step 2: the frozen feature map φ.
FrozenEncoder fitPhi(const ClipSet& clips, const ParamSet& p, const Rng& rng) {
    using namespace keys::param;
    const int dim = std::min<int>(int(p.getInt(kPhiDim)), clips.pixels());
    if (p.getString(kPhi) == "sfa")
        return FrozenEncoder::sfa(clips, dim, int(p.getInt(kSfaFeatures)), rng.fork("phi"));
    return FrozenEncoder::pca(clips.frames, dim);
}

} // namespace

ResultDocument OlafWorldEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    using namespace keys::param;
    const Rng rng(ctx.seed());
    ResultDocument d;
    ctx.progress(0.0, "clips");
    const ClipSet clips = loadClips(inputs, p, rng, d.notes);
    ctx.throwIfCancelled();
    ctx.progress(0.03, "frozen encoder φ");
    const FrozenEncoder phi = fitPhi(clips, p, rng);
    const Eigen::MatrixXd phiFrames = phi.encode(clips.frames);
    ctx.throwIfCancelled();

    LamOptions lam;
    lam.dz = int(p.getInt(kDz));
    lam.hidden = int(p.getInt(kHidden));
    lam.window = int(p.getInt(kWindow));
    lam.iterations = int(p.getInt(kIterations));
    lam.batch = int(p.getInt(kBatch));
    lam.beta = p.getDouble(kBeta);
    lam.learningRate = p.getDouble(kLearningRate);
    const double mean = clips.frames.mean();
    const double scale = std::sqrt((clips.frames.array() - mean).square().mean());
    // same initial weights, same minibatches and noise: the models differ only in λ
    TrainedPair models;
    for (int m = 0; m < 2; ++m) {
        LamOptions o = lam;
        o.lambda = m == 0 ? 0.0 : p.getDouble(kLambdaAlign);
        Rng init = rng.fork("lam init"), train = rng.fork("lam train");
        auto& slot = m == 0 ? models.baseline : models.aligned;
        slot = std::make_unique<LatentActionModel>(clips.pixels(), phi.dim(), mean, scale, o, init);
        (m == 0 ? models.baselineCurves : models.alignedCurves) =
            slot->train(clips, phiFrames, train, ctx, 0.05 + 0.45 * m, 0.5 + 0.45 * m);
    }
    ctx.progress(0.95, "read-outs");
    writeReadouts(clips, phi, phiFrames, models, int(p.getInt(kProbeLabels)), rng.fork("readouts"), d);
    ctx.progress(1.0, "done");
    return d;
}

} // namespace pl::olaf
