#pragma once
/// Every parameter key and result key of the pac-bayes-sac panel (PacBayesSacEngine), declared once.

namespace pl::pbsac::keys {

/// Parameter keys.
namespace param {
inline constexpr char kLab[] = "lab";
inline constexpr char kRingSize[] = "ring_size";
inline constexpr char kActions[] = "actions";
inline constexpr char kKappa[] = "kappa";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kN[] = "n";
inline constexpr char kRepetitions[] = "repetitions";
inline constexpr char kDelta[] = "delta";
inline constexpr char kClipC[] = "clip_c";
inline constexpr char kPriorSd[] = "prior_sd";
inline constexpr char kPosterior[] = "posterior";
inline constexpr char kTauFactor[] = "tau_factor";
inline constexpr char kSteps[] = "steps";   ///< control lab: environment steps per agent
inline constexpr char kHidden[] = "hidden"; ///< control lab: units per hidden layer
inline constexpr char kBatch[] = "batch";   ///< control lab: minibatch size
inline constexpr char kLearningRate[] = "learning_rate";
inline constexpr char kHeadPriorSd[] = "head_prior_sd"; ///< control lab: σ_P of PB-SAC's critic-head prior
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kTMix[] = "t_mix";
inline constexpr char kTau[] = "tau";
inline constexpr char kMarkovCoverage[] = "markov_coverage";
inline constexpr char kIidCoverage[] = "iid_coverage";
inline constexpr char kMedianMarkovBound[] = "median_markov_bound";
inline constexpr char kMedianIidBound[] = "median_iid_bound";
inline constexpr char kMeanTrueRisk[] = "mean_true_risk";
inline constexpr char kMeanEmpiricalRisk[] = "mean_empirical_risk";
inline constexpr char kStates[] = "states";
// Control lab (episode returns in the pendulum's reward units, summed over 200 steps).
inline constexpr char kEvalReturnSac[] = "eval_return_sac"; ///< deterministic policy, 5 fixed starts
inline constexpr char kEvalReturnPbsac[] = "eval_return_pbsac";
inline constexpr char kFinalReturnSac[] = "final_return_sac"; ///< mean of the last 5 training episodes
inline constexpr char kFinalReturnPbsac[] = "final_return_pbsac";
inline constexpr char kCertificate[] = "certificate_pbsac";          ///< final bound on the clipped TD loss
inline constexpr char kCertificateRisk[] = "certificate_risk_pbsac"; ///< its E_Q L̂
inline constexpr char kCertificateKl[] = "certificate_kl_pbsac";
inline constexpr char kCertifiedTransitions[] = "certified_transitions";
inline constexpr char kTMixEstimate[] = "t_mix_estimate"; ///< heuristic: batch-means τ_int of rewards
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kTvDecay[] = "tv_decay";
inline constexpr char kMarkovVsN[] = "markov_bound_vs_n";      ///< median over repetitions
inline constexpr char kMarkovVsNLo[] = "markov_bound_vs_n_lo"; ///< 10% quantile
inline constexpr char kMarkovVsNHi[] = "markov_bound_vs_n_hi"; ///< 90% quantile
inline constexpr char kIidVsN[] = "iid_bound_vs_n";
inline constexpr char kRiskVsN[] = "true_risk_vs_n";
inline constexpr char kMarkovVsTMix[] = "markov_bound_vs_t_mix";
inline constexpr char kIidVsTMix[] = "iid_bound_vs_t_mix";
inline constexpr char kRiskVsTMix[] = "true_risk_vs_t_mix";
inline constexpr char kMarkovCoverageVsKappa[] = "markov_coverage_vs_kappa";
inline constexpr char kIidCoverageVsKappa[] = "iid_coverage_vs_kappa";
inline constexpr char kReturnSac[] = "return_sac"; ///< x = episode
inline constexpr char kReturnPbsac[] = "return_pbsac";
inline constexpr char kCertificateVsSteps[] = "certificate_pbsac"; ///< x = environment steps
inline constexpr char kEmpiricalVsSteps[] = "empirical_risk_pbsac";
inline constexpr char kPosteriorSdVsSteps[] = "posterior_sd_pbsac";
inline constexpr char kAlphaSac[] = "alpha_sac";
inline constexpr char kAlphaPbsac[] = "alpha_pbsac";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kTransition[] = "transition";
inline constexpr char kPolicySac[] = "policy_sac"; ///< mean torque over (θ̇ rows, θ columns)
inline constexpr char kPolicyPbsac[] = "policy_pbsac";
} // namespace matrix

/// ResultDocument::vectors keys (per repetition unless stated).
namespace vector {
inline constexpr char kStationary[] = "stationary"; ///< per state
inline constexpr char kEmpiricalRisk[] = "empirical_risk";
inline constexpr char kTrueRisk[] = "true_risk";
inline constexpr char kKl[] = "kl";
inline constexpr char kMarkovBound[] = "markov_bound";
inline constexpr char kIidBound[] = "iid_bound";
inline constexpr char kPosteriorSd[] = "posterior_sd";
} // namespace vector

/// Claim::id values.
namespace claim {
inline constexpr char kMarkovCoverage[] = "markov-coverage";
inline constexpr char kIidUndercovers[] = "iid-undercovers";
inline constexpr char kNonVacuous[] = "non-vacuous";
inline constexpr char kControlCertificate[] = "control-certificate";
inline constexpr char kPbsacCompetitive[] = "pbsac-competitive";
} // namespace claim

} // namespace pl::pbsac::keys
