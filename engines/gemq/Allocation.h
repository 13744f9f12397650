#pragma once
/// Bit allocation over the experts of an MoE (specs-004 §19): the items are the experts (row
/// l E + e of the cost matrix), the options the bit-widths, weight = bits x params. `global` solves
/// one relaxed multiple-choice knapsack over all layers with sum b n z <= avg_bits sum n (GEMQ);
/// otherwise one per layer with that layer's own budget (the PMQ-like baseline). Fractional experts
/// keep their lower option. Pure functions; any thread.
#include "gemq/Mckp.h"

#include <Eigen/Core>

#include <vector>

namespace pl::gemq {

/// The allocation problem: costs (L E) x bits, params per item.
struct AllocProblem {
    int layers = 0, experts = 0;
    std::vector<int> bits;
    Eigen::MatrixXd cost;
    std::vector<double> params;
};

struct Allocation {
    std::vector<int> option; ///< per item: index into bits
    double lpObjective = 0;  ///< LP optimum (sum over layers when layer-wise)
    double cost = 0;         ///< cost of the integer allocation
    double avgBits = 0;      ///< sum b n / sum n of the integer allocation
    int fractional = 0;      ///< experts that were split (0 or 1 per knapsack)
};

/// The knapsack items of items [from, to).
std::vector<MckpItem> mckpItems(const AllocProblem& p, int from, int to);

/// Smallest and largest feasible average bit-width (min and max of bits).
double minAverageBits(const AllocProblem& p);

/// Solves globally or per layer. Throws std::invalid_argument when avg_bits is infeasible.
Allocation allocate(const AllocProblem& p, double avgBits, bool global);

/// The same LP optimum by CLP (sum over layers when layer-wise).
double allocateLpByClp(const AllocProblem& p, double avgBits, bool global);

/// The L x E matrix of allocated bit-widths.
Eigen::MatrixXd bitsMatrix(const AllocProblem& p, const Allocation& a);

} // namespace pl::gemq
