#include "TileSelection.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace pl::tilesparse {

Estimator parseEstimator(const std::string& name) {
    if (name == "oracle")
        return Estimator::Oracle;
    if (name == "quest")
        return Estimator::Quest;
    if (name == "indexer")
        return Estimator::Indexer;
    throw UsageError("unknown estimator '" + name + "' (oracle|indexer|quest)");
}

Mat estimateImportance(Estimator e, const Mat& Q, const Mat& K, const Mat* probs, const TileGrid& grid,
                       int rank, double temperature, const Rng& rng) {
    if (e == Estimator::Oracle) {
        if (!probs)
            throw EngineError("oracle importance needs the attention probabilities");
        return tileMass(rowBlockMass(*probs, grid), grid);
    }
    const int d = int(Q.cols());
    if (e == Estimator::Indexer) {
        Rng r = rng.fork("indexer");
        Mat P(d, rank);
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < rank; ++j)
                P(i, j) = r.normal() / std::sqrt(double(rank));
        const Mat Qp = Q * P, Kp = K * P;
        Mat S = (Qp * Kp.transpose()) / std::sqrt(double(d));
        for (Eigen::Index row = 0; row < S.rows(); ++row) {
            const double m = S.row(row).maxCoeff();
            S.row(row) = (S.row(row).array() - m).exp();
            S.row(row) /= S.row(row).sum();
        }
        return tileMass(rowBlockMass(S, grid), grid);
    }
    // Quest: per-block key min/max, upper bound of q.k per row and block.
    const int nb = grid.blocks();
    Mat kmax(nb, d), kmin(nb, d);
    for (int b = 0; b < nb; ++b) {
        const auto blk = K.middleRows(grid.blockBegin(b), grid.blockEnd(b) - grid.blockBegin(b));
        kmax.row(b) = blk.colwise().maxCoeff();
        kmin.row(b) = blk.colwise().minCoeff();
    }
    Mat imp = Mat::Constant(grid.groups(), nb, -1e300);
    const double scale = 1.0 / (std::sqrt(double(d)) * temperature);
    for (Eigen::Index r = 0; r < Q.rows(); ++r) {
        const int g = grid.groupOf(int(r));
        for (int b = 0; b < nb; ++b) {
            const double u = (Q.row(r).transpose().array() * kmax.row(b).transpose().array())
                                 .max(Q.row(r).transpose().array() * kmin.row(b).transpose().array())
                                 .sum();
            imp(g, b) = std::max(imp(g, b), u * scale);
        }
    }
    for (int g = 0; g < grid.groups(); ++g) {
        const double m = imp.row(g).maxCoeff();
        imp.row(g) = (imp.row(g).array() - m).exp();
        imp.row(g) /= imp.row(g).sum();
    }
    return imp;
}

std::vector<int> forcedBlocks(const TileGrid& grid, int recentBlocks) {
    std::vector<int> f{0};
    for (int i = 0; i < recentBlocks; ++i)
        f.push_back(grid.blocks() - 1 - i);
    std::sort(f.begin(), f.end());
    f.erase(std::unique(f.begin(), f.end()), f.end());
    f.erase(std::remove_if(f.begin(), f.end(), [&](int b) { return b < 0; }), f.end());
    return f;
}

namespace {

/// Indices of `score` sorted by descending value (ties: lower index first), skipping `exclude`.
std::vector<int> ranked(const Eigen::VectorXd& score, const std::vector<uint8_t>& exclude) {
    std::vector<int> idx;
    for (int i = 0; i < int(score.size()); ++i)
        if (!exclude[size_t(i)])
            idx.push_back(i);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return score[a] > score[b]; });
    return idx;
}

std::vector<uint8_t> forcedFlags(int blocks, const std::vector<int>& forced) {
    std::vector<uint8_t> f(size_t(blocks), 0);
    for (int b : forced)
        f[size_t(b)] = 1;
    return f;
}

TileMask withForced(int groups, int blocks, const std::vector<int>& forced) {
    TileMask m(groups, blocks);
    for (int g = 0; g < groups; ++g)
        for (int b : forced)
            m.set(g, b);
    return m;
}

} // namespace

TileMask selectKOnly(const Mat& imp, int budgetTiles, const std::vector<int>& forced) {
    const int G = int(imp.rows()), nb = int(imp.cols());
    TileMask m = withForced(G, nb, forced);
    const int perGroup = std::max(0, budgetTiles / G - int(forced.size()));
    const Eigen::VectorXd colSum = imp.colwise().sum().transpose();
    const auto order = ranked(colSum, forcedFlags(nb, forced));
    for (int i = 0; i < std::min(perGroup, int(order.size())); ++i)
        for (int g = 0; g < G; ++g)
            m.set(g, order[size_t(i)]);
    return m;
}

TileMask selectQk2dUniform(const Mat& imp, int budgetTiles, const std::vector<int>& forced) {
    const int G = int(imp.rows()), nb = int(imp.cols());
    TileMask m = withForced(G, nb, forced);
    const int perGroup = std::max(0, budgetTiles / G - int(forced.size()));
    const auto flags = forcedFlags(nb, forced);
    for (int g = 0; g < G; ++g) {
        const auto order = ranked(imp.row(g).transpose(), flags);
        for (int i = 0; i < std::min(perGroup, int(order.size())); ++i)
            m.set(g, order[size_t(i)]);
    }
    return m;
}

