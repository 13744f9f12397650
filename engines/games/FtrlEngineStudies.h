#pragma once
/// The studies the ftrl-potential-games engine adds to every run besides its main trajectory:
/// exact fictitious play on the built-in hard instance, steps-vs-n sweeps on the linear snake,
/// and the claim checks that need them. Used only by FtrlPotentialEngine; no Qt.

#include "FtrlEngineSettings.h"
#include "FtrlGame.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"

#include <map>
#include <string>

namespace pl::games {

/// Steps until FTRL puts >= 1 - tau mass on (n,n) of the linear snake, memoised for one run.
/// Thread affinity: the engine's worker thread; holds a reference to its RunContext.
class FtrlSnakeRunner {
public:
    explicit FtrlSnakeRunner(RunContext& ctx) : m_ctx(ctx) {}
    /// First iterate index with >= 1 - tau mass on (n,n) under `config` (its maxSteps is the cap;
    /// recording is switched off), or -1 when not reached within the cap.
    int64_t stepsToEquilibrium(int n, const FtrlConfig& config);

private:
    RunContext& m_ctx;
    std::map<std::string, int64_t> m_cache;
};

/// Exact event-driven fictitious play on the hard instance: the current snake when the game is
/// a snake with exact payoffs, otherwise the linear snake of size n. Adds metrics
/// steps_to_equilibrium (+ _log10), fp_periods, series fp_period_length / fp_period_start,
/// labels fp_period_profile and a note with the exact decimal count.
void addHardInstanceStudy(ResultDocument& doc, const FtrlEngineSettings& s, const FtrlGame* current,
                          uint64_t seed, RunContext& ctx);

/// Sweeps (steps_vs_n_fp, steps_vs_n_ftrl, steps_vs_n_best_response, ftrl_steps_vs_eta_n3/_n4)
/// and the claims fp-superexponential, alternating-br-2n-2, any-learning-rate,
/// ftrl-slow-large-eta and geometric-exponential.
void addSweepsAndClaims(ResultDocument& doc, const FtrlEngineSettings& s, FtrlSnakeRunner& runner,
                        uint64_t seed, RunContext& ctx);

/// A RunContext sharing ctx's stop flag whose progress maps [0, 1] onto [from, to] of ctx's.
RunContext progressPhase(RunContext& ctx, double from, double to);

} // namespace pl::games
