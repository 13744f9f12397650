#include "TileSparseStudy.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

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
    return n ? double(hits) / n : kNaN;
}

/// One run of the budget sweep: fixed inputs and settings, the result filled stage by stage.
class StudyRunner {
public:
    StudyRunner(const StudyInput& in, const StudySettings& s, const Rng& rng, const Poll& poll,
                const std::function<void(double)>& progress)
        : m_in(in), m_s(s), m_rng(rng), m_poll(poll), m_progress(progress) {}

    StudyResult run() {
        setUpGrid();
        makeReadout();
        calibrate();
        initCurves();
        const double nEval = double(m_in.evalQ.size());
        for (size_t step = 0; step < m_in.evalQ.size(); ++step)
            evaluateStep(step, nEval);
        return std::move(m_res);
    }

private:
    void setUpGrid() {
        TileGrid& grid = m_res.grid;
        grid.rows = int(m_in.evalQ.front().rows());
        grid.keys = int(m_in.K.rows());
        grid.groupRows = std::min(m_s.groupRows, grid.rows);
        grid.blockKeys = std::min(m_s.blockKeys, grid.keys);
        m_forced = forcedBlocks(grid, m_s.recentBlocks);
    }

    /// Fixed random readout W_o for the top-1 stand-in (seed stream "readout").
    void makeReadout() {
        Rng rOut = m_rng.fork("readout");
        const int inDim = m_in.heads * int(m_in.V.cols());
        m_Wo = Mat(m_s.readoutClasses, inDim);
        for (Eigen::Index i = 0; i < m_Wo.rows(); ++i)
            for (Eigen::Index j = 0; j < m_Wo.cols(); ++j)
                m_Wo(i, j) = (2.0 * rOut.uniform() - 1.0) * std::sqrt(3.0 / double(inDim)); // unit variance
    }

    /// Calibration steps: the selector sees only the estimator's importance (never exact scores
    /// unless the estimator is the oracle); the autotuner values each configuration's selection by
    /// the exact attention mass it keeps, which is known for past decode steps.
    void calibrate() {
        const TileGrid& grid = m_res.grid;
        const int G = grid.groups(), tiles = grid.tiles();
        const int minTiles = G * int(m_forced.size());
        m_estimator.emplace(m_s.estimator, m_in.K, grid, m_s.indexerRank, m_s.questTemperature, m_rng);
        std::vector<TierPlanner> calib;
        for (const Mat& Q : m_in.calibQ) {
            m_poll();
            const Mat P = attentionProbs(Q, m_in.K, m_poll);
            const Mat trueMass = tileMass(rowBlockMass(P, grid), grid);
            calib.emplace_back(m_estimator->estimate(Q, &P), m_forced, &trueMass);
        }
        m_res.tunerGrid = autotuneGrid(G);
        for (double b : m_s.budgets)
            m_budgetTiles.push_back(std::clamp(int(std::lround(b * tiles)), minTiles, tiles));
        m_res.displayIndex = 0;
        for (size_t i = 0; i < m_s.budgets.size(); ++i)
            if (std::abs(std::log(m_s.budgets[i] / m_s.displayBudget)) <
                std::abs(std::log(m_s.budgets[size_t(m_res.displayIndex)] / m_s.displayBudget)))
                m_res.displayIndex = int(i);
        for (size_t i = 0; i < m_budgetTiles.size(); ++i) {
            m_poll();
            const AutotuneResult at = autotune(calib, m_budgetTiles[i], m_res.tunerGrid);
            m_res.chosen.push_back(at.best);
            m_res.chosenIndex.push_back(at.bestIndex);
            m_res.chosenObjective.push_back(at.bestObjective);
            if (int(i) == m_res.displayIndex)
                m_res.tunerObjectives = at.objectives;
        }
    }

    void initCurves() {
        m_methods = m_s.methods.empty() ? methodKeys() : m_s.methods;
        for (const auto& m : m_methods) {
            MethodCurve& c = m_res.curves[m];
            const size_t nB = m_s.budgets.size();
            c.tileFraction.assign(nB, 0);
            c.blockFraction.assign(nB, 0);
            c.error.assign(nB, 0);
            c.mass.assign(nB, 0);
            c.top1.assign(nB, 0);
        }
        m_res.c1GlobalMargin = m_res.c1GroupMargin = std::numeric_limits<double>::infinity();
        if (m_s.heldOutGrid)
            m_res.heldOutMass.assign(m_budgetTiles.size(), std::vector<double>(m_res.tunerGrid.size(), 0.0));
    }

