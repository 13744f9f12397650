#pragma once
/// The GEMQ pipeline on a moe_lm (specs-004 §19): stages at budgets B_0 > ... > B_target; at each one
/// the sensitivity is measured on the current model, the costs recomputed from the full-precision
/// weights, the LP solved (global or per layer), the experts quantised from full precision, and the
/// routers fine-tuned towards the full-precision outputs. Pure functions; one thread per call.
#include "core/Rng.h"
#include "gemq/Allocation.h"
#include "gemq/ExpertCosts.h"
#include "gemq/RouterTuning.h"

#include <functional>

namespace pl::gemq {

/// The full-precision model and its data, fixed for a run.
struct ModelSetup {
    tinylm::MoeLmModel fp;
    std::vector<std::vector<int>> calibCtx, evalCtx;
    std::vector<int> calibY, evalY;
    TuneTargets targets;      ///< fp distributions on the calibration rows
    tinylm::MoeOutput fpEval; ///< fp forward on the evaluation rows
    double lossFp = 0;
};

/// \a fp with each expert's w1, w2 quantised at bits[option[l E + e]] (groups of \a group rows)
/// and the routers of \a routers.
tinylm::MoeLmModel quantiseModel(const tinylm::MoeLmModel& fp, const std::vector<int>& bits,
                                 const std::vector<int>& option, int group,
                                 const tinylm::MoeLmModel& routers);

struct PipelineConfig {
    bool global = true;
    int stages = 3;
    double avgBits = 2.5;
    std::vector<int> bits;
    int group = 32;
    Importance importance = Importance::Fisher;
    RouterTuneConfig tune;
};

struct PipelineResult {
    AllocProblem problem;     ///< last stage (costs)
    Allocation alloc;         ///< last stage
    tinylm::MoeLmModel model; ///< quantised, routers tuned
    /// Before: the last stage's quantised experts with the full-precision routers; after: tuned.
    double lossBeforeFt = 0, lossAfterFt = 0, shiftBeforeFt = 0, shiftAfterFt = 0;
    std::vector<double> shiftLayerBefore, shiftLayerAfter;
    std::vector<double> stageBudget, stageLoss; ///< per stage: budget, loss after tuning
    Eigen::MatrixXd loadBeforeFt;               ///< L x E
};

/// The stage budgets: linear from min(max bits, target + 1.5) down to the target.
std::vector<double> stageBudgets(double target, int stages, const std::vector<int>& bits);

/// Runs the pipeline. \a fpSens is the sensitivity of the fp model (reused by stage 0).
/// \a tick(fraction) reports progress and may throw to cancel.
PipelineResult runPipeline(const ModelSetup& s, const Sensitivity& fpSens, const PipelineConfig& c, Rng rng,
                           const std::function<void(double)>& tick);

} // namespace pl::gemq
