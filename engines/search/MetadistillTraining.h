#pragma once
/// The learning steps of the metadistill-bbo panel: CMA-ES teacher collection, teacher-forced
/// distillation of LES-lite, the from-scratch OpenAI-ES meta-training at equal evaluation budget, and
/// test-time self-supervised fine-tuning (SSFT). Pure functions of their arguments (plus cancellation
/// and progress through the RunContext); one thread.
#include "BbobFunctions.h"
#include "LesStudent.h"
#include "TeacherTrajectories.h"
#include "core/RunContext.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::search::metadistill {

/// The run's sizes.
struct BudgetConfig {
    int d = 10, lambda = 32, generations = 100, teacherRuns = 4, epochs = 20, ssftSteps = 5;
};

/// A progress sink for one step: fraction of that step in [0, 1].
using StepProgress = std::function<void(double)>;

/// Teacher collection: teacherRuns CMA-ES runs (lambda, sigma0 = 2, uniform start in [-4, 4]^d) on each
/// function; the trajectories (mean, sigma^2 C per generation). Adds the evaluations to \a evals.
std::vector<TeacherTrajectory> collectTeachers(const std::vector<const BbobFunction*>& functions,
                                               const BudgetConfig& cfg, const Rng& rng, int64_t& evals,
                                               RunContext& ctx, const StepProgress& progress);

/// Mean loss terms per distillation epoch.
struct DistillHistory {
    std::vector<double> kl, fit, div;
};

/// Teacher-forced distillation from \a theta0: Adam over epochs; per trajectory one step on the mean
/// gradient of its generations; c_fit and c_div ramp up linearly over the first half (curriculum).
/// \a functionOf maps a trajectory's function name to the instance that scores the populations.
Eigen::VectorXd distill(const Eigen::VectorXd& theta0, const std::vector<TeacherTrajectory>& teachers,
                        const std::function<const BbobFunction&(const std::string&)>& functionOf,
                        const BudgetConfig& cfg, const Rng& rng, int64_t& evals, DistillHistory& history,
                        RunContext& ctx, const StepProgress& progress);

/// The meta-loss of one student run: log10 of the best f (floored at 1e-10).
double runLoss(const LesStudent& s, const BbobFunction& f, const BudgetConfig& cfg, Rng rng);

/// From-scratch OpenAI-ES on theta from \a theta0 for \a iterations iterations (16 candidates, each
/// scored on two random training functions with common random numbers). Adds evaluations to \a evals.
Eigen::VectorXd trainFromScratch(const Eigen::VectorXd& theta0, const std::vector<const BbobFunction*>& train,
                                 const BudgetConfig& cfg, int iterations, const Rng& rng, int64_t& evals,
                                 RunContext& ctx, const StepProgress& progress);

/// SSFT: ssftSteps OpenAI-ES steps (8 candidates) on \a theta scored on \a f itself.
Eigen::VectorXd fineTune(const Eigen::VectorXd& theta, const BbobFunction& f, const BudgetConfig& cfg,
                         const Rng& rng, RunContext& ctx);

/// Random search: lambda x generations uniform points in [-4, 4]^d; the best f so far after each
/// block of lambda.
std::vector<double> randomSearchCurve(const BbobFunction& f, int d, int lambda, int generations, Rng rng);

/// Evaluations of one from-scratch iteration.
int64_t scratchIterationEvals(const BudgetConfig& cfg);

} // namespace pl::search::metadistill