    /// The dense pass of one held-out step, then every (budget, method) selection against it.
    void evaluateStep(size_t step, double nEval) {
        const TileGrid& grid = m_res.grid;
        const int nb = grid.blocks();
        const Mat& Q = m_in.evalQ[step];
        const Mat P = attentionProbs(Q, m_in.K, m_poll);
        const Mat rb = rowBlockMass(P, grid);
        RowMat U(P.rows(), Eigen::Index(nb) * m_in.V.cols()); // per (row, block) partial outputs
        RowMat Orow = RowMat::Zero(P.rows(), m_in.V.cols());  // dense output = sum of the partials
        for (int b = 0; b < nb; ++b) {
            const int len = grid.blockEnd(b) - grid.blockBegin(b);
            auto Ub = U.middleCols(Eigen::Index(b) * m_in.V.cols(), m_in.V.cols());
            Ub.noalias() = P.middleCols(grid.blockBegin(b), len) * m_in.V.middleRows(grid.blockBegin(b), len);
            Orow += Ub;
        }
        const Mat O = Orow;
        const Mat imp = m_estimator->estimate(Q, &P);
        // Readout inputs of this step: dense first, then every (budget, method) whose top-1
        // agreement is measured; one W_o product at the end of the step.
        const int mtp = m_in.mtpTokens;
        std::vector<std::pair<size_t, std::string>> readouts; // (budget, method) per column block
        Mat X(m_Wo.cols(), Eigen::Index(mtp) * Eigen::Index(1 + m_budgetTiles.size() * methodKeys().size()));
        packReadout(O, m_in.heads, mtp, X, 0);
        if (step == 0) {
            m_res.denseOutput = O;
            m_res.tileMass = tileMass(rb, grid);
            for (int g = 0; g < grid.groups(); ++g)
                m_res.tileMass.row(g) /= double(std::min(grid.groupRows, grid.rows - g * grid.groupRows));
            m_res.importance = imp;
            m_res.needleHit["dense"] = needleHits(O, m_in);
        }
        const Mat trueMass = tileMass(rb, grid);
        // Tiered selections of this step's estimate, valued at the true tile mass.
        const TierPlanner planner(imp, m_forced, &trueMass);
        const StepData sd{step, nEval, Q, rb, U, O, X, readouts};
        for (size_t i = 0; i < m_budgetTiles.size(); ++i) {
            const int C = m_budgetTiles[i];
            for (const auto& [m, mask] : selectMasks(imp, C, planner, i))
                scoreSelection(sd, i, m, mask);
            if (m_s.heldOutGrid)
                for (size_t f = 0; f < m_res.tunerGrid.size(); ++f)
                    m_res.heldOutMass[i][f] +=
                        planner.selectedValue(C, m_res.tunerGrid[f]) / grid.rows / nEval;
            if (m_s.oracleCheck && step == 0)
                checkOracle(trueMass, C);
            if (m_progress)
                m_progress((double(step) + double(i + 1) / double(m_budgetTiles.size())) / nEval);
        }
        m_poll();
        scoreTop1(X, readouts, nEval);
    }

    /// What scoreSelection() needs of the current step.
    struct StepData {
        size_t step;
        double nEval;
        const Mat& Q;
        const Mat& rb;
        const RowMat& U;
        const Mat& O;
        Mat& X;
        std::vector<std::pair<size_t, std::string>>& readouts;
    };

    std::map<std::string, TileMask> selectMasks(const Mat& imp, int C, const TierPlanner& planner,
                                                size_t i) const {
        std::map<std::string, TileMask> masks;
        for (const auto& m : m_methods) {
            if (m == "k_only")
                masks[m] = selectKOnly(imp, C, m_forced);
            else if (m == "qk2d")
                masks[m] = selectQk2dUniform(imp, C, m_forced);
            else if (m == "qk2d_global")
                masks[m] = selectQk2dGlobal(imp, C, m_forced);
            else if (m == "tiered")
                masks[m] = planner.select(C, m_res.chosen[i]);
            else
                throw EngineError("tilesparse study: unknown method '" + m + "'");
        }
        return masks;
    }

