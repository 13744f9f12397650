#pragma once
/// FTRL / MWU / fictitious play for N-player games given as payoff tensors (NormalFormGame,
/// Gambit order). Same update rules and diagnostics as FtrlDynamics.h, generalised: the utility
/// of player p's pure strategy k is sum over profiles a with a_p = k of u_p(a) prod_{q != p} sigma_q(a_q).
/// Alternating updates are sequential in player order (player p sees the new strategies of
/// players < p). Cost O(N^2 * profiles) per step. Pure function; thread-safe.

#include "FtrlDynamics.h"
#include "Game.h"

#include <Eigen/Core>
#include <vector>

namespace pl::games {

struct FtrlTensorTrace {
    std::vector<double> step;                   ///< iterate index t
    std::vector<double> gap;                    ///< Nash gap of sigma_t (max over players)
    std::vector<double> potential;              ///< expected potential (NaN without one)
    std::vector<double> massTarget;             ///< prod_p sigma_p[target_p] (NaN without a target)
    std::vector<int64_t> period;                ///< flat profile index holding >= 1 - tau mass, or -1
    std::vector<std::vector<double>> projected; ///< [player][record]: 1 - E[k]/(n_p - 1)
    std::vector<Eigen::VectorXd> final;         ///< sigma at the last iterate, per player
    std::vector<Eigen::VectorXd> average;       ///< time averages, per player
    int64_t stepsRun = 0;
    double finalGap = 0;
    int64_t firstEpsilonStep = -1;
    int64_t firstTargetStep = -1;
};

/// Runs the dynamics on an N-player game (N >= 2). `phiFlat` (optional) is the potential over
/// profiles in Gambit order; `target` (optional) a pure profile. config.firstRow/firstCol give the
/// first play of players 0 and 1; other players start at strategy 0 (or uniform when !startPure).
FtrlTensorTrace runFtrlTensor(const NormalFormGame& game, const FtrlConfig& config,
                              const std::vector<double>* phiFlat = nullptr,
                              const std::vector<int>* target = nullptr, RunContext* ctx = nullptr);

/// Pure Nash equilibrium with the largest payoff sum (first in Gambit order among equals), or empty.
std::vector<int> bestPureNashTensor(const NormalFormGame& game);

} // namespace pl::games
