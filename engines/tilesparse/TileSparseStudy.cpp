#include "TileSparseStudy.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::tilesparse {

const std::vector<std::string>& methodKeys() {
    static const std::vector<std::string> k{"k_only", "qk2d", "qk2d_global", "tiered"};
    return k;
}

namespace {

/// Writes concat_h(o_{h,t}) of every MTP token t into columns col .. col + mtp - 1 of X.
void packReadout(const Mat& O, int heads, int mtp, Mat& X, Eigen::Index col) {
    const Eigen::Index dv = O.cols();
    for (int t = 0; t < mtp; ++t)
        for (int h = 0; h < heads; ++h)
            X.col(col + t).segment(Eigen::Index(h) * dv, dv) = O.row(h * mtp + t).transpose();
}

/// Argmax of each column of W_o X: the synthetic next-token prediction of each packed output.
std::vector<int> argmaxColumns(const Mat& Wo, const Mat& X) {
    const Mat L = Wo * X; // one product per decode step instead of one per mask and token
    std::vector<int> out(size_t(L.cols()));
    for (Eigen::Index c = 0; c < L.cols(); ++c) {
        Eigen::Index arg = 0;
        L.col(c).maxCoeff(&arg);
        out[size_t(c)] = int(arg);
    }
    return out;
}

/// Sparse attention from per-(row, block) partial outputs of the dense pass (the split-KV combine
/// of flash decoding): o^_r = sum_{b in sel} U_b[r] / sum_{b in sel} m[r, b]. Equal to
/// sparseAttention() up to rounding; falls back to it when a row's selected mass underflows.
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Mat combineBlocks(const RowMat& U, const Mat& rb, const TileGrid& grid, const TileMask& mask, const Mat& Q,
                  const Mat& K, const Mat& V, const Poll& poll) {
    const Eigen::Index dv = V.cols();
    RowMat O = RowMat::Zero(rb.rows(), dv); // row-major: each row's sum runs over contiguous memory
    for (Eigen::Index r = 0; r < rb.rows(); ++r) {
        const int g = grid.groupOf(int(r));
        double m = 0;
        auto o = O.row(r);
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask.at(g, b)) {
                o += U.row(r).segment(Eigen::Index(b) * dv, dv);
                m += rb(r, b);
            }
        if (m < 1e-250)
            return sparseAttention(Q, K, V, grid, mask, poll);
        o /= m;
    }
    return O;
}

