#pragma once
/// The stages of one negative-label-ood run (NegLabelOodEngine::run): data, main scores, the
/// picked image's worst cases, the (α, ρ) AUROC map, the claims (ρ tuned on clean validation data,
/// outlier sensitivity, ESS at matched AUROC). Holds the run's state; one thread.

#include "NegLabelData.h"

#include "core/Engine.h"

namespace pl::embedgeo {

class NegLabelRun {
public:
    NegLabelRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc);
    void buildData(const InputList& inputs);
    void mainScores();
    void pickedWeights();
    void alphaRhoMap();
    void claims();

private:
    double tunedRho(bool renyi, double alpha, std::vector<double>* aurocs) const;
    NegLabelData subsample(const NegLabelData& d, int perSide, const char* stream) const;

    const ParamSet& m_p;
    RunContext& m_ctx;
    ResultDocument& m_doc;
    NegLabelData m_test;       ///< the scored data (negatives mined and with `outliers` added)
    NegLabelData m_clean;      ///< the same without the `outliers` synonyms
    NegLabelData m_validation; ///< clean, for tuning ρ
    Eigen::MatrixXd m_outlierBank;
};

} // namespace pl::embedgeo
