#include "convimg/PersuasionSearch.h"

#include "convimg/BradleyTerry.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::convimg {

std::pair<double, double> wilsonInterval(double k, double n) {
    if (n <= 0)
        return {0.0, 1.0};
    const double z = 1.959963984540054, p = k / n, z2 = z * z;
    const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

DuelOracle::DuelOracle(const PersuasionAgent& agent, int products, int size)
    : m_agent(agent), m_products(products), m_size(size) {}

double DuelOracle::utility(int product, const Variant& v, bool normalised) {
    auto& cache = m_cache[normalised ? 1 : 0];
    const auto key = std::make_pair(product, v);
    const auto it = cache.find(key);
    if (it != cache.end())
        return it->second;
    const Image img = renderProduct(product, v, m_size);
    const double u = m_agent.utility(normalised ? normaliseImage(img) : img);
    cache.emplace(key, u);
    return u;
}

int DuelOracle::duels(const Variant& a, const Variant& b, int n, Rng& rng, bool logged, bool normalised) {
    int wins = 0;
    for (int i = 0; i < n; ++i) {
        const int p = m_cursor++ % m_products;
        const bool aFirst = i % 2 == 0;
        const double ua = utility(p, a, normalised), ub = utility(p, b, normalised);
        const double pa = aFirst ? m_agent.pFirst(ua, ub) : 1 - m_agent.pFirst(ub, ua);
        const bool aWon = rng.uniform() < pa;
        wins += aWon ? 1 : 0;
        if (logged) {
            ++m_queries;
            m_log.push_back({a, b, aWon ? 1 : -1, aFirst ? 1 : -1});
        }
    }
    return wins;
}

Variant randomVariant(Rng& rng, double p) {
    Variant v = originalVariant();
    for (size_t g = 0; g < v.size(); ++g)
        if (rng.uniform() < p)
            v[g] = 1 + int(rng.uniformInt(editGroups()[g].options.size()));
    return v;
}

Eigen::MatrixXd logFeatures(const std::vector<DuelOracle::Record>& log, std::vector<int>& s,
                            std::vector<int>& o) {
    Eigen::MatrixXd X(Eigen::Index(log.size()), editCount());
    s.clear();
    o.clear();
    for (size_t i = 0; i < log.size(); ++i) {
        X.row(Eigen::Index(i)) = (editIndicators(log[i].a) - editIndicators(log[i].b)).transpose();
        s.push_back(log[i].s);
        o.push_back(log[i].o);
    }
    return X;
}

namespace {

/// Even duel count for one comparison with \a share of the remaining budget.
int duelCount(int left, int share) {
    return std::max(2, (left / std::max(1, share)) & ~1);
}

void remember(SearchOutcome& out, const Variant& v) {
    if (std::find(out.proposed.begin(), out.proposed.end(), v) == out.proposed.end())
        out.proposed.push_back(v);
}

/// VFD: k proposals from per-group categoricals (cross-entropy updates from winners) against the
/// incumbent; the best is accepted when its Wilson lower bound exceeds 0.5.
void vfdIteration(DuelOracle& o, int left, Rng& rng, std::vector<std::vector<double>>& probs, Variant& inc,
                  SearchOutcome& out) {
    const int k = 4, n = duelCount(left, k);
    std::vector<std::pair<double, Variant>> scored;
    for (int c = 0; c < k; ++c) {
        Variant v = originalVariant();
        for (size_t g = 0; g < v.size(); ++g) {
            double u = rng.uniform(), acc = 0;
            for (size_t j = 0; j < probs[g].size(); ++j) {
                acc += probs[g][j];
                if (u < acc || j + 1 == probs[g].size()) {
                    v[g] = int(j);
                    break;
                }
            }
        }
        if (v == inc)
            continue;
        remember(out, v);
        const int wins = o.duels(v, inc, n, rng, true);
        scored.push_back({wilsonInterval(wins, n).first + 1e-9 * wins, v});
    }
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (scored.empty())
        return;
    std::vector<std::vector<double>> freq(probs.size());
    int elite = 0;
    for (const auto& [lcb, v] : scored) {
        if (elite == 2 || lcb < 0.35)
            break;
        for (size_t g = 0; g < v.size(); ++g) {
            freq[g].resize(probs[g].size(), 0.0);
            freq[g][size_t(v[g])] += 1;
        }
        ++elite;
    }
    if (elite > 0)
        for (size_t g = 0; g < probs.size(); ++g)
            for (size_t j = 0; j < probs[g].size(); ++j)
                probs[g][j] = 0.7 * probs[g][j] + 0.3 * freq[g][j] / elite;
    if (scored.front().first > 0.5)
        inc = scored.front().second;
}

/// One mutation: a random group set to a different option (adds, removes or swaps an edit).
Variant mutate(Variant v, Rng& rng) {
    const size_t g = size_t(rng.uniformInt(v.size()));
    const int k = int(editGroups()[g].options.size()) + 1;
    v[g] = (v[g] + 1 + int(rng.uniformInt(uint64_t(k - 1)))) % k;
    return v;
}

struct Member {
    Variant v;
    double wins = 0, games = 0;
    double rate() const { return games > 0 ? wins / games : 0.5; }
};

/// CVPO: one Swiss round (neighbours by score duel), every second round the bottom half is replaced
/// by mutations of the top half.
void cvpoIteration(DuelOracle& o, int left, int it, Rng& rng, std::vector<Member>& pop, SearchOutcome& out) {
    std::stable_sort(pop.begin(), pop.end(),
                     [](const Member& a, const Member& b) { return a.rate() > b.rate(); });
    const int n = duelCount(left, int(pop.size()) / 2);
    for (size_t i = 0; i + 1 < pop.size(); i += 2) {
        const int w = o.duels(pop[i].v, pop[i + 1].v, n, rng, true);
        pop[i].wins += w;
        pop[i].games += n;
        pop[i + 1].wins += n - w;
        pop[i + 1].games += n;
    }
    std::stable_sort(pop.begin(), pop.end(),
                     [](const Member& a, const Member& b) { return a.rate() > b.rate(); });
    if (it % 2 == 1) {
        const size_t half = pop.size() / 2;
        for (size_t i = half; i < pop.size(); ++i) {
            pop[i] = Member{mutate(pop[i - half].v, rng)};
            remember(out, pop[i].v);
        }
    }
}

/// VTG: a BT critic on every duel so far proposes the single-group change of the incumbent with the
/// highest predicted gain plus a UCB bonus (1 / sqrt(1 + duels that varied the edit)).
void vtgIteration(DuelOracle& o, int left, double l2, Rng& rng, Variant& inc, SearchOutcome& out) {
    std::vector<int> s, ord;
    const Eigen::MatrixXd X = logFeatures(o.log(), s, ord);
    const BtFit fit = fitBradleyTerry(X, s, ord, l2);
    const Eigen::VectorXd seen = X.cwiseAbs().colwise().sum().transpose();
    double bestScore = -1e300;
    Variant best = inc;
    for (size_t g = 0; g < inc.size(); ++g)
        for (int j = 0; j <= int(editGroups()[g].options.size()); ++j) {
            if (j == inc[g])
                continue;
            Variant v = inc;
            v[g] = j;
            const Eigen::VectorXd d = editIndicators(v) - editIndicators(inc);
            double bonus = 0;
            for (Eigen::Index e = 0; e < d.size(); ++e)
                bonus += d(e) > 0 ? 1.0 / std::sqrt(1.0 + seen(e)) : 0.0;
            const double score = fit.coef.dot(d) + 2.0 * bonus;
            if (score > bestScore) {
                bestScore = score;
                best = v;
            }
        }
    remember(out, best);
    const int n = duelCount(left, 1);
    const int wins = o.duels(best, inc, n, rng, true);
    if (wilsonInterval(wins, n).first > 0.5)
        inc = best;
}

} // namespace

SearchOutcome runSearch(Optimiser opt, DuelOracle& oracle, int budget, int iterations, double l2, Rng rng,
                        const std::function<void(int)>& tick) {
    SearchOutcome out;
    Variant inc = originalVariant();
    std::vector<std::vector<double>> probs;
    for (const auto& g : editGroups()) {
        std::vector<double> p(g.options.size() + 1, 0.5 / double(g.options.size()));
        p[0] = 0.5;
        probs.push_back(p);
    }
    std::vector<Member> pop{Member{inc}};
    while (pop.size() < 8) {
        pop.push_back(Member{randomVariant(rng, 0.3)});
        remember(out, pop.back().v);
    }
    for (int it = 0; it < iterations; ++it) {
        tick(it);
        const int left = (budget - oracle.queries()) / (iterations - it);
        if (left < 2)
            break;
        if (opt == Optimiser::Vfd) {
            vfdIteration(oracle, left, rng, probs, inc, out);
        } else if (opt == Optimiser::Cvpo) {
            cvpoIteration(oracle, left, it, rng, pop, out);
            inc = pop.front().v;
        } else if (it == 0) { // VTG: explore the vocabulary first (random variants vs the original)
            for (int q = 0; q + 2 <= left; q += 2) {
                const Variant v = randomVariant(rng, 0.3);
                remember(out, v);
                oracle.duels(v, inc, 2, rng, true);
            }
        } else {
            vtgIteration(oracle, left, l2, rng, inc, out);
        }
        out.incumbents.push_back(inc);
    }
    out.best = inc;
    return out;
}

} // namespace pl::convimg
