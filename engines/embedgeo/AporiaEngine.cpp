#include "AporiaEngine.h"

#include "AporiaKeys.h"
#include "AporiaRun.h"
#include "ResponseSet.h"

namespace pl::embedgeo {

namespace P = aporia::keys::param;

std::vector<ParamSpec> AporiaEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* M = "Method";
    add(ParamSpec::choice(P::kMethod, "Method (gives labels.predicted)",
                          {"aporia_lp", "knn_labels", "logreg_labels", "lp_raw", "densest_cluster"},
                          "aporia_lp",
                          "APORIA-LP, kNN or logistic regression on the labels, LP on raw embeddings, or the "
                          "unsupervised densest-cluster rule."),
        M);
    add(ParamSpec::integer(
            P::kNLabels, "Annotations", 4, 5000, 40,
            "Seeds drawn in evaluation mode (at least 2 per class); F1 is measured on the rest."),
        M);
    add(ParamSpec::integer(P::kKnn, "kNN graph k", 1, 100, 10,
                           "Neighbours of the LP graphs and of kNN on the labels."),
        M);
    add(ParamSpec::real(P::kLpAlpha, "LP alpha", 0.01, 0.99, 0.2, "F <- alpha S F + (1 - alpha) Y."), M);
    add(ParamSpec::integer(P::kPcaDim, "PCA dimension", 1, 128, 16,
                           "Components of the prompt-centred embedding fed to Fisher."),
        M);
    const char* W = "Stand-in";
    add(ParamSpec::integer(P::kPrompts, "Prompts", 4, 10000, 200, "Prompts of the stand-in fact base."), W);
    add(ParamSpec::integer(P::kResponses, "Responses per prompt", 5, 100, 30, "Sampled answers per prompt."),
        W);
    add(ParamSpec::real(
            P::kAsymmetry, "Asymmetry", 0, 1, 1,
            "vMF: 0 = genuine and hallucinated identically distributed, 1 = tight genuine, scattered "
            "hallucinations; TF-IDF: share of hallucinations with fabricated justifications."),
        W);
    add(ParamSpec::choice(
            P::kEmbedding, "Embedding", {"tfidf", "vmf"}, "tfidf",
            "Templated responses -> TF-IDF (1-2 grams) -> random projection to 256, or direct vMF samples."),
        W);
    return s;
}

std::shared_ptr<const LoadedInput> AporiaEngine::load(const std::string& path) const {
    return loadAporiaFile(path);
}

ResultDocument AporiaEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    AporiaRun run(p, ctx, doc);
    run.buildData(inputs);
    run.geometry();
    run.evaluate();
    run.f1VsLabels();
    run.figuresData();
    run.claims();
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::embedgeo
