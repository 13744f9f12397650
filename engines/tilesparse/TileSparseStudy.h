#pragma once
/// The budget sweep of the tilesparse panel: for each compute budget, every method's tile
/// selection on held-out decode steps, exact sparse attention on it and its quality (relative
/// output error, true retained mass, top-1 agreement of synthetic logits). Pure computation;
/// deterministic in its arguments.

#include "TileAttention.h"
#include "TileSelection.h"

#include "core/Rng.h"

#include <map>
#include <string>
#include <vector>

namespace pl::tilesparse {

/// Method keys in result order.
const std::vector<std::string>& methodKeys(); // k_only, qk2d, qk2d_global, tiered

struct StudyInput {
    Mat K, V;
    std::vector<Mat> calibQ; ///< decode steps the autotuner scores on
    std::vector<Mat> evalQ;  ///< held-out decode steps (at least one)
    int heads = 1;           ///< rows = heads x mtpTokens, row = h * mtp + t
    int mtpTokens = 1;
    std::vector<int> retrievalHead; ///< per head: needle index or -1 (may be empty)
    std::vector<int> needleKey;     ///< token of each needle
};

struct StudySettings {
    int groupRows = 4;
    int blockKeys = 16;
    int recentBlocks = 1;
    Estimator estimator = Estimator::Indexer;
    int indexerRank = 16;
    double questTemperature = 1.0;
    std::vector<double> budgets; ///< requested tile fractions, ascending
    double displayBudget = 0.05;
    bool oracleCheck = true;          ///< evaluate claim C1 (oracle masses) on the first held-out step
    int readoutClasses = 256;         ///< rows of the fixed random W_o for top-1 agreement (spec: 1000)
    bool heldOutGrid = true;          ///< score every autotuner configuration on the held-out steps too
    std::vector<std::string> methods; ///< subset of methodKeys() to evaluate (empty = all)
    bool top1AllBudgets = true;       ///< false: top-1 agreement only at the display budget (NaN elsewhere)
};

struct MethodCurve {
    std::vector<double> tileFraction;  ///< actual computed tiles / all tiles
    std::vector<double> blockFraction; ///< distinct blocks fetched / all blocks
    std::vector<double> error, mass, top1;
};

struct StudyResult {
    TileGrid grid;
    std::map<std::string, MethodCurve> curves;
    std::vector<TierConfig> chosen; ///< the autotuner's pick per budget
    std::vector<int> chosenIndex;   ///< its index in tunerGrid
    std::vector<double> chosenObjective;
    // At the display budget, first held-out step:
    Mat denseOutput; ///< rows x d_v
    Mat tileMass;    ///< G x N_b, true mass / rows in group
    Mat importance;  ///< G x N_b, the estimator's view
    std::map<std::string, TileMask> displayMasks;
    std::map<std::string, std::vector<double>> headMass; ///< per head, mean over its rows
    std::map<std::string, double> needleHit;             ///< includes "dense"
    std::vector<TierConfig> tunerGrid;
    std::vector<double> tunerObjectives; ///< at the display budget
    int displayIndex = 0;                ///< index of the display budget in budgets
    // Claim C1 (oracle): min over budgets of mass(global) - mass(K-only) and of the per-group
    // difference uniform-2D minus K-only.
    double c1GlobalMargin = 0, c1GroupMargin = 0;
    double denseTop1Ties = 0;
    /// With heldOutGrid: per budget, per tunerGrid entry, the true retained attention mass (mean
    /// per row, mean over the held-out steps) of that tiered configuration selected with the
    /// held-out step's own importance estimate.
    std::vector<std::vector<double>> heldOutMass;
};

StudyResult runStudy(const StudyInput& in, const StudySettings& s, const Rng& rng, const Poll& poll,
                     const std::function<void(double)>& progress = {});

} // namespace pl::tilesparse
