#pragma once
/// Zero-sum matrix game solvers compared by the ssn-nash panel: PRM+, cold-started
/// semi-smooth Newton on the Douglas-Rachford residual (globalised by DRS steps), and the
/// hybrid (PRM+ until the duality gap falls below a switch threshold, then Newton; back to
/// PRM+ with a halved threshold when Newton stalls). Row player maximises x^T A y.
/// Deterministic; single-threaded; cancellable through SolveMonitor. An iteration is one PRM+
/// iteration, one accepted Newton step or one DRS step.

#include "DenseKernels.h"
#include "NashGap.h"
#include "SolverWork.h"

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace pl::games {

struct ZeroSumSolverOptions {
    double targetGap = 1e-10;          ///< stop once the duality gap is at most this
    int64_t maxPrmIterations = 100000; ///< PRM+ iteration cap (PRM+ alone and all hybrid PRM+ phases)
    int maxNewton = 50;                ///< iterations per Newton phase of the hybrid
    int64_t maxSsnIterations = 500;    ///< iteration cap of the cold-started SSN
    int nStall = 5;           ///< hybrid: back to PRM+ after this many rejected Newton steps in a row
    double switchGap = 1e-4;  ///< hybrid: PRM+ -> Newton when the average's gap is below this
    double gamma = 1.0;       ///< DRS step size (> 0)
    double muMax = 1e-2;      ///< Newton regularisation mu_k = min(muMax, ||R(w_k)||)
    double acceptRatio = 0.9; ///< accept w + d when ||R(w + d)|| <= acceptRatio ||R(w)||
    bool alternating = true;  ///< PRM+: alternating (true) or simultaneous updates
    int averagingPower = 1;   ///< PRM+ average weights t^p: 0 uniform, 1 linear, 2 quadratic
    bool recordTrace = true;  ///< record the gap trace (log-spaced for PRM+, every Newton iteration)
};

/// Gap trace of one solve: exact duality gaps at recorded iterations.
struct GapTrace {
    std::vector<double> iteration;      ///< cumulative iteration count
    std::vector<double> gap;            ///< duality gap of the solver's current output
    std::vector<double> work;           ///< cumulative work in matrix-vector-product equivalents
    std::vector<double> lastIterateGap; ///< PRM+ only: gap of the last (non-averaged) iterate
};

struct ZeroSumSolution {
    Eigen::VectorXd x, y;            ///< returned strategies (best certified point)
    ZeroSumCertificate certificate;  ///< of (x, y), recomputed from A
    bool converged = false;          ///< certificate.gap() <= targetGap
    int64_t iterations = 0;          ///< total iterations (PRM+ + Newton + DRS)
    int64_t iterationsToTarget = -1; ///< first iteration at which the gap was <= target (-1: never)
    int64_t prmIterations = 0;
    int64_t newtonSteps = 0;      ///< accepted Newton steps
    int64_t drsSteps = 0;         ///< DRS fallback steps
    int64_t switchIteration = -1; ///< hybrid: iteration of the first switch to Newton (-1: none)
    int fallbacks = 0;            ///< hybrid: returns from Newton to PRM+
    int64_t matvecs = 0;          ///< full products with A or A^T
    double matvecEquivalents = 0; ///< all work, in full products (flops / 2nm)
    GapTrace trace;
    std::vector<double> ratioIteration; ///< last Newton phase: iteration of each ratio
    std::vector<double> residualRatio;  ///< last Newton phase: ||R(w_k+1)|| / ||R(w_k)||
    std::vector<double> gapRatio;       ///< last Newton phase: gap_k+1 / gap_k
    std::vector<int> ratioNewton;       ///< 1 where the step was an accepted Newton step, 0 for DRS
    double finalResidual = -1;          ///< ||R|| at the last Newton-phase iterate (-1: no Newton phase)
    Eigen::VectorXd lastW;              ///< last DRS point of the Newton phase (empty: none)
};

/// PRM+ alone; returns the averaged strategies.
ZeroSumSolution solvePrmPlus(const Eigen::MatrixXd& A, const ZeroSumSolverOptions& opt,
                             SolveMonitor& monitor);
/// Semi-smooth Newton from the uniform strategies (w0 = z0 - gamma F(z0)), DRS steps when the
/// Newton step is rejected; at most maxSsnIterations iterations.
ZeroSumSolution solveSsn(const Eigen::MatrixXd& A, const ZeroSumSolverOptions& opt, SolveMonitor& monitor);
/// PRM+ -> SSN hybrid with the stall fallback described above.
ZeroSumSolution solveHybrid(const Eigen::MatrixXd& A, const ZeroSumSolverOptions& opt, SolveMonitor& monitor);

/// 1 / ||A||_2 (largest singular value by power iteration on A^T A, deterministic start);
/// 1 when A is zero. `check` (optional) is called every few iterations and may throw.
double autoGamma(const Eigen::MatrixXd& A, const CheckFn& check = {});

} // namespace pl::games