TileMask selectQk2dGlobal(const Mat& imp, int budgetTiles, const std::vector<int>& forced) {
    const int G = int(imp.rows()), nb = int(imp.cols());
    TileMask m = withForced(G, nb, forced);
    const int free = budgetTiles - G * int(forced.size());
    if (free <= 0)
        return m;
    std::vector<int> cand;
    const auto flags = forcedFlags(nb, forced);
    for (int g = 0; g < G; ++g)
        for (int b = 0; b < nb; ++b)
            if (!flags[size_t(b)])
                cand.push_back(g * nb + b);
    const size_t k = std::min(size_t(free), cand.size());
    auto val = [&](int t) { return imp(t / nb, t % nb); };
    std::partial_sort(cand.begin(), cand.begin() + ptrdiff_t(k), cand.end(),
                      [&](int a, int b) { return val(a) > val(b) || (val(a) == val(b) && a < b); });
    for (size_t i = 0; i < k; ++i)
        m.set(cand[i] / nb, cand[i] % nb);
    return m;
}

std::string TierConfig::label() const {
    char buf[96];
    if (levels == 1)
        std::snprintf(buf, sizeof buf, "1 tier (K-only shape)");
    else if (levels == 2)
        std::snprintf(buf, sizeof buf, "2 tiers: k1/C=%.1f, m2=%d", k1Fraction, m2);
    else
        std::snprintf(buf, sizeof buf, "3 tiers: k1/C=%.1f, m2=%d, m3=%d", k1Fraction, m2, m3);
    return buf;
}

TileMask selectTiered(const Mat& imp, int budgetTiles, const std::vector<int>& forced,
                      const TierConfig& cfg) {
    const int G = int(imp.rows()), nb = int(imp.cols());
    TileMask m = withForced(G, nb, forced);
    const int free = budgetTiles - G * int(forced.size());
    if (free <= 0)
        return m;
    const Eigen::VectorXd colSum = imp.colwise().sum().transpose();
    const auto order = ranked(colSum, forcedFlags(nb, forced));
    const int k1 = cfg.levels == 1 ? free / G : int(std::floor(cfg.k1Fraction * free / G));
    int rest = free - k1 * G;
    int k2 = 0, k3 = 0;
    const int m2 = std::clamp(cfg.m2, 1, G), m3 = std::clamp(cfg.m3, 1, G);
    if (cfg.levels == 2) {
        k2 = rest / m2;
    } else if (cfg.levels >= 3) {
        k2 = (rest / 2) / m2;
        k3 = (rest - k2 * m2) / m3;
    }
    size_t pos = 0;
    std::vector<int> groupsOrder(static_cast<size_t>(G), 0);
    auto take = [&](int count, int mGroups) {
        for (int i = 0; i < count && pos < order.size(); ++i, ++pos) {
            const int b = order[pos];
            std::iota(groupsOrder.begin(), groupsOrder.end(), 0);
            std::stable_sort(groupsOrder.begin(), groupsOrder.end(),
                             [&](int a, int c) { return imp(a, b) > imp(c, b); });
            for (int j = 0; j < mGroups; ++j)
                m.set(groupsOrder[size_t(j)], b);
        }
    };
    take(k1, G);
    if (cfg.levels >= 2)
        take(k2, m2);
    if (cfg.levels >= 3)
        take(k3, m3);
    return m;
}

double estimatedRetained(const Mat& imp, const TileMask& mask) {
    double s = 0, tot = 0;
    for (int g = 0; g < mask.groups; ++g)
        for (int b = 0; b < mask.blocks; ++b) {
            tot += imp(g, b);
            if (mask.at(g, b))
                s += imp(g, b);
        }
    return tot > 0 ? s / tot : 0.0;
}

std::vector<TierConfig> autotuneGrid(int groups) {
    std::vector<TierConfig> grid{TierConfig{}};
    auto m = [groups](int div) { return std::max(1, groups / div); };
    for (int i = 1; i <= 9; ++i) {
        const double f = i / 10.0;
        for (int d2 : {2, 4, 8})
            grid.push_back(TierConfig{2, f, m(d2), 0});
        for (int d2 : {2, 4, 8})
            for (int d3 : {8, 16})
                if (m(d3) < m(d2))
                    grid.push_back(TierConfig{3, f, m(d2), m(d3)});
    }
    return grid;
}

AutotuneResult autotune(const std::vector<Mat>& calibration, int budgetTiles, const std::vector<int>& forced,
                        const std::vector<TierConfig>& grid) {
    AutotuneResult res;
    res.objectives.assign(grid.size(), 0.0);
    res.bestObjective = -1;
    for (size_t i = 0; i < grid.size(); ++i) {
        double s = 0;
        for (const Mat& imp : calibration)
            s += estimatedRetained(imp, selectTiered(imp, budgetTiles, forced, grid[i]));
        res.objectives[i] = calibration.empty() ? 0.0 : s / double(calibration.size());
        if (res.objectives[i] > res.bestObjective + 1e-15) {
            res.bestObjective = res.objectives[i];
            res.best = grid[i];
        }
    }
    return res;
}

} // namespace pl::tilesparse
