#pragma once
/// Engine of the visual-persuasion panel (spec 004 §14, Visual Persuasion, a workbench
/// reconstruction with stand-ins): a procedural product renderer (stand-in for the image
/// generator) and a hidden-utility random-feature agent (stand-in for the VLM); black-box search
/// over identity-preserving edits within a query budget; a Bradley-Terry fit of the search's
/// revealed preferences on edit features (bootstrap CIs) against the planted effects; fresh duels
/// of the optimised vs the original image, raw and visually normalised (the mitigation).
/// Optional input: a choice log `image_a,image_b,chosen,order`, fitted with one utility per image
/// and a position term. Stateless; one instance may serve several threads.
///
/// Seed streams: "agent" (filters, readout fit), "search", "monitor", "eval", "eval-normalised",
/// "pairwise", "bootstrap".
#include "convimg/BradleyTerry.h"
#include "core/Engine.h"

namespace pl::convimg {

class PersuasionEngine : public Engine {
public:
    std::string id() const override { return "visual-persuasion"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded choice log.
struct ChoiceLogInput : LoadedInput {
    ChoiceLog log;
};

/// Spearman's rho with mid-ranks for ties (NaN when either side is constant).
double spearmanMidRank(const std::vector<double>& a, const std::vector<double>& b);

} // namespace pl::convimg
