#pragma once
/// The stages of one aporia-hallucination run (AporiaEngine::run): data and embeddings, geometry
/// and the Fisher input, label draws with every method, F1 against the number of labels, the
/// figures' extracts (shown prompt, LP subgraph) and the claims. Holds the run's state; one thread.

#include "AporiaGeometry.h"
#include "ResponseSet.h"

#include "core/Engine.h"
#include "core/Rng.h"

#include <map>

namespace pl::embedgeo {

/// One evaluation of every method with one set of seeds.
struct AporiaDraw {
    std::vector<int> seedIdx, seedY;                       ///< seed rows and their labels
    std::vector<char> evalMask;                            ///< rows scored (not seeds, labelled)
    Eigen::VectorXd fisher;                                ///< Fisher score of every row
    std::map<std::string, std::vector<int64_t>> predicted; ///< by method
    LpResult lp;                                           ///< APORIA-LP
    std::vector<Eigen::MatrixXd> snapshots;                ///< F at iterations 0, 1, 2, 5 (if asked)
    LpGraph graph;                                         ///< APORIA-LP graph (if asked)
    Eigen::MatrixXd z;                                     ///< the LP space [Fisher score, PCs] (if asked)
};

class AporiaRun {
public:
    AporiaRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc);
    void buildData(const InputList& inputs);
    void geometry();
    void evaluate();
    void f1VsLabels();
    void figuresData();
    void claims();

private:
    std::vector<int> drawSeeds(int nLabels, Rng& rng) const;
    AporiaDraw runDraw(const std::vector<int>& seedIdx, bool keep) const;
    std::map<std::string, double> f1Of(const AporiaDraw& d) const;
    double sweepAsymmetry(double a) const;

    const ParamSet& m_p;
    RunContext& m_ctx;
    ResultDocument& m_doc;
    ResponseSet m_set;
    bool m_standIn = false;
    bool m_evalMode = false;
    PromptGeometry m_geo;
    Eigen::MatrixXd m_X;   ///< Fisher input: PCA(prompt-centred) ++ standardised features
    Eigen::MatrixXd m_pcs; ///< top PCs of the prompt-centred embedding, standardised (LP space)
    LpGraph m_rawGraph;    ///< kNN graph on the raw embeddings (lp_raw)
    AporiaDraw m_first;    ///< the first draw, kept for the figures
};

} // namespace pl::embedgeo
