#include "NegLabelOodEngine.h"

#include "NegLabelData.h"
#include "NegLabelOodKeys.h"
#include "NegLabelRun.h"

namespace pl::embedgeo {

namespace P = negood::keys::param;

std::vector<ParamSpec> NegLabelOodEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* S = "Scores";
    add(ParamSpec::real(P::kTau, "Temperature tau", 0.001, 1, 0.01, "Softmax temperature of the cosines.", "",
                        true),
        S);
    add(ParamSpec::real(P::kRho, "Ball radius rho", 0, 10, 1,
                        "Radius of the KL and Renyi balls around the uniform distribution over the negatives "
                        "(0: mean, >= log M: max)."),
        S);
    add(ParamSpec::real(P::kAlpha, "Renyi order alpha", 1.01, 10, 2,
                        "Order of the Renyi divergence (alpha* = alpha/(alpha-1))."),
        S);
    add(ParamSpec::integer(P::kGroups, "NegLabel groups", 1, 100, 1,
                           "NegLabel's score averaged over this many random groups of negatives."),
        S);
    add(ParamSpec::integer(
            P::kNegCount, "Mined negatives", 0, 100000, 0,
            "> 0: keep the negatives with the smallest max-cosine to the ID labels (NegMining); 0 = all."),
        S);
    add(ParamSpec::integer(
            P::kOutliers, "Synonym outliers", 0, 50, 0,
            "Near-synonyms of random ID labels added to the negatives (cos ~ 0.95 to their label)."),
        S);
    add(ParamSpec::integer(P::kPick, "Picked image", 0, 1000000, 0,
                           "Image whose worst-case weights are shown."),
        S);
    const char* W = "Stand-in (CLIP-like)";
    add(ParamSpec::integer(P::kConcepts, "Concepts", 20, 5000, 400,
                           "Concepts with text embeddings, in clusters of 8."),
        W);
    add(ParamSpec::integer(P::kDim, "Dimension d", 16, 512, 128, "Embedding dimension."), W);
    add(ParamSpec::integer(P::kIdClasses, "ID classes K", 1, 1000, 50, "In-distribution concepts."), W);
    add(ParamSpec::integer(P::kNegatives, "Negatives M", 10, 10000, 1000,
                           "Mined from a pool of 5M candidates."),
        W);
    add(ParamSpec::integer(P::kImages, "Images per side", 50, 50000, 1000,
                           "ID test images = OOD test images."),
        W);
    add(ParamSpec::real(P::kOpenWorldBias, "Open-world bias beta", 0, 1, 0,
                        "Share of the OOD concepts missing from the negative pool."),
        W);
    return s;
}

std::shared_ptr<const LoadedInput> NegLabelOodEngine::load(const std::string& path) const {
    return loadNegLabelFile(path);
}

ResultDocument NegLabelOodEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    NegLabelRun run(p, ctx, doc);
    run.buildData(inputs);
    run.mainScores();
    run.pickedWeights();
    run.alphaRhoMap();
    run.claims();
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::embedgeo
