#pragma once
/// Engine of the fedgr-noisy-labels panel (spec §3, FedGR, partly our reconstruction): clients
/// with Dirichlet-split data and injected label noise train an MLP by FedAvg for warmup_rounds;
/// then the server's GMM sieve on the global model's losses (histograms or exact losses) keeps,
/// relabels or drops each client's rows, an EMA teacher revised towards the global model is
/// distilled from, and the penultimate features are held near the global model's. Compared with
/// FedAvg, FedProx, local-only sieving and centralised training on the pooled noisy data, and
/// with the ablations without sieve, EMA teacher or representation term. Stateless; one instance
/// may serve several threads.
///
/// Seed streams: "layout", "train", "test" (data), "split" (a file's 20 % held out), "dirichlet",
/// "noise", "init" (one init for every method), "fit/<m>/<round>/<client>".
#include "core/Engine.h"

namespace pl::robusttrain {

class FedGrEngine : public Engine {
public:
    std::string id() const override { return "fedgr-noisy-labels"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv", "idx", "ubyte"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::robusttrain
