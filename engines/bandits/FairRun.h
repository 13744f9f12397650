#pragma once
/// One run of the fair-linear-bandits engine as named stages: the problem, its designs, the
/// simulations at the run's p and horizon, the sweeps over p and T, the slow slope study, the
/// result and the claims. Used by FairLinearBanditsEngine::run() only; call the stages in the
/// order declared. Single thread.

#include "LinearBandits.h"

#include "core/Engine.h"

#include <map>
#include <vector>

namespace pl::bandits {

class FairRun {
public:
    /// \a p, \a ctx and \a doc must outlive the run.
    FairRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc);

    /// Stage 1: arms and means (files or stand-in; notes into the result).
    void buildProblem(const InputList& inputs);
    /// Stage 2: G-optimal design (Frank–Wolfe) and floor design (CLP).
    void computeDesigns();
    /// Stage 3: every algorithm at the run's p and T (expected reward per round, pulls).
    void simulateMain();
    /// Stage 4: R_p for p ∈ {−2, −1, 0, 0.5, 1} (FairLin reruns where c₁(p) changes).
    void sweepP();
    /// Stage 5: R_p at T/16 … T.
    void sweepT();
    /// Stage 6 (only with `slow`): FairLin-PE over T ∈ {10³ … 10⁵} for every p of the sweep.
    void slowSlope();
    /// Stage 7: designs, arm cloud, expected rewards, pulls, regrets into the result.
    void packResults();
    /// Stage 8: the claims.
    void checkClaims();

private:
    /// Mean over runs of μ(x_t) for t = 1..T (and pulls per arm, if asked).
    std::vector<double> expectedReward(LinearAlgorithm alg, int64_t T, double p, Eigen::VectorXd* pulls);
    void step(const std::string& status);

    const ParamSet& m_p;
    RunContext& m_ctx;
    ResultDocument& m_doc;
    LinearSettings m_s;
    int m_runs = 20;
    LinearProblem m_P;
    std::map<LinearAlgorithm, std::vector<double>> m_reward;
    std::map<LinearAlgorithm, Eigen::VectorXd> m_pulls;
    std::map<LinearAlgorithm, std::vector<double>> m_regretVsP;
    std::vector<double> m_sweepPs;
    std::vector<double> m_slowRegret[5];
    std::vector<double> m_slowTs;
    double m_work = 0, m_totalWork = 1;
};

} // namespace pl::bandits
