#pragma once
/// embodied-act: runtime perception in the agent–simulator loop (specs-000 §15, issue 28). A
/// scripted agent (stand-in for the LLM agent of EmbodiedAct) drives step-wise simulators of
/// engines/simloop on one of four tasks (PID design, Robertson kinetics, long-horizon energy,
/// identification), watching each run every `monitor_period` steps and repairing or re-planning
/// at once; the execute-then-respond baseline has the same proposer and rule table but judges
/// complete runs. Both play `episodes` episodes at the same step budget. Stateless; one instance
/// may serve several threads. No Qt.

#include "core/Engine.h"

namespace pl::embodied {

class EmbodiedActEngine : public Engine {
public:
    std::string id() const override { return "embodied-act"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::embodied
