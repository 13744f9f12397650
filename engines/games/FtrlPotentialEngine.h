#pragma once
/// Engine of the ftrl-potential-games panel (shared/papers/specs-000.md, section 3): FTRL, MWU and
/// fictitious play in potential games, on the workbench's snake games, random potential games or
/// a user's .nfg/.csv game; exact event-driven fictitious play on the hard instance; steps-vs-n
/// sweeps; exact-potential detection; claim checks. Stateless and immutable: one instance may
/// serve several threads. No Qt.

#include "core/Engine.h"

namespace pl::games {

class FtrlPotentialEngine : public Engine {
public:
    /// "ftrl-potential-games".
    std::string id() const override;
    /// dynamics, update, schedule, eta, tie_break, start, game, n, ratio, max_steps, epsilon, tau,
    /// n_max_sweep, n_max_sweep_ftrl (see FtrlEngineSettings.cpp for ranges and help).
    std::vector<ParamSpec> params() const override;
    /// {"nfg", "csv"}.
    std::vector<std::string> inputExtensions() const override;
    int maxInputs() const override { return 1; }
    /// Loads a game file (FtrlGameFile.h rules). Throws pl::InputError.
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    /// Result keys: vectors x, y, x_average, y_average (strategy_<p> for players >= 3); metrics
    /// nash_gap, nash_gap_average, steps_to_equilibrium (exact FP on the hard instance, as a
    /// double; exact decimal in notes), steps_to_equilibrium_log10, fp_periods, is_potential,
    /// potential_max_contrast, first_epsilon_ne_step, first_target_step, steps_run,
    /// mass_on_equilibrium, potential; series potential_vs_iteration, nash_gap_vs_iteration,
    /// nash_gap_avg_vs_iteration, mass_on_equilibrium_vs_iteration, trajectory_x, trajectory_y
    /// (trajectory_z for 3+ players), trajectory_xy, steps_vs_n_fp, steps_vs_n_ftrl,
    /// steps_vs_n_best_response, ftrl_steps_vs_eta_n3/_n4, fp_period_length, fp_period_start;
    /// matrices payoff, payoff_b, potential, trajectory_x_probs, trajectory_y_probs; labels period,
    /// fp_period_profile; claims fp-superexponential, ftrl-approx-ne, any-learning-rate,
    /// ftrl-slow-large-eta, alternating-br-2n-2, geometric-exponential.
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::games
