#include "Engine.h"

#include "Errors.h"

#include <chrono>

namespace pl {

std::shared_ptr<const LoadedInput> Engine::load(const std::string& path) const {
    throw InputError(path, "panel '" + id() + "' takes no input files");
}

ResultDocument runEngine(const Engine& engine, const InputList& inputs, const ParamSet& params, RunContext& ctx) {
    auto t0 = std::chrono::steady_clock::now();
    ResultDocument doc = engine.run(inputs, params, ctx);
    auto t1 = std::chrono::steady_clock::now();
    doc.panel = engine.id();
    doc.seed = ctx.seed();
    doc.setParams(params);
    doc.elapsedMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    return doc;
}

} // namespace pl
