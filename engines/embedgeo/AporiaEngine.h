#pragma once
/// Engine of the aporia-hallucination panel: prompt-wise response geometry, a ridge Fisher
/// projection fitted on a few annotations and label propagation on a kNN graph of the projected
/// space (APORIA-LP), against kNN / logistic regression on the labels, LP on raw embeddings and
/// the unsupervised "densest cluster is genuine" rule. Inputs: a .jsonl of responses with optional
/// .npy/.csv embeddings; else the templated (TF-IDF) or vMF stand-in. Stateless.

#include "core/Engine.h"

namespace pl::embedgeo {

class AporiaEngine : public Engine {
public:
    std::string id() const override { return "aporia-hallucination"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"jsonl", "npy", "csv"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::embedgeo
