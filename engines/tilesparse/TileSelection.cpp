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

ImportanceEstimator::ImportanceEstimator(Estimator e, const Mat& K, const TileGrid& grid, int rank,
                                         double temperature, const Rng& rng)
    : m_e(e), m_grid(grid), m_temperature(temperature) {
    const int d = int(K.cols());
    if (e == Estimator::Indexer) {
        Rng r = rng.fork("indexer");
        m_proj.resize(d, rank);
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < rank; ++j)
                m_proj(i, j) = r.normal() / std::sqrt(double(rank));
        m_keysT.noalias() = (K * m_proj).transpose();
    } else if (e == Estimator::Quest) {
        const int nb = grid.blocks();
        m_kmax.resize(nb, d);
        m_kmin.resize(nb, d);
        for (int b = 0; b < nb; ++b) {
            const auto blk = K.middleRows(grid.blockBegin(b), grid.blockEnd(b) - grid.blockBegin(b));
            m_kmax.row(b) = blk.colwise().maxCoeff();
            m_kmin.row(b) = blk.colwise().minCoeff();
        }
    }
}

Mat ImportanceEstimator::estimate(const Mat& Q, const Mat* probs) const {
    const TileGrid& grid = m_grid;
    if (m_e == Estimator::Oracle) {
        if (!probs)
            throw EngineError("oracle importance needs the attention probabilities");
        return tileMass(rowBlockMass(*probs, grid), grid);
    }
    const int d = int(Q.cols());
    if (m_e == Estimator::Indexer) {
        // Approximate logits kept transposed (keys x rows): each row's softmax runs over
        // contiguous memory, and the per-(group, block) sums read contiguous segments.
        Mat St = m_keysT.transpose() * (Q * m_proj).transpose();
        St /= std::sqrt(double(d));
        Mat imp = Mat::Zero(grid.groups(), grid.blocks());
        for (Eigen::Index row = 0; row < St.cols(); ++row) {
            auto col = St.col(row);
            const double m = col.maxCoeff();
            col = (col.array() - m).exp();
            col /= col.sum();
            const int g = grid.groupOf(int(row));
            for (int b = 0; b < grid.blocks(); ++b)
                imp(g, b) += col.segment(grid.blockBegin(b), grid.blockEnd(b) - grid.blockBegin(b)).sum();
        }
        return imp;
    }
    // Quest: upper bound of q.k per row and block from the block's key min/max.
    const int nb = grid.blocks();
    Mat imp = Mat::Constant(grid.groups(), nb, -1e300);
    const double scale = 1.0 / (std::sqrt(double(d)) * m_temperature);
    for (Eigen::Index r = 0; r < Q.rows(); ++r) {
        const int g = grid.groupOf(int(r));
        for (int b = 0; b < nb; ++b) {
            const double u = (Q.row(r).transpose().array() * m_kmax.row(b).transpose().array())
                                 .max(Q.row(r).transpose().array() * m_kmin.row(b).transpose().array())
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

Mat estimateImportance(Estimator e, const Mat& Q, const Mat& K, const Mat* probs, const TileGrid& grid,
                       int rank, double temperature, const Rng& rng) {
    if (e == Estimator::Oracle)
        return ImportanceEstimator(e, Mat(), grid, rank, temperature, rng).estimate(Q, probs);
    return ImportanceEstimator(e, K, grid, rank, temperature, rng).estimate(Q, probs);
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

TierShape tierShape(int G, int freeTiles, const TierConfig& cfg) {
    TierShape t;
    if (freeTiles <= 0)
        return t;
    t.k1 = cfg.levels == 1 ? freeTiles / G : int(std::floor(cfg.k1Fraction * freeTiles / G));
    const int rest = freeTiles - t.k1 * G;
    t.m2 = std::clamp(cfg.m2, 1, G);
    t.m3 = std::clamp(cfg.m3, 1, G);
    if (cfg.levels == 2) {
        t.k2 = rest / t.m2;
    } else if (cfg.levels >= 3) {
        t.k2 = (rest / 2) / t.m2;
        t.k3 = (rest - t.k2 * t.m2) / t.m3;
    }
    return t;
}

TierPlanner::TierPlanner(const Mat& imp, const std::vector<int>& forced, const Mat* value)
    : m_groups(int(imp.rows())), m_blocks(int(imp.cols())), m_forced(forced) {
    const Mat& v = value ? *value : imp;
    const Eigen::VectorXd colSum = imp.colwise().sum().transpose();
    const auto flags = forcedFlags(m_blocks, forced);
    m_order = ranked(colSum, flags);
    m_total = v.sum();
    for (int b : forced)
        m_forcedValue += v.col(b).sum();
    const size_t G = size_t(m_groups);
    m_groupOrder.resize(m_order.size() * G);
    m_cum.resize(m_order.size() * (G + 1));
    for (size_t p = 0; p < m_order.size(); ++p) {
        const int b = m_order[p];
        int* go = m_groupOrder.data() + p * G;
        std::iota(go, go + G, 0);
        std::stable_sort(go, go + G, [&](int a, int c) { return imp(a, b) > imp(c, b); });
        double* cum = m_cum.data() + p * (G + 1);
        cum[0] = 0;
        for (size_t j = 0; j < G; ++j)
            cum[j + 1] = cum[j] + v(go[j], b);
    }
}

TileMask TierPlanner::select(int budgetTiles, const TierConfig& cfg) const {
    TileMask m = withForced(m_groups, m_blocks, m_forced);
    const TierShape t = tierShape(m_groups, budgetTiles - m_groups * int(m_forced.size()), cfg);
    size_t pos = 0;
    const size_t G = size_t(m_groups);
    auto take = [&](int count, int mGroups) {
        for (int i = 0; i < count && pos < m_order.size(); ++i, ++pos)
            for (int j = 0; j < mGroups; ++j)
                m.set(m_groupOrder[pos * G + size_t(j)], m_order[pos]);
    };
    take(t.k1, m_groups);
    take(t.k2, t.m2);
    take(t.k3, t.m3);
    return m;
}

double TierPlanner::selectedValue(int budgetTiles, const TierConfig& cfg) const {
    const TierShape t = tierShape(m_groups, budgetTiles - m_groups * int(m_forced.size()), cfg);
    double s = m_forcedValue;
    size_t pos = 0;
    const size_t G1 = size_t(m_groups) + 1;
    auto take = [&](int count, int mGroups) {
        for (int i = 0; i < count && pos < m_order.size(); ++i, ++pos)
            s += m_cum[pos * G1 + size_t(mGroups)];
    };
    take(t.k1, m_groups);
    take(t.k2, t.m2);
    take(t.k3, t.m3);
    return s;
}

TileMask selectTiered(const Mat& imp, int budgetTiles, const std::vector<int>& forced,
                      const TierConfig& cfg) {
    return TierPlanner(imp, forced).select(budgetTiles, cfg);
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

AutotuneResult autotune(const std::vector<TierPlanner>& calibration, int budgetTiles,
                        const std::vector<TierConfig>& grid) {
    AutotuneResult res;
    res.objectives.assign(grid.size(), 0.0);
    res.bestObjective = -1;
    for (size_t i = 0; i < grid.size(); ++i) {
        double s = 0;
        for (const TierPlanner& p : calibration)
            s += p.totalValue() > 0 ? p.selectedValue(budgetTiles, grid[i]) / p.totalValue() : 0.0;
        res.objectives[i] = calibration.empty() ? 0.0 : s / double(calibration.size());
        if (res.objectives[i] > res.bestObjective + 1e-15) {
            res.bestObjective = res.objectives[i];
            res.best = grid[i];
            res.bestIndex = int(i);
        }
    }
    return res;
}

AutotuneResult autotune(const std::vector<Mat>& calibration, int budgetTiles, const std::vector<int>& forced,
                        const std::vector<TierConfig>& grid) {
    std::vector<TierPlanner> planners;
    for (const Mat& imp : calibration)
        planners.emplace_back(imp, forced);
    return autotune(planners, budgetTiles, grid);
}

} // namespace pl::tilesparse
