#pragma once
/// Every parameter key and result key of the equivariant-covariance panel
/// (EquivariantCovarianceEngine), declared once; the figures read results through the same
/// constants. Names are stable: add keys, do not rename them.

namespace pl::equicov::keys {

namespace param {
inline constexpr char kSamples[] = "samples";
inline constexpr char kPoints[] = "points";
inline constexpr char kOcclusion[] = "occlusion";
inline constexpr char kNoise[] = "noise";
inline constexpr char kDof[] = "dof";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kHidden[] = "hidden";
inline constexpr char kLr[] = "lr";
inline constexpr char kLoss[] = "loss";
inline constexpr char kFitOn[] = "fit_on";
inline constexpr char kShown[] = "shown";
inline constexpr char kRotateInput[] = "rotate_input";
inline constexpr char kRobustnessCheck[] = "robustness_check";
} // namespace param

namespace metric {
inline constexpr char kEquivarianceError[] = "equivariance_error";
inline constexpr char kBaselineEquivarianceError[] = "baseline_equivariance_error";
inline constexpr char kCoverage90[] = "coverage_90";
inline constexpr char kOodAuroc[] = "ood_auroc";
inline constexpr char kIrrepDim0[] = "irrep_dim_0";
inline constexpr char kIrrepDim2[] = "irrep_dim_2";
inline constexpr char kIrrepDim4[] = "irrep_dim_4";
inline constexpr char kMinEigenvalue[] = "min_eigenvalue";
inline constexpr char kRmseModel[] = "rmse_model";
inline constexpr char kRmseGauss[] = "rmse_gauss_nll";
inline constexpr char kRmseIsotropic[] = "rmse_isotropic";
inline constexpr char kRmseBaseline[] = "rmse_baseline";
inline constexpr char kNllModel[] = "nll_model";
inline constexpr char kNllIsotropic[] = "nll_isotropic";
inline constexpr char kRmseStudentLeEso[] = "rmse_student_le_eso";
inline constexpr char kRmseStudentGauss[] = "rmse_student_gauss";
inline constexpr char kRows[] = "rows";
inline constexpr char kShown[] = "shown";
} // namespace metric

namespace series {
inline constexpr char kTrainLoss[] = "train_loss";
inline constexpr char kTrainLossGauss[] = "train_loss_gauss_nll";
inline constexpr char kTrainLossBaseline[] = "train_loss_baseline";
inline constexpr char kCoverage[] = "coverage_curve";
} // namespace series

namespace matrix {
inline constexpr char kPredMean[] = "pred_mean";
inline constexpr char kPredCov[] = "pred_cov";
inline constexpr char kPredLogCov[] = "pred_logcov";
inline constexpr char kBaselineMean[] = "baseline_mean";
inline constexpr char kIrrepPower[] = "irrep_power";
inline constexpr char kScenePoints[] = "scene_points"; ///< n x 3, the shown (rotated) cloud
inline constexpr char kSceneEllipsoids[] =
    "scene_ellipsoids"; ///< rows: centre (3) + axes matrix A (9, row-major); row 0 mean, 1 baseline, then
                        ///< samples
} // namespace matrix

namespace vector {
inline constexpr char kNllLaplace[] = "nll_laplace";
inline constexpr char kNllGauss[] = "nll_gauss";
inline constexpr char kEquivarianceErrors[] = "equivariance_errors";
inline constexpr char kBaselineEquivarianceErrors[] = "baseline_equivariance_errors";
inline constexpr char kLogdetId[] = "logdet_id";
inline constexpr char kLogdetOod[] = "logdet_ood";
inline constexpr char kIrrepPowerMean[] = "irrep_power_mean";
} // namespace vector

namespace claim {
inline constexpr char kC1Equivariance[] = "c1-equivariance";
inline constexpr char kC2IrrepsSpd[] = "c2-irreps-and-spd";
inline constexpr char kC3HeavyTails[] = "c3-le-eso-robust-to-heavy-tails";
inline constexpr char kC4Coverage[] = "c4-coverage-90";
} // namespace claim

} // namespace pl::equicov::keys
