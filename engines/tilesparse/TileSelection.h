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

/// estimateImportance() with the per-context work done once: the indexer's projection of K (and
/// its projection matrix) or Quest's per-block key min/max. Immutable; thread-safe.
class ImportanceEstimator {
public:
    ImportanceEstimator(Estimator e, const Mat& K, const TileGrid& grid, int rank, double temperature,
                        const Rng& rng);
    /// Same result as estimateImportance() with the constructor's arguments.
    Mat estimate(const Mat& Q, const Mat* probs) const;

private:
    Estimator m_e;
    TileGrid m_grid;
    double m_temperature;
    Mat m_proj;         ///< indexer: d x rank
    Mat m_keysT;        ///< indexer: rank x N projected keys (transposed)
    Mat m_kmax, m_kmin; ///< quest: blocks x d
};

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

/// Tier sizes of a configuration at a free budget (tiles left after the forced blocks):
/// k_tau blocks x m_tau groups per tier (m1 = G).
struct TierShape {
    int k1 = 0, k2 = 0, k3 = 0;
    int m2 = 1, m3 = 1;
};
TierShape tierShape(int groups, int freeTiles, const TierConfig& cfg);

/// One importance map prepared for the tiered selector: blocks ranked by sum_g I(g,b) (forced
/// blocks excluded, ties by lower index) and, per block, the groups by descending I(g,b) with
/// prefix sums of a value map (I itself, or e.g. the true tile mass) in that group order. Makes
/// each tiered selection and its summed value O(selected blocks) instead of a sort per call, so
/// the autotuner can score its whole grid cheaply. Immutable after construction; thread-safe.
class TierPlanner {
public:
    /// `value` (same shape as `imp`, default: imp) is what selectedValue() sums.
    TierPlanner(const Mat& imp, const std::vector<int>& forced, const Mat* value = nullptr);
    /// The tiered selection (same tiles as selectTiered()).
    TileMask select(int budgetTiles, const TierConfig& cfg) const;
    /// Sum of the value map over select()'s tiles, forced tiles included.
    double selectedValue(int budgetTiles, const TierConfig& cfg) const;
    /// Sum of the value map over all tiles.
    double totalValue() const { return m_total; }

private:
    int m_groups = 0, m_blocks = 0;
    std::vector<int> m_forced;
    std::vector<int> m_order;      ///< non-forced blocks, best first
    std::vector<int> m_groupOrder; ///< per rank p: G groups, best first
    std::vector<double> m_cum;     ///< per rank p: G + 1 prefix sums of the value in group order
    double m_forcedValue = 0, m_total = 0;
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
    int bestIndex = 0; ///< index of best in the grid
    double bestObjective = 0;
    std::vector<double> objectives; ///< per grid entry, mean retained share of the value map
};

/// Scores every grid configuration on the calibration importance maps (objective = mean
/// estimated retained mass) and keeps the best (first on ties).
AutotuneResult autotune(const std::vector<Mat>& calibration, int budgetTiles, const std::vector<int>& forced,
                        const std::vector<TierConfig>& grid);
/// The same on prepared calibration steps: each planner selects with its importance estimate and
/// the objective is the mean over planners of selectedValue / totalValue (the retained share of
/// the planner's value map: the estimate itself, or the exact tile mass of a past step).
AutotuneResult autotune(const std::vector<TierPlanner>& calibration, int budgetTiles,
                        const std::vector<TierConfig>& grid);

} // namespace pl::tilesparse