    /// Error, retained mass and fetched blocks of one selection; display-budget views on step 0.
    void scoreSelection(const StepData& sd, size_t i, const std::string& m, const TileMask& mask) {
        const TileGrid& grid = m_res.grid;
        const int mtp = m_in.mtpTokens;
        const Mat Os = combineBlocks(sd.U, sd.rb, grid, mask, sd.Q, m_in.K, m_in.V, m_poll);
        const Eigen::VectorXd kept = retainedMassPerRow(sd.rb, grid, mask);
        if (m_s.top1AllBudgets || int(i) == m_res.displayIndex) {
            sd.readouts.emplace_back(i, m);
            packReadout(Os, m_in.heads, mtp, sd.X, Eigen::Index(mtp) * Eigen::Index(sd.readouts.size()));
        } else {
            m_res.curves[m].top1[i] = kNaN;
        }
        MethodCurve& c = m_res.curves[m];
        c.tileFraction[i] += double(mask.count()) / grid.tiles() / sd.nEval;
        c.blockFraction[i] += double(mask.fetchedBlocks()) / grid.blocks() / sd.nEval;
        c.error[i] += relativeError(sd.O, Os) / sd.nEval;
        c.mass[i] += kept.mean() / sd.nEval;
        if (sd.step == 0 && int(i) == m_res.displayIndex) {
            m_res.displayMasks[m] = mask;
            std::vector<double> hm(size_t(m_in.heads), 0.0);
            for (int r = 0; r < grid.rows; ++r)
                hm[size_t(std::min(m_in.heads - 1, r / m_in.mtpTokens))] += kept[r] / m_in.mtpTokens;
            m_res.headMass[m] = hm;
            m_res.needleHit[m] = needleHits(Os, m_in);
        }
    }

    /// C1: under the oracle, the 2D selections keep at least K-only's mass.
    void checkOracle(const Mat& oracle, int C) {
        const TileGrid& grid = m_res.grid;
        const TileMask ko = selectKOnly(oracle, C, m_forced), un = selectQk2dUniform(oracle, C, m_forced),
                       gl = selectQk2dGlobal(oracle, C, m_forced);
        const double tot = oracle.sum();
        m_res.c1GlobalMargin =
            std::min(m_res.c1GlobalMargin,
                     (estimatedRetained(oracle, gl) - estimatedRetained(oracle, ko)) * tot / grid.rows);
        for (int g = 0; g < grid.groups(); ++g) {
            double a = 0, b = 0;
            for (int blk = 0; blk < grid.blocks(); ++blk) {
                a += un.at(g, blk) ? oracle(g, blk) : 0.0;
                b += ko.at(g, blk) ? oracle(g, blk) : 0.0;
            }
            m_res.c1GroupMargin = std::min(m_res.c1GroupMargin, a - b);
        }
    }

    /// Top-1 agreement of every measured selection with the dense output of this step.
    void scoreTop1(const Mat& X, const std::vector<std::pair<size_t, std::string>>& readouts, double nEval) {
        const int mtp = m_in.mtpTokens;
        const auto top =
            argmaxColumns(m_Wo, X.leftCols(Eigen::Index(mtp) * Eigen::Index(1 + readouts.size())));
        for (size_t k = 0; k < readouts.size(); ++k) {
            int agree = 0;
            for (int t = 0; t < mtp; ++t)
                agree += top[(k + 1) * size_t(mtp) + size_t(t)] == top[size_t(t)] ? 1 : 0;
            m_res.curves[readouts[k].second].top1[readouts[k].first] += double(agree) / mtp / nEval;
        }
    }

    const StudyInput& m_in;
    const StudySettings& m_s;
    const Rng& m_rng;
    const Poll& m_poll;
    const std::function<void(double)>& m_progress;
    StudyResult m_res;
    std::vector<int> m_forced; ///< blocks every selection computes
    Mat m_Wo;
    std::optional<ImportanceEstimator> m_estimator;
    std::vector<int> m_budgetTiles;
    std::vector<std::string> m_methods;
};

} // namespace

StudyResult runStudy(const StudyInput& in, const StudySettings& s, const Rng& rng, const Poll& pollFn,
                     const std::function<void(double)>& progress) {
    const Poll poll = pollFn ? pollFn : Poll([] {});
    if (in.evalQ.empty())
        throw EngineError("tilesparse study needs at least one held-out decode step");
    return StudyRunner(in, s, rng, poll, progress).run();
}

} // namespace pl::tilesparse
