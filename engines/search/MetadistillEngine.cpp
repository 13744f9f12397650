#include "MetadistillEngine.h"

#include "BbobFunctions.h"
#include "MetadistillKeys.h"
#include "MetadistillRun.h"
#include "TeacherTrajectories.h"
#include "core/Errors.h"

namespace pl::search::metadistill {

namespace P = keys::param;

std::vector<ParamSpec> MetadistillEngine::params() const {
    auto g = [](ParamSpec s, const char* grp) {
        s.group = grp;
        return s;
    };
    return {
        g(ParamSpec::choice(P::kStage, "stage", {"full", "teacher"}, "full",
                            "full: teacher, distillation, baselines and held-out evaluation; teacher: only "
                            "CMA-ES on the chosen function"),
          "problem"),
        g(ParamSpec::choice(
              P::kFunction, "function", bbobNames(), "ellipsoid_rotated",
              "the function of the convergence curves and population clouds (and of stage = teacher)"),
          "problem"),
        g(ParamSpec::integer(P::kDim, "dimension d", 2, 50, 10, "search-space dimension"), "problem"),
        g(ParamSpec::integer(P::kPopsize, "population lambda", 8, 200, 32,
                             "candidates per generation (all methods)"),
          "problem"),
        g(ParamSpec::integer(P::kGenerations, "generations", 20, 500, 100,
                             "generations per run: the budget is lambda x generations evaluations"),
          "problem"),
        g(ParamSpec::real(P::kTarget, "target f", 1e-12, 100, 1e-8,
                          "f - f_opt at which a CMA-ES run counts as solved"),
          "problem"),
        g(ParamSpec::integer(P::kTeacherRuns, "teacher runs / function", 1, 16, 4,
                             "CMA-ES runs recorded per training function"),
          "meta-training"),
        g(ParamSpec::integer(
              P::kEpochs, "distillation epochs", 1, 200, 8,
              "passes over the teacher trajectories (the from-scratch ES gets the same evaluations)"),
          "meta-training"),
        g(ParamSpec::integer(P::kSsftSteps, "SSFT steps", 0, 50, 5,
                             "OpenAI-ES steps on a held-out function's own fitness (8 runs each)"),
          "meta-training"),
        g(ParamSpec::integer(P::kRepeats, "repeats", 1, 20, 3, "runs per method and held-out function"),
          "evaluation"),
    };
}

std::shared_ptr<const LoadedInput> MetadistillEngine::load(const std::string& path) const {
    return loadTeacherTrajectories(path);
}

ResultDocument MetadistillEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    const TeacherTrajectoriesInput* file = nullptr;
    for (const auto& in : inputs)
        if (auto t = dynamic_cast<const TeacherTrajectoriesInput*>(in.get()))
            file = t;
    if (file && file->dim != int(p.getInt(P::kDim)))
        throw InputError(file->path,
                         "dimension mismatch: the trajectories have d = " + std::to_string(file->dim) +
                             ", the parameter dim is " + std::to_string(p.getInt(P::kDim)),
                         1);
    ResultDocument doc;
    runMetadistill(file, p, ctx, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::search::metadistill
