#pragma once
/// Black-box search of the visual-persuasion panel (spec 004 §14, optimisers adapted from text-prompt
/// optimisation, our reconstruction): a duel oracle over the stand-in agent that counts the queries
/// and logs them as revealed preferences, and three optimisers within a query budget (VFD:
/// cross-entropy proposals vs the incumbent; CVPO: Swiss tournaments of a population; VTG: a
/// Bradley-Terry critic with a UCB bonus). Deterministic from the Rng; not thread-safe (one run).
#include "convimg/PersuasionWorld.h"

#include <functional>
#include <map>
#include <utility>

namespace pl::convimg {

/// Wilson score interval (z = 1.96) of k successes in n trials: {lower, upper}; {0, 1} for n = 0.
std::pair<double, double> wilsonInterval(double k, double n);

/// Duels between variants of the products, answered by the agent (utilities cached per image).
class DuelOracle {
public:
    /// One logged duel: challenger a against b, s = +1 when a was chosen, o = +1 when a was first.
    struct Record {
        Variant a, b;
        int s = 0, o = 0;
    };
    DuelOracle(const PersuasionAgent& agent, int products, int size);
    /// Utility of product p with variant v (normalised first when asked).
    double utility(int product, const Variant& v, bool normalised = false);
    /// n duels of a against b, alternating the order (a first on even i) and cycling the products;
    /// returns a's wins. Logged duels count as queries and enter log().
    int duels(const Variant& a, const Variant& b, int n, Rng& rng, bool logged, bool normalised = false);
    int queries() const { return m_queries; }
    const std::vector<Record>& log() const { return m_log; }
    int products() const { return m_products; }

private:
    const PersuasionAgent& m_agent;
    int m_products, m_size, m_queries = 0, m_cursor = 0;
    std::map<std::pair<int, Variant>, double> m_cache[2];
    std::vector<Record> m_log;
};

enum class Optimiser { Vfd, Cvpo, Vtg };

/// What a search returns: the best variant, every proposed variant, and per-iteration incumbents.
struct SearchOutcome {
    Variant best;
    std::vector<Variant> proposed;   ///< distinct proposals in order of first appearance
    std::vector<Variant> incumbents; ///< after each iteration
};

/// Runs the optimiser for \a iterations within \a budget logged duels; \a tick is called once per
/// iteration (cancellation and progress).
SearchOutcome runSearch(Optimiser opt, DuelOracle& oracle, int budget, int iterations, double l2, Rng rng,
                        const std::function<void(int)>& tick);

/// Edit-difference features of the oracle's log (rows psi(a) - psi(b)), with s and o.
Eigen::MatrixXd logFeatures(const std::vector<DuelOracle::Record>& log, std::vector<int>& s,
                            std::vector<int>& o);

/// A random variant: each group changed with probability \a p to a uniform option.
Variant randomVariant(Rng& rng, double p);

} // namespace pl::convimg
