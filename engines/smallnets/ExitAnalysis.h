#pragma once
/// Analysis of per-exit logits (eefp-early-exit panel): on the evaluation rows, per-exit accuracy,
/// ECE, FP-AUROC and EEFP; temperature scaling and the EEFP exit models fitted on the calibration
/// rows; accuracy-FLOPs threshold sweeps for raw, temperature-scaled, EEFP-model and oracle
/// scores; the calibrated-but-uninformative counter-example and the perturbed-confidence study.
/// Pure functions of their arguments; any thread. No Qt.
#include "core/Rng.h"
#include "smallnets/EarlyExitNet.h"
#include "smallnets/ExitMetrics.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::smallnets {

struct AnalysisSettings {
    ConfidenceKind confidence = ConfidenceKind::MaxProb;
    int eceBins = 15;
    int thresholds = 100;
    double calibFraction = 0.1; ///< used when the data carry no calibration mask
    double budget = 0.5;        ///< FLOPs fraction for acc_at_budget_*
    int perturbations = 50;
};

/// The four exit scores compared on the accuracy-FLOPs plane.
inline const char* const kPolicies[] = {"raw", "ts", "eefp", "oracle"};

struct ExitAnalysis {
    int calibrationRows = 0, evaluationRows = 0;
    std::vector<double> accuracy, ece, eceTs, fpAuroc, eefp, temperature; ///< eefp: K - 1 entries
    double eefpWeighted = 0;
    SweepCurve curves[4]; ///< in kPolicies order
    double accAtBudget[4] = {}, area[4] = {};
    std::vector<Reliability> reliability, reliabilityTs;
    // Counter-example: constant confidence = the exit's accuracy vs squared max-prob.
    double ceEceUniform = 0, ceEceSquared = 0, ceAreaUniform = 0, ceAreaSquared = 0;
    // Perturbed confidences.
    std::vector<double> pertEce, pertEefp, pertArea;
    double spearmanEefpArea = 0, spearmanNegEceArea = 0;
};

/// Rows that calibrate: the mask, or the first ceil(fraction N) rows.
std::vector<char> calibrationRows(const ExitLogits& e, double fraction);

/// EEFP features of exit k on the given rows: [max-prob, margin, 1 - H/ln C, agreement of the
/// argmax with exit k-1's (1 at k = 0), max-prob of exit k-1 (0 at k = 0)].
Eigen::MatrixXd eefpFeatures(const std::vector<Eigen::MatrixXd>& probs, int k);

/// Exit-worthy labels of exit k: correct at k, or no later exit correct.
std::vector<char> exitWorthy(const std::vector<std::vector<char>>& correct, int k);

/// EEFP_k = AUROC(conf_k; exit-worthy vs the rest), k < K - 1, and their FLOPs-weighted mean.
std::vector<double> eefpPerExit(const std::vector<Eigen::VectorXd>& conf,
                                const std::vector<std::vector<char>>& correct,
                                const std::vector<double>& flops, double* weighted);

/// The whole analysis. \a perturbRng drives the 50 perturbed confidences.
ExitAnalysis analyseExits(const ExitLogits& e, const AnalysisSettings& s, Rng perturbRng,
                          const std::function<void(double)>& poll);

} // namespace pl::smallnets
