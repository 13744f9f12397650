#pragma once
/// Engine of the metadistill-bbo panel (specs-000 §19, MetaDistill-lite): BBOB functions (2009
/// definitions), a CMA-ES teacher, LES-lite distilled from the teacher's trajectories on training
/// functions, compared on held-out functions with LES-lite meta-trained from scratch by OpenAI-ES at
/// equal evaluation budget, random search, CMA-ES itself, and the distilled student after test-time
/// fine-tuning. `stage = teacher` runs only CMA-ES on `function`. Optional input: a teacher-trajectory
/// JSON file (distilled from instead of the collected CMA-ES runs). Stateless.
///
/// Stages of run(): instances, teacher, distill, scratch, evaluate, function, sanity, claims.
#include "core/Engine.h"

namespace pl::search::metadistill {

class MetadistillEngine : public Engine {
public:
    std::string id() const override { return "metadistill-bbo"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::search::metadistill
