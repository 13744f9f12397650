#pragma once
/// Follow-the-regularized-leader dynamics on two-player games, with per-step diagnostics recorded
/// on a log-spaced grid of iterations.
///
/// Iterates: (x_0, y_0) is the first play (a pure profile, or uniform). With cumulative utilities
/// U^x_t = sum_{s<=t} A y_s and U^y_t = sum_{s<=t} B^T x_s:
///   entropic FTRL   x_{t+1} = softmax(eta_t U^x_t)
///   Euclidean FTRL  x_{t+1} = Proj_simplex(eta_t U^x_t)
///   MWU (greedy)    x_{t+1} = softmax(L_t), L_t = sum_{s<=t} eta_s A y_s (online mirror descent from the
///                   uniform prior; identical to entropic FTRL for a constant eta, different when it
///                   vanishes)
///   fictitious play x_{t+1} = e_{argmax U^x_t}, ties by FtrlConfig::tieBreak (exact for integer payoffs)
/// Alternating updates: the column player responds to x_{t+1} instead of x_t.
/// eta_t = eta (constant) or eta / sqrt(t + 1) (vanishing). Pure function; thread-safe.

#include "FictitiousPlay.h"
#include "FtrlGame.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace pl {
class RunContext;
}

namespace pl::games {

enum class FtrlDynamicsKind { Entropic, Euclidean, Mwu, FictitiousPlay };
enum class FtrlUpdate { Simultaneous, Alternating };
enum class FtrlSchedule { Constant, Vanishing };

/// "ftrl_entropic" | "ftrl_euclidean" | "mwu" | "fictitious_play"; throws pl::UsageError.
FtrlDynamicsKind parseFtrlDynamics(const std::string& text);
/// "simultaneous" | "alternating"; throws pl::UsageError.
FtrlUpdate parseFtrlUpdate(const std::string& text);
/// "constant" | "vanishing"; throws pl::UsageError.
FtrlSchedule parseFtrlSchedule(const std::string& text);

struct FtrlConfig {
    FtrlDynamicsKind dynamics = FtrlDynamicsKind::Entropic;
    FtrlUpdate update = FtrlUpdate::Simultaneous;
    FtrlSchedule schedule = FtrlSchedule::Constant;
    double eta = 3.0;           ///< learning rate (eta_0 for the vanishing schedule), > 0
    int64_t maxSteps = 1000000; ///< last iterate index computed
    double epsilon = 0.01;      ///< epsilon-NE threshold on the Nash gap (payoff units)
    double tau = 0.01;          ///< "period" = a pure profile holding >= 1 - tau mass
    bool startPure = true;      ///< first play pure (firstRow, firstCol); else uniform
    int firstRow = 0;
    int firstCol = 0;
    bool stopAtTarget = false;      ///< stop at the first iterate with >= 1 - tau mass on the target
    bool record = true;             ///< record diagnostics on the log grid
    int pointsPerDecade = 20;       ///< grid density (plus every iterate below 10 and the last one)
    int maxRecordedStrategies = 16; ///< record full mixed strategies when both players have at most this many
    TieBreak tieBreak = TieBreak::Lowest; ///< fictitious play only
    uint64_t seed = 0;                    ///< fictitious play with random tie-breaking only
};

/// Diagnostics on the recorded iterations (all vectors have the same length).
struct FtrlTrace {
    std::vector<double> step;        ///< iterate index t
    std::vector<double> gap;         ///< Nash gap of (x_t, y_t): max over players of best reply - payoff
    std::vector<double> gapAverage;  ///< Nash gap of the time averages up to t
    std::vector<double> potential;   ///< x_t^T Phi y_t (NaN without a potential)
    std::vector<double> massTarget;  ///< x_t[target row] * y_t[target col] (NaN without a target)
    std::vector<double> trajX;       ///< 1 - E_x[i]/(rows-1): P(row 1) for two strategies
    std::vector<double> trajY;       ///< 1 - E_y[j]/(cols-1): P(col 1) for two strategies
    std::vector<int64_t> period;     ///< row*cols + col of the profile with >= 1 - tau mass, or -1
    std::vector<Eigen::VectorXd> xs; ///< full x_t (only when small enough, see maxRecordedStrategies)
    std::vector<Eigen::VectorXd> ys;

    Eigen::VectorXd x, y; ///< final iterates
    Eigen::VectorXd xAverage, yAverage;
    int64_t stepsRun = 0; ///< index of the final iterate
    double finalGap = 0;
    double finalGapAverage = 0;
    int64_t firstEpsilonStep = -1; ///< first t with gap <= epsilon (-1: never)
    int64_t firstTargetStep = -1;  ///< first t with >= 1 - tau mass on the target (-1: never)
};

/// Nash gap max(max_i (Ay)_i - x^T A y, max_j (B^T x)_j - x^T B y) from the two products.
double nashGapFromProducts(const Eigen::VectorXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& Ay,
                           const Eigen::VectorXd& BtX);

/// Runs the dynamics. `potential` (optional, rows x cols) feeds the potential diagnostic. Polls
/// ctx (optional) about every million flops; reports progress. Throws pl::Cancelled, UsageError.
FtrlTrace runFtrl(const FtrlGame& game, const FtrlConfig& config, const Eigen::MatrixXd* potential = nullptr,
                  RunContext* ctx = nullptr);

} // namespace pl::games
