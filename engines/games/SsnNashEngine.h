#pragma once
/// Engine of the ssn-nash panel: Douglas-Rachford splitting + semi-smooth Newton, hybridised
/// with PRM+, for zero-sum matrix games (row player maximises x^T A y). Compares PRM+, cold
/// SSN and the hybrid on the same game, certifies the result with the duality gap and an LP
/// reference (COIN-OR CLP), and checks the paper's claims on random 40x40 Gaussian games.
/// Stateless; one instance may serve several threads.
///
/// Parameters: solver, generator, rows, cols, switch_gap, target_gap, max_iterations,
/// max_newton, ssn_max_iterations, n_stall, gamma, gamma_auto, mu_max, prm_alternating,
/// prm_averaging, compare_solvers, claim_games, use_player1_payoffs, lp_reference.
///
/// Result keys: vectors.x, vectors.y; metrics.value, duality_gap, iterations, matvecs,
/// matvec_equivalents, switch_iteration, lp_value, lp_error, lp_gap, newton_steps, drs_steps,
/// fallbacks, converged, iterations_to_target, gamma, newton_condition, final_residual,
/// support_x_size, support_y_size, rows, cols and per solver iterations_<s>, gap_<s>,
/// matvecs_<s>, iterations_to_target_<s> (s = prm_plus, ssn, hybrid); series.gap_vs_iteration,
/// gap_prm_plus, gap_prm_plus_last, gap_ssn, gap_hybrid, gap_vs_work_<s>, gap_ratio,
/// residual_ratio; matrices.payoff, newton_matrix; labels.support_x, support_y,
/// newton_step_kind; claims hybrid-10x-fewer-iterations, superlinear-tail, lp-agreement.

#include "core/Engine.h"

namespace pl::games {

class SsnNashEngine : public pl::Engine {
public:
    std::string id() const override { return "ssn-nash"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"nfg", "csv", "npy"}; }
    int maxInputs() const override { return 1; }
    /// Loads .nfg / .csv / .npy; refuses games that do not have two players.
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::games
