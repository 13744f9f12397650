#pragma once
/// One run of the torus-graph engine as named stages: data (Gibbs samples of a planted sparse torus
/// graph, or phases from the user's matrix), closed-form and stochastic score matching, edge tests
/// and the coupling network, edge-recovery claims, the timed scaling study, the TG-HMM and AR-TG
/// transfer entropy. Used by TorusGraphEngine::run() only; call the stages in the order declared.
/// Single thread; \a params, \a ctx and \a doc must outlive the run.

#include "ArTorus.h"
#include "ScoreMatching.h"
#include "TorusGraphEngine.h"
#include "TorusHmm.h"
#include "TorusModel.h"
#include "TorusSampler.h"

#include "core/ResultDocument.h"
#include "core/Rng.h"
#include "core/RunContext.h"

#include <string>
#include <vector>

namespace pl::torusgraph {

class TorusRun {
public:
    TorusRun(const InputList& inputs, const ParamSet& params, RunContext& ctx, ResultDocument& doc);

    /// Stage 1: the phases (streams "planted", "gibbs" when synthetic), channel names, electrode
    /// coordinates and the trigonometric tables.
    void prepareData();
    /// Stage 2: closed-form score matching (on the GPU when the backend says so).
    void fitClosedForm();
    /// Stage 3: stochastic score matching (stream "ssm") against the closed form.
    void fitStochastic();
    /// Stage 4: Wald edge tests, coupling matrices, parameters and the coupling network.
    void testEdges();
    /// Stage 5: the model density and samples of one channel pair for the torus view.
    void packTorusPair();
    /// Stage 6: edge recovery against the planted graph (synthetic data) and the SSM-vs-closed-form claim.
    void checkRecoveryClaims();
    /// Stage 7: wall-time scaling of the closed form and of SSM iterations over d (stream "scaling";
    /// only with scaling = timed).
    void runScalingStudy();
    /// Stage 8: the TG-HMM on switching data (streams "hmm-planted", "hmm-sample", "hmm-fit").
    void runHmm();
    /// Stage 9: AR-TG transfer entropy (streams "ar-sim", "te", "te-claim", "te-vs-T").
    void runArTg();

private:
    void loadUserData();
    void readCoordinates();
    void checkEdgeRecovery();
    void timeClosedForm(Rng& sr, Series& build, Series& solve);
    void timeSsmIterations(Rng& sr, Series& iter);
    void packHmm(const HmmResult& hm, const std::vector<int64_t>& truth, const std::vector<Vec>& trueEta,
                 int K, int hd, int64_t T);
    void packTransferEntropy(const RowMat& ax, bool arSynthetic, int lag);
    void checkArDirection(const TransferEntropyResult& te, const TransferEntropyOptions& to, int lag);
    void packTeVsT(const TransferEntropyOptions& to, int lag);

    const InputList& m_inputs;
    const ParamSet& m_p;
    RunContext& m_ctx;
    ResultDocument& m_doc;
    Poll m_poll;
    bool m_useGpu = false;
    Rng m_root;

    const MatrixInput* m_dataIn = nullptr;
    const MatrixInput* m_coordIn = nullptr;
    RowMat m_x; ///< n x d phases
    PlantedTg m_planted;
    bool m_synthetic = true;
    std::vector<std::string> m_names; ///< channel names (empty unless one per channel)
    double m_lambda = 0;
    int m_d = 0;
    int64_t m_n = 0;
    Mat m_coords;
    TrigTables m_tables;

    GammaH m_gh;
    Vec m_etaCf;
    SsmOptions m_so;
    SsmResult m_ssm;
    double m_ssmErr = 0;
    const Vec* m_eta = nullptr; ///< the reported estimate (closed form or SSM)

    EdgeTests m_tests;
    bool m_doTests = false;
    double m_alpha = 0.05;
    Mat m_strength, m_strengthCf, m_strengthSsm, m_plv;
};

} // namespace pl::torusgraph
