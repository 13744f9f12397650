#pragma once
/// Engine of the dwp-cim-robustness panel (spec §11, DWP, partly our reconstruction): an MLP
/// trained four ways (standard, noise injection, R-averaging, DWP) on blobs, spirals, 8x8 glyphs or
/// a user's labelled CSV / IDX pair, evaluated under multiplicative or additive weight noise
/// (sigma 0..0.7 in steps of 0.05, eval_draws draws each) and under PCM drift over a year with and
/// without global drift compensation; or a user's MLP (one headerless CSV per layer after the
/// data file) evaluated on every data row. Stateless; one instance may serve several threads.
///
/// Seed streams: "layout", "train", "test" (data), "split" (a file's 20 % held out), "init" (weights; one
/// init for every method), "fit/<m>", "sigma/<m>", "drift/<m>", "decide/<m>".
#include "core/Engine.h"

namespace pl::robusttrain {

class DwpEngine : public Engine {
public:
    std::string id() const override { return "dwp-cim-robustness"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv", "idx", "ubyte"}; }
    int maxInputs() const override { return 8; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::robusttrain
