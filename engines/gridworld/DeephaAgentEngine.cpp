#include "gridworld/DeephaAgentEngine.h"

#include "core/Errors.h"
#include "core/PathUtil.h"
#include "gridworld/DeephaAgentKeys.h"
#include "gridworld/DeephaEvaluation.h"

namespace pl::deepha {

using namespace pl::gridworld;

std::vector<ParamSpec> DeephaAgentEngine::params() const {
    using namespace keys::param;
    return {
        ParamSpec::choice(kStage, "stage", {"full", "plan"}, "full",
                          "plan: tech tree, subgoal closures, feasibility and the expert only (no training); "
                          "full: also behaviour cloning and the four decoding modes on held-out maps"),
        ParamSpec::integer(kGrid, "grid", 8, 32, 12, "side of the generated maps (cells)"),
        ParamSpec::integer(kDemosPerTask, "demos per task", 5, 200, 20, "expert demonstrations per task"),
        ParamSpec::integer(kEpisodeCap, "episode cap", 100, 1000, 300,
                           "steps before an episode counts as failed"),
        ParamSpec::integer(kHidden, "hidden units", 16, 512, 128,
                           "units per hidden layer of every policy (2 layers)"),
        ParamSpec::integer(kHistory, "history H", 4, 64, 16, "steps of history in the policy's context"),
        ParamSpec::integer(kFullWindow, "full-detail window m", 1, 16, 4,
                           "recent steps kept in full when the context is compressed"),
        ParamSpec::integer(kIterations, "Adam steps", 20, 5000, 300,
                           "minibatch steps per policy (batch 128)"),
        ParamSpec::real(kDemoNoise, "demo noise", 0, 0.5, 0.2,
                        "probability that a demonstration step executes a random action (labels stay the "
                        "expert's; DART-style)"),
        ParamSpec::real(kLearningRate, "learning rate", 1e-4, 0.1, 3e-3, "Adam step size"),
        ParamSpec::integer(kTrainMaps, "training maps", 1, 32, 6,
                           "generated maps the demonstrations come from"),
        ParamSpec::integer(kEvalMaps, "held-out maps", 1, 16, 4,
                           "generated maps for evaluation (map files, when given, replace them)")};
}

std::shared_ptr<const LoadedInput> DeephaAgentEngine::load(const std::string& path) const {
    const std::string ext = lowerExtension(path);
    if (ext == "json") {
        auto in = std::make_shared<RecipeInput>();
        in->book = readRecipeFile(path);
        in->path = path;
        in->kind = "recipes";
        in->summary = std::to_string(in->book.items.size()) + " items, " +
                      std::to_string(in->book.tasks.size()) + " tasks";
        return in;
    }
    if (ext == "txt" || ext == "map") {
        auto in = std::make_shared<MapInput>();
        in->map = readMapFile(path);
        in->path = path;
        in->kind = "map";
        in->summary = std::to_string(in->map.rows) + " x " + std::to_string(in->map.cols) + " map";
        return in;
    }
    throw InputError(path, "deepha-agent reads recipe books (.json) and ASCII maps (.txt, .map)");
}

ResultDocument DeephaAgentEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    using namespace keys::param;
    Setup setup;
    setup.book = builtinRecipes();
    int books = 0;
    for (const auto& in : inputs) {
        if (const auto* r = dynamic_cast<const RecipeInput*>(in.get())) {
            if (++books > 1)
                throw UsageError("deepha-agent: give at most one recipe book (second: " + in->path + ")");
            setup.book = r->book;
        } else if (const auto* m = dynamic_cast<const MapInput*>(in.get())) {
            setup.evalMaps.push_back(m->map);
        } else {
            throw InputError(in->path, "not a recipe book or map loaded by this engine");
        }
    }
    setup.grid = int(p.getInt(kGrid));
    setup.demosPerTask = int(p.getInt(kDemosPerTask));
    setup.trainMaps = int(p.getInt(kTrainMaps));
    setup.agent.hidden = int(p.getInt(kHidden));
    setup.agent.history = int(p.getInt(kHistory));
    setup.agent.fullWindow = int(p.getInt(kFullWindow));
    setup.agent.iterations = int(p.getInt(kIterations));
    setup.agent.learningRate = p.getDouble(kLearningRate);
    setup.agent.demoNoise = p.getDouble(kDemoNoise);
    setup.agent.episodeCap = int(p.getInt(kEpisodeCap));
    const Rng rng(ctx.seed());
    if (setup.evalMaps.empty())
        for (int k = 0; k < int(p.getInt(kEvalMaps)); ++k)
            setup.evalMaps.push_back(generateMap(setup.grid, setup.book.collectTiles(),
                                                 rng.fork("eval map " + std::to_string(k)),
                                                 "held-out map " + std::to_string(k + 1)));
    ResultDocument d;
    const PlanSummary plan = writePlan(setup, ctx, d);
    if (p.getString(kStage) == "plan") {
        d.notes.push_back(
            "stage = plan: tech tree, closures, feasibility and expert only; no policy trained");
        return d;
    }
    runAgents(setup, plan, rng, ctx, d);
    return d;
}

} // namespace pl::deepha
