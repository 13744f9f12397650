#pragma once
/// Every parameter key and result key of the embodied-act panel (EmbodiedActEngine), declared once.

namespace pl::embodied::keys {

/// Parameter keys.
namespace param {
inline constexpr char kTask[] = "task";   ///< pid | robertson | energy | identify
inline constexpr char kAgent[] = "agent"; ///< runtime | baseline | none
inline constexpr char kKp[] = "kp";
inline constexpr char kKi[] = "ki";
inline constexpr char kKd[] = "kd";
inline constexpr char kTf[] = "tf";
inline constexpr char kIntegrator[] = "integrator"; ///< rk45 | bdf | verlet: the first plan's
inline constexpr char kRtol[] = "rtol";
inline constexpr char kAtol[] = "atol";
inline constexpr char kTEnd[] = "t_end";         ///< 0 = the task's (or the file's) horizon
inline constexpr char kOutputDt[] = "output_dt"; ///< 0 = the task's
inline constexpr char kBudget[] = "budget";      ///< 0 = the task's (or the file's)
inline constexpr char kProposerNoise[] = "proposer_noise";
inline constexpr char kEpisodes[] = "episodes";
inline constexpr char kMonitorPeriod[] = "monitor_period";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kOvershoot[] = "overshoot";        ///< pid: of the shown run
inline constexpr char kSettlingTime[] = "settling_time"; ///< pid: NaN (null) when not settled
inline constexpr char kIae[] = "iae";
inline constexpr char kSuccessRuntime[] = "success_runtime"; ///< fraction of episodes
inline constexpr char kSuccessBaseline[] = "success_baseline";
inline constexpr char kMedianWastedRuntime[] = "median_wasted_runtime"; ///< steps
inline constexpr char kMedianWastedBaseline[] = "median_wasted_baseline";
inline constexpr char kDetectFraction[] = "detect_fraction"; ///< median first-detection step / budget
inline constexpr char kBudget[] = "budget";                  ///< the budget used (steps)
inline constexpr char kStepsShown[] = "steps_shown";         ///< steps of the shown episode
inline constexpr char kAttemptsShown[] = "attempts_shown";
inline constexpr char kFinalTime[] = "final_time";     ///< time reached by the shown run
inline constexpr char kEnergyDrift[] = "energy_drift"; ///< energy: max |ΔE|/E of the shown run
inline constexpr char kOmegaFit[] = "omega_fit";       ///< identify: θ of the shown run
inline constexpr char kZetaFit[] = "zeta_fit";
inline constexpr char kMassError[] = "mass_error"; ///< robertson: |Σy − 1|
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kOutput[] = "output";      ///< shown run: output against time
inline constexpr char kStepSize[] = "step_size"; ///< shown episode: h against cumulative step
inline constexpr char kTimeline[] = "timeline";  ///< shown episode: output against cumulative step
inline constexpr char kData[] = "data";          ///< identify: the noisy samples
} // namespace series

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kFinalState[] = "final_state";
inline constexpr char kAnomalySteps[] = "anomaly_steps"; ///< shown episode: cumulative steps
inline constexpr char kActionSteps[] = "action_steps";
inline constexpr char kAttemptStarts[] = "attempt_starts";
inline constexpr char kWastedRuntime[] = "wasted_runtime"; ///< per episode
inline constexpr char kWastedBaseline[] = "wasted_baseline";
inline constexpr char kSuccessRuntimeByEpisode[] = "success_runtime_by_episode"; ///< 0/1
inline constexpr char kSuccessBaselineByEpisode[] = "success_baseline_by_episode";
} // namespace vector

/// ResultDocument::matrices keys.
namespace matrix {
/// Agent log of the shown episode: rows = events (labels: "module: text"), columns step, t,
/// module (0 plan, 1 code, 2 perception, 3 reflection), anomaly code, action code.
inline constexpr char kAgentLog[] = "agent_log";
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kRuntimeBeatsBaseline[] = "runtime-beats-baseline";
inline constexpr char kStiffSwitch[] = "stiff-switch";
} // namespace claim

} // namespace pl::embodied::keys
