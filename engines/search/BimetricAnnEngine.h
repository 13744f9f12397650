#pragma once
/// Engine of the bimetric-ann panel (specs-000 §13, Xu, Silwal & Indyk, "Bi-metric framework for
/// fast similarity search"): a Vamana graph built with the cheap proxy metric d only, queried by
/// the reference two-stage rule (proxy beam search, then a D-walk on the same graph capped at Q
/// expensive calls), against retrieve-then-rerank and a single-metric Vamana built and searched
/// with D; recall@k against brute force, a quota sweep, the D/d distortion and a graph explorer.
/// Inputs: none (the built-in anisotropic-mixture pair) or four .npy/.fvecs files in this order:
/// base expensive, base proxy, queries expensive, queries proxy. Stateless.
///
/// Stages of run(): data, graphs, truth, distortion, queries, sweep, explorer, claims.
#include "core/Engine.h"

namespace pl::search::bimetric {

class BimetricAnnEngine : public Engine {
public:
    std::string id() const override { return "bimetric-ann"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"npy", "fvecs"}; }
    int maxInputs() const override { return 4; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::search::bimetric