double needleHits(const Mat& O, const StudyInput& in) {
    int hits = 0, n = 0;
    for (int h = 0; h < int(in.retrievalHead.size()); ++h) {
        if (in.retrievalHead[size_t(h)] < 0)
            continue;
        const Eigen::VectorXd v = in.V.row(in.needleKey[size_t(in.retrievalHead[size_t(h)])]).transpose();
        for (int t = 0; t < in.mtpTokens; ++t) {
            const Eigen::VectorXd o = O.row(h * in.mtpTokens + t).transpose();
            const double c = o.dot(v) / std::max(1e-300, o.norm() * v.norm());
            hits += c > 0.5 ? 1 : 0;
            ++n;
        }
    }
    return n ? double(hits) / n : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

StudyResult runStudy(const StudyInput& in, const StudySettings& s, const Rng& rng, const Poll& pollFn,
                     const std::function<void(double)>& progress) {
    const Poll poll = pollFn ? pollFn : Poll([] {});
    if (in.evalQ.empty())
        throw EngineError("tilesparse study needs at least one held-out decode step");
    StudyResult res;
    TileGrid& grid = res.grid;
    grid.rows = int(in.evalQ.front().rows());
    grid.keys = int(in.K.rows());
    grid.groupRows = std::min(s.groupRows, grid.rows);
    grid.blockKeys = std::min(s.blockKeys, grid.keys);
    const int G = grid.groups(), nb = grid.blocks(), tiles = grid.tiles();
    const auto forced = forcedBlocks(grid, s.recentBlocks);
    const int minTiles = G * int(forced.size());

    // Fixed random readout W_o for the top-1 stand-in.
    Rng rOut = rng.fork("readout");
    const int inDim = in.heads * int(in.V.cols());
    Mat Wo(s.readoutClasses, inDim);
    for (Eigen::Index i = 0; i < Wo.rows(); ++i)
        for (Eigen::Index j = 0; j < Wo.cols(); ++j)
            Wo(i, j) = (2.0 * rOut.uniform() - 1.0) * std::sqrt(3.0 / double(inDim)); // unit variance

    // Calibration steps: the selector sees only the estimator's importance (never exact scores
    // unless the estimator is the oracle); the autotuner values each configuration's selection by
    // the exact attention mass it keeps, which is known for past decode steps.
    const ImportanceEstimator estimator(s.estimator, in.K, grid, s.indexerRank, s.questTemperature, rng);
    std::vector<TierPlanner> calib;
    for (const Mat& Q : in.calibQ) {
        poll();
        const Mat P = attentionProbs(Q, in.K, poll);
        const Mat trueMass = tileMass(rowBlockMass(P, grid), grid);
        calib.emplace_back(estimator.estimate(Q, &P), forced, &trueMass);
    }
    res.tunerGrid = autotuneGrid(G);
    std::vector<int> budgetTiles;
    for (double b : s.budgets)
        budgetTiles.push_back(std::clamp(int(std::lround(b * tiles)), minTiles, tiles));
    res.displayIndex = 0;
    for (size_t i = 0; i < s.budgets.size(); ++i)
        if (std::abs(std::log(s.budgets[i] / s.displayBudget)) <
            std::abs(std::log(s.budgets[size_t(res.displayIndex)] / s.displayBudget)))
            res.displayIndex = int(i);
    for (size_t i = 0; i < budgetTiles.size(); ++i) {
        poll();
        const AutotuneResult at = autotune(calib, budgetTiles[i], res.tunerGrid);
        res.chosen.push_back(at.best);
        res.chosenIndex.push_back(at.bestIndex);
        res.chosenObjective.push_back(at.bestObjective);
        if (int(i) == res.displayIndex)
            res.tunerObjectives = at.objectives;
    }

    const std::vector<std::string>& methods = s.methods.empty() ? methodKeys() : s.methods;
    for (const auto& m : methods) {
        MethodCurve& c = res.curves[m];
        const size_t nB = s.budgets.size();
        c.tileFraction.assign(nB, 0);
        c.blockFraction.assign(nB, 0);
        c.error.assign(nB, 0);
        c.mass.assign(nB, 0);
        c.top1.assign(nB, 0);
    }
    res.c1GlobalMargin = res.c1GroupMargin = std::numeric_limits<double>::infinity();
    if (s.heldOutGrid)
        res.heldOutMass.assign(budgetTiles.size(), std::vector<double>(res.tunerGrid.size(), 0.0));
    const double nEval = double(in.evalQ.size());
    for (size_t step = 0; step < in.evalQ.size(); ++step) {
        const Mat& Q = in.evalQ[step];
        const Mat P = attentionProbs(Q, in.K, poll);
        const Mat rb = rowBlockMass(P, grid);
        RowMat U(P.rows(), Eigen::Index(nb) * in.V.cols()); // per (row, block) partial outputs
        RowMat Orow = RowMat::Zero(P.rows(), in.V.cols());  // dense output = sum of the partials
        for (int b = 0; b < nb; ++b) {
            const int len = grid.blockEnd(b) - grid.blockBegin(b);
            auto Ub = U.middleCols(Eigen::Index(b) * in.V.cols(), in.V.cols());
            Ub.noalias() = P.middleCols(grid.blockBegin(b), len) * in.V.middleRows(grid.blockBegin(b), len);
            Orow += Ub;
        }
        const Mat O = Orow;
        const Mat imp = estimator.estimate(Q, &P);
        // Readout inputs of this step: dense first, then every (budget, method) whose top-1
        // agreement is measured; one W_o product at the end of the step.
        const int mtp = in.mtpTokens;
        std::vector<std::pair<size_t, std::string>> readouts; // (budget, method) per column block
        Mat X(Wo.cols(), Eigen::Index(mtp) * Eigen::Index(1 + budgetTiles.size() * methodKeys().size()));
        packReadout(O, in.heads, mtp, X, 0);
        if (step == 0) {
            res.denseOutput = O;
            res.tileMass = tileMass(rb, grid);
            for (int g = 0; g < G; ++g)
                res.tileMass.row(g) /= double(std::min(grid.groupRows, grid.rows - g * grid.groupRows));
            res.importance = imp;
            res.needleHit["dense"] = needleHits(O, in);
        }
        const Mat trueMass = tileMass(rb, grid);
        const Mat& oracle = trueMass;
        const bool c1Check = s.oracleCheck && step == 0;
        // Tiered selections of this step's estimate, valued at the true tile mass.
        const TierPlanner planner(imp, forced, &trueMass);
        for (size_t i = 0; i < budgetTiles.size(); ++i) {
            const int C = budgetTiles[i];
            std::map<std::string, TileMask> masks;
            for (const auto& m : methods) {
                if (m == "k_only")
                    masks[m] = selectKOnly(imp, C, forced);
                else if (m == "qk2d")
                    masks[m] = selectQk2dUniform(imp, C, forced);
                else if (m == "qk2d_global")
                    masks[m] = selectQk2dGlobal(imp, C, forced);
                else if (m == "tiered")
                    masks[m] = planner.select(C, res.chosen[i]);
                else
                    throw EngineError("tilesparse study: unknown method '" + m + "'");
            }
            for (const auto& [m, mask] : masks) {
                const Mat Os = combineBlocks(U, rb, grid, mask, Q, in.K, in.V, poll);
                const Eigen::VectorXd kept = retainedMassPerRow(rb, grid, mask);
                if (s.top1AllBudgets || int(i) == res.displayIndex) {
                    readouts.emplace_back(i, m);
                    packReadout(Os, in.heads, mtp, X, Eigen::Index(mtp) * Eigen::Index(readouts.size()));
                } else {
                    res.curves[m].top1[i] = std::numeric_limits<double>::quiet_NaN();
                }
                MethodCurve& c = res.curves[m];
                c.tileFraction[i] += double(mask.count()) / tiles / nEval;
                c.blockFraction[i] += double(mask.fetchedBlocks()) / nb / nEval;
                c.error[i] += relativeError(O, Os) / nEval;
                c.mass[i] += kept.mean() / nEval;
                if (step == 0 && int(i) == res.displayIndex) {
                    res.displayMasks[m] = mask;
                    std::vector<double> hm(size_t(in.heads), 0.0);
                    for (int r = 0; r < grid.rows; ++r)
                        hm[size_t(std::min(in.heads - 1, r / in.mtpTokens))] += kept[r] / in.mtpTokens;
                    res.headMass[m] = hm;
                    res.needleHit[m] = needleHits(Os, in);
                }
            }
            if (s.heldOutGrid)
                for (size_t f = 0; f < res.tunerGrid.size(); ++f)
                    res.heldOutMass[i][f] += planner.selectedValue(C, res.tunerGrid[f]) / grid.rows / nEval;
            if (c1Check) {
                // C1: under the oracle, the 2D selections keep at least K-only's mass.
                const TileMask ko = selectKOnly(oracle, C, forced), un = selectQk2dUniform(oracle, C, forced),
                               gl = selectQk2dGlobal(oracle, C, forced);
                const double tot = oracle.sum();
                res.c1GlobalMargin = std::min(
                    res.c1GlobalMargin,
                    (estimatedRetained(oracle, gl) - estimatedRetained(oracle, ko)) * tot / grid.rows);
                for (int g = 0; g < G; ++g) {
                    double a = 0, b = 0;
                    for (int blk = 0; blk < nb; ++blk) {
                        a += un.at(g, blk) ? oracle(g, blk) : 0.0;
                        b += ko.at(g, blk) ? oracle(g, blk) : 0.0;
                    }
                    res.c1GroupMargin = std::min(res.c1GroupMargin, a - b);
                }
            }
            if (progress)
                progress((double(step) + double(i + 1) / double(budgetTiles.size())) / nEval);
        }
        poll();
        const auto top = argmaxColumns(Wo, X.leftCols(Eigen::Index(mtp) * Eigen::Index(1 + readouts.size())));
        for (size_t k = 0; k < readouts.size(); ++k) {
            int agree = 0;
            for (int t = 0; t < mtp; ++t)
                agree += top[(k + 1) * size_t(mtp) + size_t(t)] == top[size_t(t)] ? 1 : 0;
            res.curves[readouts[k].second].top1[readouts[k].first] += double(agree) / mtp / nEval;
        }
    }
    return res;
}

} // namespace pl::tilesparse
