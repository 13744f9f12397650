#include "ArmPolicy.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pl::bandits {

ArmPolicy armPolicyFromString(const std::string& s) {
    if (s == "ucb")
        return ArmPolicy::Ucb;
    if (s == "thompson")
        return ArmPolicy::Thompson;
    if (s == "egreedy")
        return ArmPolicy::EpsilonGreedy;
    if (s == "greedy")
        return ArmPolicy::Greedy;
    if (s == "uniform")
        return ArmPolicy::Uniform;
    throw UsageError("policy: unknown '" + s + "'");
}

std::vector<int> chooseArms(ArmPolicy policy, const std::vector<double>& pulls,
                            const std::vector<double>& meanReward, const std::vector<bool>& eligible, int m,
                            double c, Rng& rng) {
    const int A = int(pulls.size());
    std::vector<int> order(static_cast<size_t>(A));
    std::iota(order.begin(), order.end(), 0);
    for (size_t k = order.size(); k > 1; --k) // random tie order
        std::swap(order[k - 1], order[size_t(rng.uniformInt(uint64_t(k)))]);
    double N = 0;
    for (double n : pulls)
        N += n;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> index(size_t(A), -inf);
    for (int a = 0; a < A; ++a) {
        if (!eligible[size_t(a)])
            continue;
        const double n = pulls[size_t(a)], mu = meanReward[size_t(a)];
        switch (policy) {
        case ArmPolicy::Ucb:
            index[size_t(a)] = n > 0 ? mu + c * std::sqrt(2 * std::log(std::max(N, 1.0)) / n) : inf;
            break;
        case ArmPolicy::Thompson:
            index[size_t(a)] = mu + c * rng.normal() / std::sqrt(n + 1);
            break;
        case ArmPolicy::EpsilonGreedy:
        case ArmPolicy::Greedy:
            index[size_t(a)] = mu;
            break;
        case ArmPolicy::Uniform:
            index[size_t(a)] = 0;
            break;
        }
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return index[size_t(a)] > index[size_t(b)]; });
    std::vector<int> out;
    std::vector<bool> taken(size_t(A), false);
    size_t next = 0;
    for (int slot = 0; slot < m; ++slot) {
        int pick = -1;
        if (policy == ArmPolicy::EpsilonGreedy && rng.uniform() < 0.1) {
            std::vector<int> pool;
            for (int a = 0; a < A; ++a)
                if (eligible[size_t(a)] && !taken[size_t(a)])
                    pool.push_back(a);
            if (!pool.empty())
                pick = pool[size_t(rng.uniformInt(pool.size()))];
        }
        while (pick < 0 && next < order.size()) {
            const int a = order[next++];
            if (eligible[size_t(a)] && !taken[size_t(a)])
                pick = a;
        }
        if (pick < 0)
            break;
        taken[size_t(pick)] = true;
        out.push_back(pick);
    }
    return out;
}

} // namespace pl::bandits
