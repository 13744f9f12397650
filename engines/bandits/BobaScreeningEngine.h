#pragma once
/// Engine of the boba-screening panel: bandit-guided surrogate screening (BOBA) of a compound
/// library split into partitions (arms), against full-library Bayesian optimisation, random
/// screening, BOBA on random partitions and greedy BOBA. Input: a library .csv
/// (`id,partition_key,fingerprint[,score]`); else the stand-in combinatorial library.
/// Stateless; one instance may serve several threads.

#include "core/Engine.h"

namespace pl::bandits {

class BobaScreeningEngine : public Engine {
public:
    std::string id() const override { return "boba-screening"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::bandits
