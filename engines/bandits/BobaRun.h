#pragma once
/// One run of the boba-screening engine as named stages: the library and its top set, the
/// partitions, the five screens, the γ_A → 0 study, the result and the claims. Used by
/// BobaScreeningEngine::run() only; call the stages in the order declared. Single thread.

#include "BobaScreen.h"
#include "ScreenLibrary.h"

#include "core/Engine.h"

#include <map>
#include <string>
#include <vector>

namespace pl::bandits {

class BobaRun {
public:
    /// \a p, \a ctx and \a doc must outlive the run.
    BobaRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc);

    /// Stage 1: the library (file or stand-in), the values to maximise, the top set, round 0.
    void buildLibrary(const InputList& inputs);
    /// Stage 2: the key / random / k-means partitions.
    void makePartitions();
    /// Stage 3: the five screens.
    void screen();
    /// Stage 4 (stand-in with γ_A > 0): BOBA and BOBA on random partitions at γ_A = 0.
    void gammaStudy();
    /// Stage 5: metrics, curves, evaluation order, posterior, arm pulls, score map.
    void packResults();
    /// Stage 6: the claims.
    void checkClaims();

private:
    void step(const std::string& status, double fraction);
    ScreenOutcome runMethod(const std::string& method, const ScreenLibrary& lib, const std::vector<double>& y,
                            const std::vector<bool>& top);
    void topSet(const std::vector<double>& y, std::vector<bool>& top) const;
    std::vector<int> armsByTrueMean(const std::vector<int>& arm, int numArms) const;

    const ParamSet& m_p;
    RunContext& m_ctx;
    ResultDocument& m_doc;
    ScreenSettings m_s;
    bool m_standIn = true;
    ScreenLibrary m_lib;
    std::vector<double> m_y;
    std::vector<bool> m_top;
    std::vector<int64_t> m_round0;
    std::vector<int> m_armMain, m_armRandom;
    int m_numArms = 0, m_numRandomArms = 0;
    std::map<std::string, ScreenOutcome> m_out;
    double m_gapGamma = 0, m_gapZero = 0;
    bool m_hasGammaStudy = false;
};

} // namespace pl::bandits
