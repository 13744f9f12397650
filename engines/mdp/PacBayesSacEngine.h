#pragma once
/// pac-bayes-sac: a PAC-Bayes bound that pays for Markov dependence through the mixing time
/// (specs-004 §2). The bound lab certifies a tabular critic from `repetitions` dependent chains of
/// `n` transitions on the ring world (or a JSON MDP with a policy), against the exact stationary
/// risk, with the i.i.d. bound for contrast; it sweeps n and the stickiness κ. The control lab
/// trains SAC and PB-SAC (our reconstruction, mdp/SacAgent.h) on the pendulum swing-up
/// (runControlLab, PacBayesSacControl.cpp). Stateless; one instance may serve several threads. No Qt.

#include "core/Engine.h"

namespace pl::pbsac {

class PacBayesSacEngine : public Engine {
public:
    std::string id() const override { return "pac-bayes-sac"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// lab = control: both agents, their figures' data and the control claims.
ResultDocument runControlLab(const ParamSet& params, RunContext& ctx);

} // namespace pl::pbsac
