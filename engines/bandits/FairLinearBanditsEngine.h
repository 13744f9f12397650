#pragma once
/// Engine of the fair-linear-bandits panel: p-mean regret R_p = μ* − M_p of linear-bandit
/// algorithms (FairLin-UCB, FairLin-PE and baselines), with the expectation over `runs` paired
/// runs taken inside the mean. Inputs: an arms .csv (optional `mu` column) and an optional
/// one-row θ* .csv; else the stand-in workload. Stateless; one instance may serve several threads.

#include "core/Engine.h"

namespace pl::bandits {

class FairLinearBanditsEngine : public Engine {
public:
    std::string id() const override { return "fair-linear-bandits"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::bandits
