#pragma once
/// resettable-sketches: sampling sketches of increment/reset streams under adaptive queries
/// (specs-004 §15). Runs the baseline multi-level sampling sketch, the binary-tree-protected robust
/// sketch (our reconstruction), sketch switching and the exact map over a generated workload, a
/// `t,op,key,delta` file (streamed, never fully loaded) or the adaptive attack (run once per sketch).
/// Stateless; one instance may serve several threads. No Qt.

#include "core/Engine.h"

namespace pl::sketches {

/// A validated operation file: only its path and operation count are kept (it is streamed again by
/// run()).
struct OpFileInput : LoadedInput {
    int64_t operations = 0;
};

class ResettableSketchesEngine : public Engine {
public:
    std::string id() const override { return "resettable-sketches"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::sketches
