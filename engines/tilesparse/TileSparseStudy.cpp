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

/// Argmax per MTP token of W_o concat_h(o_{h,t}).
std::vector<int> top1(const Mat& O, const Mat& Wo, int heads, int mtp) {
    std::vector<int> out;
    const int dv = int(O.cols());
    Eigen::VectorXd x(heads * dv);
    for (int t = 0; t < mtp; ++t) {
        for (int h = 0; h < heads; ++h)
            x.segment(h * dv, dv) = O.row(h * mtp + t).transpose();
        Eigen::Index arg = 0;
        (Wo * x).maxCoeff(&arg);
        out.push_back(int(arg));
    }
    return out;
}

/// Sparse attention from per-(row, block) partial outputs of the dense pass (the split-KV combine
/// of flash decoding): o^_r = sum_{b in sel} U_b[r] / sum_{b in sel} m[r, b]. Equal to
/// sparseAttention() up to rounding; falls back to it when a row's selected mass underflows.
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Mat combineBlocks(const RowMat& U, const Mat& rb, const TileGrid& grid, const TileMask& mask, const Mat& Q,
                  const Mat& K, const Mat& V, const Poll& poll) {
    Mat O = Mat::Zero(rb.rows(), V.cols());
    for (Eigen::Index r = 0; r < rb.rows(); ++r) {
        const int g = grid.groupOf(int(r));
        double m = 0;
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask.at(g, b)) {
                O.row(r) += U.row(r).segment(Eigen::Index(b) * V.cols(), V.cols());
                m += rb(r, b);
            }
        if (m < 1e-250)
            return sparseAttention(Q, K, V, grid, mask, poll);
        O.row(r) /= m;
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

StudyResult runStudy(const StudyInput& in, const StudySettings& s, const Rng& rng, const Poll& poll,
                     const std::function<void(double)>& progress) {
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

    // Calibration importance maps (never exact scores unless the estimator is the oracle).
    std::vector<Mat> calib;
    for (const Mat& Q : in.calibQ) {
        Mat P;
        if (s.estimator == Estimator::Oracle)
            denseAttention(Q, in.K, in.V, &P, poll);
        calib.push_back(
            estimateImportance(s.estimator, Q, in.K, &P, grid, s.indexerRank, s.questTemperature, rng));
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
        const AutotuneResult at =
            autotune(calib.empty() ? std::vector<Mat>{} : calib, budgetTiles[i], forced, res.tunerGrid);
        res.chosen.push_back(at.best);
        res.chosenObjective.push_back(at.bestObjective);
        if (int(i) == res.displayIndex)
            res.tunerObjectives = at.objectives;
    }

    for (const auto& m : methodKeys()) {
        MethodCurve& c = res.curves[m];
        const size_t nB = s.budgets.size();
        c.tileFraction.assign(nB, 0);
        c.blockFraction.assign(nB, 0);
        c.error.assign(nB, 0);
        c.mass.assign(nB, 0);
        c.top1.assign(nB, 0);
    }
    res.c1GlobalMargin = res.c1GroupMargin = std::numeric_limits<double>::infinity();
    const double nEval = double(in.evalQ.size());
    for (size_t step = 0; step < in.evalQ.size(); ++step) {
        const Mat& Q = in.evalQ[step];
        Mat P;
        const Mat O = denseAttention(Q, in.K, in.V, &P, poll);
        const Mat rb = rowBlockMass(P, grid);
        RowMat U(P.rows(), Eigen::Index(nb) * in.V.cols()); // per (row, block) partial outputs
        for (int b = 0; b < nb; ++b) {
            const int len = grid.blockEnd(b) - grid.blockBegin(b);
            U.middleCols(Eigen::Index(b) * in.V.cols(), in.V.cols()).noalias() =
                P.middleCols(grid.blockBegin(b), len) * in.V.middleRows(grid.blockBegin(b), len);
        }
        const Mat imp =
            estimateImportance(s.estimator, Q, in.K, &P, grid, s.indexerRank, s.questTemperature, rng);
        const auto denseTop = top1(O, Wo, in.heads, in.mtpTokens);
        if (step == 0) {
            res.denseOutput = O;
            res.tileMass = tileMass(rb, grid);
            for (int g = 0; g < G; ++g)
                res.tileMass.row(g) /= double(std::min(grid.groupRows, grid.rows - g * grid.groupRows));
            res.importance = imp;
            res.needleHit["dense"] = needleHits(O, in);
        }
        const Mat oracle = s.oracleCheck && step == 0 ? tileMass(rb, grid) : Mat();
        for (size_t i = 0; i < budgetTiles.size(); ++i) {
            const int C = budgetTiles[i];
            const std::map<std::string, TileMask> masks{
                {"k_only", selectKOnly(imp, C, forced)},
                {"qk2d", selectQk2dUniform(imp, C, forced)},
                {"qk2d_global", selectQk2dGlobal(imp, C, forced)},
                {"tiered", selectTiered(imp, C, forced, res.chosen[i])}};
            for (const auto& [m, mask] : masks) {
                const Mat Os = combineBlocks(U, rb, grid, mask, Q, in.K, in.V, poll);
                const Eigen::VectorXd kept = retainedMassPerRow(rb, grid, mask);
                const auto top = top1(Os, Wo, in.heads, in.mtpTokens);
                int agree = 0;
                for (size_t t = 0; t < top.size(); ++t)
                    agree += top[t] == denseTop[t] ? 1 : 0;
                MethodCurve& c = res.curves[m];
                c.tileFraction[i] += double(mask.count()) / tiles / nEval;
                c.blockFraction[i] += double(mask.fetchedBlocks()) / nb / nEval;
                c.error[i] += relativeError(O, Os) / nEval;
                c.mass[i] += kept.mean() / nEval;
                c.top1[i] += double(agree) / double(top.size()) / nEval;
                if (step == 0 && int(i) == res.displayIndex) {
                    res.displayMasks[m] = mask;
                    std::vector<double> hm(size_t(in.heads), 0.0);
                    for (int r = 0; r < grid.rows; ++r)
                        hm[size_t(std::min(in.heads - 1, r / in.mtpTokens))] += kept[r] / in.mtpTokens;
                    res.headMass[m] = hm;
                    res.needleHit[m] = needleHits(Os, in);
                }
            }
            if (oracle.size() > 0) {
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
    }
    return res;
}

} // namespace pl::tilesparse
