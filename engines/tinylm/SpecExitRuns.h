#pragma once
/// The evaluation stages of SpecExitEngine: every method on every problem, the theta_exit sweep,
/// the greedy and sampled exactness checks of speculative decoding with exit off, and the packing
/// of metrics, labels, series and claims (keys in SpecExitKeys.h). Pure functions of the setup,
/// the parameters and the seed; cancellable.
#include "core/Engine.h"
#include "tinylm/SpecExitDecoding.h"

#include <vector>

namespace pl::tinylm {

struct SpecProblem {
    std::vector<int> prompt;
    int truth = -1; ///< the ground-truth answer, -1 when unknown
};

/// The models and problems of one run.
struct SpecSetup {
    MlpLmModel target;
    DraftModel draft;
    bool builtin = true; ///< the trace task (answer marker, boundaries, truths)
    int numbers = 0;
    std::vector<SpecProblem> problems;
    std::vector<int> lawPrompt; ///< the prompt of the chi-square law test
    double targetLoss = 0, draftLoss = 0;
};

/// Stages decode, sweep, greedy, samples, pack and claims into \a doc.
void runSpecExit(const SpecSetup& u, const ParamSet& p, const Rng& root, RunContext& ctx,
                 ResultDocument& doc);

} // namespace pl::tinylm
