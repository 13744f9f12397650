#pragma once
/// Every parameter key and result key of the eefp-early-exit panel (EarlyExitEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.
/// Exit indices in keys count from 1.

namespace pl::smallnets::eefp::keys {

/// Parameter keys.
namespace param {
inline constexpr char kSamples[] = "samples";
inline constexpr char kEvalSamples[] = "eval_samples";
inline constexpr char kClasses[] = "classes";
inline constexpr char kDim[] = "dim";
inline constexpr char kSeparation[] = "separation";
inline constexpr char kExits[] = "exits";
inline constexpr char kWidth[] = "width";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kLr[] = "lr";
inline constexpr char kCalibFraction[] = "calib_fraction";
inline constexpr char kConfidence[] = "confidence";
inline constexpr char kEceBins[] = "ece_bins";
inline constexpr char kThresholds[] = "thresholds";
inline constexpr char kBudget[] = "budget";
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kEefp[] = "eefp";                        ///< FLOPs-weighted mean of EEFP_k, k < K
inline constexpr char kAccAtBudgetPrefix[] = "acc_at_budget_"; ///< + raw | ts | eefp | oracle
inline constexpr char kSpearmanEefpArea[] = "spearman_eefp_area";
inline constexpr char kSpearmanEceArea[] = "spearman_neg_ece_area";
inline constexpr char kAreaPrefix[] = "area_"; ///< + raw | ts | eefp | oracle
inline constexpr char kCalibrationRows[] = "calibration_rows";
inline constexpr char kEvaluationRows[] = "evaluation_rows";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kAccVsFlopsPrefix[] = "acc_vs_flops_";           ///< + raw | ts | eefp | oracle
inline constexpr char kReliabilityPrefix[] = "reliability_exit_";      ///< + k (raw max-prob)
inline constexpr char kReliabilityTsPrefix[] = "reliability_ts_exit_"; ///< + k (temperature-scaled)
inline constexpr char kTrainLoss[] = "train_loss";
} // namespace series

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kAccuracy[] = "accuracy"; ///< per exit, evaluation rows
inline constexpr char kEce[] = "ece";           ///< per exit, on max-prob
inline constexpr char kFpAuroc[] = "fp_auroc";  ///< per exit, AUROC(conf; correct vs wrong)
inline constexpr char kEefp[] = "eefp";         ///< K - 1 entries
inline constexpr char kTemperature[] = "temperature";
inline constexpr char kEceTs[] = "ece_ts";
inline constexpr char kFlops[] = "flops";              ///< cumulative FLOPs per exit
inline constexpr char kPerturbEce[] = "perturb_ece";   ///< 50 perturbed confidences: mean ECE
inline constexpr char kPerturbEefp[] = "perturb_eefp"; ///< ... their EEFP
inline constexpr char kPerturbArea[] = "perturb_area"; ///< ... their accuracy-FLOPs area
} // namespace vector

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kExitTable[] = "exit_table"; ///< K x 5: accuracy, ECE, ECE (TS), FP-AUROC, EEFP
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kCounterExample[] = "c1-calibration-not-sufficient";
inline constexpr char kEefpTracksArea[] = "c2-eefp-tracks-area";
inline constexpr char kProcedure[] = "c3-eefp-procedure-vs-temperature";
} // namespace claim

} // namespace pl::smallnets::eefp::keys
