#pragma once
/// Block-importance estimation (the "indexer") and the tile selectors of the tilesparse panel:
/// K-only top-k blocks, QK-2D per group (uniform and global), tiered QK-2D and its autotuner.
/// Every selector always includes the forced blocks (attention sink = block 0 and the last
/// `recentBlocks` blocks) for all groups; they count against the budget. Pure functions.

#include "TileAttention.h"

#include "core/Rng.h"

#include <string>
#include <vector>

namespace pl::tilesparse {

enum class Estimator { Oracle, Indexer, Quest };
Estimator parseEstimator(const std::string& name);

/// Importance estimate I(g, b) >= 0 per tile (G x N_b). Oracle: the exact tile mass from `probs`.
/// Indexer: softmax of low-rank logits (Gaussian random projection to `rank` dims, drawn from
/// `rng`) aggregated per tile. Quest: per-row block upper bound sum_i max(q_i kmax_i, q_i kmin_i),
/// max over the group's rows, temperature softmax over blocks.
Mat estimateImportance(Estimator e, const Mat& Q, const Mat& K, const Mat* probs, const TileGrid& grid,
                       int rank, double temperature, const Rng& rng);

/// Forced blocks (sink + recent), ascending, without duplicates.
std::vector<int> forcedBlocks(const TileGrid& grid, int recentBlocks);

/// K-only: top floor(C/G) blocks by sum_g I(g,b); every group computes them.
TileMask selectKOnly(const Mat& imp, int budgetTiles, const std::vector<int>& forced);
/// QK-2D uniform: each group its own top floor(C/G) blocks.
TileMask selectQk2dUniform(const Mat& imp, int budgetTiles, const std::vector<int>& forced);
/// QK-2D global: the C tiles with the largest I(g,b) (forced tiles first).
TileMask selectQk2dGlobal(const Mat& imp, int budgetTiles, const std::vector<int>& forced);

/// One tiered configuration: tier 1 = k1 blocks x all groups; tier 2 = k2 blocks x m2 groups;
/// tier 3 = k3 blocks x m3 groups (levels = number of tiers in use).
struct TierConfig {
    int levels = 1;
    double k1Fraction = 1.0; ///< share of the free budget (C minus forced) spent on tier 1
    int m2 = 0;
    int m3 = 0;
    std::string label() const;
};

/// Tiered QK-2D: blocks ranked by sum_g I(g,b); each tier takes the next blocks and, per block,
/// the groups with the largest I(g,b). Total tiles <= C.
TileMask selectTiered(const Mat& imp, int budgetTiles, const std::vector<int>& forced, const TierConfig& cfg);

/// Sum of I over the selected tiles divided by the sum of I (estimated retained mass).
double estimatedRetained(const Mat& imp, const TileMask& mask);

/// The autotuner's grid for G groups: levels 1; levels 2 with k1/C in {0.1..0.9} and m2 in
/// {G/2, G/4, G/8}; levels 3 with m3 in {G/8, G/16} (duplicates removed, m >= 1).
std::vector<TierConfig> autotuneGrid(int groups);

struct AutotuneResult {
    TierConfig best;
    double bestObjective = 0;
    std::vector<double> objectives; ///< per grid entry, mean estimated retained mass
};

/// Scores every grid configuration on the calibration importance maps (objective = mean
/// estimated retained mass) and keeps the best (first on ties).
AutotuneResult autotune(const std::vector<Mat>& calibration, int budgetTiles, const std::vector<int>& forced,
                        const std::vector<TierConfig>& grid);

} // namespace pl::tilesparse
