#pragma once
/// The LP relaxation of the multiple-choice knapsack (specs-004 §19): choose one option per item,
/// minimise sum c_ij z_ij subject to sum_j z_ij = 1, sum w_ij z_ij <= capacity, 0 <= z <= 1. Solved
/// exactly by the greedy walk over each item's lower convex hull of (weight, cost) (Sinha & Zoltners
/// 1979): start every item at its lightest option, take hull segments by increasing slope
/// dc/dw (ties: item, then segment) while they fit; the first one that does not fit is taken in
/// part (the only fractional item), and the integer solution keeps its lower option. Also the same
/// LP by COIN-OR CLP (dense, every option a column) as a cross-check. Pure functions; any thread.
#include <vector>

namespace pl::gemq {

/// One item (an expert): its options (bit-widths) as weights (bits x params) and costs.
struct MckpItem {
    std::vector<double> weight;
    std::vector<double> cost;
};

struct MckpSolution {
    std::vector<int> choice;     ///< integer option per item (the fractional item at its lower option)
    int fractionalItem = -1;     ///< the item split between two options (-1: none)
    int upperOption = -1;        ///< its upper option
    double fraction = 0;         ///< the share z on the upper option, in (0, 1)
    double lpObjective = 0;      ///< optimum of the relaxation
    double integerObjective = 0; ///< cost of `choice`
    double weightUsed = 0;       ///< total weight of `choice`
};

/// Option indices on the lower convex hull of (weight, cost), by increasing weight, dominated
/// options (heavier and not cheaper) removed. Equal weights keep the cheapest (then lowest index).
std::vector<int> lowerHull(const MckpItem& item);

/// Sum over items of the lightest option's weight (the smallest feasible capacity).
double minimumWeight(const std::vector<MckpItem>& items);

/// The exact LP optimum by the convex-hull greedy. Throws std::invalid_argument when capacity <
/// minimumWeight(items) (beyond a relative 1e-12) or an item has no option.
MckpSolution solveMckpGreedy(const std::vector<MckpItem>& items, double capacity);

/// The same LP by CLP's dual simplex (costs and weights normalised before solving, objective given
/// back in the caller's units). Throws std::runtime_error when CLP reports no optimum.
double solveMckpLpClp(const std::vector<MckpItem>& items, double capacity);

} // namespace pl::gemq
