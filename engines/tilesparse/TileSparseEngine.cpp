#include "TileSparseEngine.h"

#include "MlaWorkload.h"
#include "TileCostModel.h"
#include "TileSparseClaims.h"
#include "TileSparseStudy.h"

#include "TileAttentionCuda.h"

#include "TileSparseKeys.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/ResultBuilders.h"
#include "cuda/CudaDevice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace pl::tilesparse {

namespace {
namespace P = tilesparse::keys::param;
namespace M = tilesparse::keys::metric;
namespace S = tilesparse::keys::series;
namespace X = tilesparse::keys::matrix;
namespace V = tilesparse::keys::vector;
} // namespace

namespace {

Mat toMat(const NpyMatrixInput& in) {
    Mat m(in.rows, in.cols);
    for (int64_t r = 0; r < in.rows; ++r)
        for (int64_t c = 0; c < in.cols; ++c)
            m(r, c) = in.data[size_t(r * in.cols + c)];
    return m;
}

/// A head-group x key-block matrix labelled g0, g1, … and b0, b1, …
Matrix toMatrix(const Mat& m, const std::string& rowPrefix, const std::string& colPrefix) {
    return matrixOf(m, rowPrefix, colPrefix, 0);
}

Mat maskToMat(const TileMask& m) {
    Mat out(m.groups, m.blocks);
    for (int g = 0; g < m.groups; ++g)
        for (int b = 0; b < m.blocks; ++b)
            out(g, b) = m.at(g, b) ? 1.0 : 0.0;
    return out;
}

} // namespace

std::vector<ParamSpec> TileSparseEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* W = "Synthetic workload";
    add(ParamSpec::integer(P::kHeads, "Query heads H", 8, 128, 32, "Query heads sharing the latent keys."),
        W);
    add(ParamSpec::integer(P::kMtpTokens, "MTP tokens T_q", 1, 4, 2,
                           "Query tokens per decode step (multi-token prediction)."),
        W);
    add(ParamSpec::integer(P::kContext, "Context N", 512, 65536, 4096, "Tokens in the shared KV cache.",
                           "tokens"),
        W);
    add(ParamSpec::integer(P::kDK, "Key dim d_k", 16, 576, 64, "Latent key dimension."), W);
    add(ParamSpec::integer(P::kDV, "Value dim d_v", 16, 512, 64,
                           "Value dimension (V = first d_v latent coordinates)."),
        W);
    add(ParamSpec::integer(P::kTopics, "Topics", 4, 64, 16, "Topics the keys are drawn from."), W);
    add(ParamSpec::integer(P::kTopicsPerHead, "Topics per head", 1, 8, 2, "Preferred topics of each head."),
        W);
    add(ParamSpec::real(
            P::kSpecialisation, "Head specialisation s", 0, 1, 0.7,
            "0: every head attends to every topic alike (no head sparsity); 1: only its preferred topics."),
        W);
    add(ParamSpec::real(P::kSharpness, "Sharpness", 0.5, 12, 6, "Logit of a key on a preferred topic.",
                        "logit"),
        W);
    add(ParamSpec::real(P::kKeyNoise, "Key noise", 0, 2, 0.5,
                        "Norm of the key noise relative to its topic direction."),
        W);
    add(ParamSpec::real(P::kQueryNoise, "Query noise", 0, 2, 0.3,
                        "Per-step query noise relative to the topic part."),
        W);
    add(ParamSpec::real(P::kRunLength, "Mean topic run", 4, 1024, 64,
                        "Mean length of a contiguous topic run.", "tokens", true),
        W);
    add(ParamSpec::integer(P::kNeedles, "Needles", 0, 16, 4,
                           "Planted keys attended only by retrieval heads."),
        W);
    add(ParamSpec::real(P::kRetrievalFraction, "Retrieval heads", 0, 0.5, 0.125,
                        "Fraction of heads that retrieve a needle."),
        W);
    add(ParamSpec::integer(P::kCalibSteps, "Calibration steps", 1, 8, 2,
                           "Earlier decode steps the autotuner scores on."),
        W);
    add(ParamSpec::integer(P::kEvalSteps, "Held-out steps", 1, 8, 2,
                           "Decode steps the methods are measured on."),
        W);
    const char* T = "Tiles and selection";
    add(ParamSpec::integer(P::kGroupRows, "Rows per head group G_h", 1, 64, 4,
                           "Query rows per compute tile."),
        T);
    add(ParamSpec::integer(P::kBlockKeys, "Keys per block B_k", 1, 256, 16, "Keys per block.", "tokens"), T);
    add(ParamSpec::integer(P::kRecentBlocks, "Recent blocks", 0, 8, 1,
                           "Last blocks always computed (plus the sink block 0)."),
        T);
    add(ParamSpec::choice(P::kEstimator, "Importance estimator", {"oracle", "indexer", "quest"}, "indexer",
                          "oracle: exact tile mass; indexer: low-rank logits (random projection); quest: key "
                          "min/max bound."),
        T);
    add(ParamSpec::integer(P::kIndexerRank, "Indexer rank r", 4, 64, 16,
                           "Projection dimension of the indexer."),
        T);
    add(ParamSpec::real(P::kQuestTemperature, "Quest temperature", 0.1, 10, 1,
                        "Softmax temperature of the Quest bound.", "", true),
        T);
    add(ParamSpec::integer(P::kBudgetPoints, "Budget points", 3, 20, 10,
                           "Compute budgets in the sweep (log-spaced up to 100 %)."),
        T);
    add(ParamSpec::real(P::kBudgetMin, "Smallest budget", 0.005, 0.5, 0.01,
                        "Smallest fraction of the tiles in the sweep.", "", true),
        T);
    add(ParamSpec::real(P::kDisplayBudget, "Shown budget", 0.005, 1, 0.05,
                        "Budget of the tile heatmaps and the autotuner grid (nearest swept budget).", "",
                        true),
        T);
    const char* C = "Cost model";
    add(ParamSpec::choice(P::kCostPreset, "Cost preset", {"mla_mtp2", "mla", "gqa", "workload"}, "mla_mtp2",
                          "Shape used for FLOPs/bytes: DeepSeek-V3-like MLA with 2 MTP tokens, MLA, GQA-8B, "
                          "or the workload's own."),
        C);
    add(ParamSpec::real(P::kPeakTflops, "Peak compute", 1, 5000, 989, "P_peak of the roofline.", "TFLOP/s",
                        true),
        C);
    add(ParamSpec::real(P::kBandwidthTbs, "Memory bandwidth", 0.1, 20, 3.35, "BW of the roofline.", "TB/s",
                        true),
        C);
    add(ParamSpec::real(P::kElemBytes, "Bytes per element e", 1, 4, 2, "KV cache element size.", "bytes"), C);
    add(ParamSpec::real(P::kLaunchUs, "Launch overhead", 0, 100, 0,
                        "Fixed time added to every modelled kernel.", "us"),
        C);
    add(ParamSpec::integer(P::kClaimSeeds, "Claim seeds", 0, 5, 5,
                           "Seeds 1..n for the head-sparsity claims (0 disables them)."),
        "Claims");
    return s;
}

std::shared_ptr<const LoadedInput> TileSparseEngine::load(const std::string& path) const {
    const NpyArray a = NpyReader::readFile(path);
    if (a.shape.size() != 2)
        throw InputError(path, "expected a 2-d array (rows x dim), got " + std::to_string(a.shape.size()) +
                                   " dimension(s)");
    if (a.shape[0] < 1 || a.shape[1] < 1)
        throw InputError(path, "empty array");
    if (a.dtype != "<f4" && a.dtype != "<f8" && a.dtype != "<f2")
        throw InputError(path, "expected float16/32/64 values, got dtype " + a.dtype);
    for (size_t i = 0; i < a.data.size(); ++i)
        if (!std::isfinite(a.data[i]))
            throw InputError(path, "non-finite value at index [" + std::to_string(int64_t(i) / a.shape[1]) +
                                       ", " + std::to_string(int64_t(i) % a.shape[1]) + "]");
    auto in = std::make_shared<NpyMatrixInput>();
    in->path = path;
    in->kind = "npy";
    in->rows = a.shape[0];
    in->cols = a.shape[1];
    in->data = a.data;
    in->summary = std::to_string(in->rows) + " x " + std::to_string(in->cols) + " " + a.dtype + " array";
    return in;
}

bool TileSparseEngine::hasCudaPath() const {
    return pl::cuda::built();
}

namespace {

/// Stage 1a: Q, K, V from three .npy files (one decode step).
StudyInput loadInputs(const InputList& inputs, ResultDocument& doc) {
    StudyInput in;
    std::vector<const NpyMatrixInput*> a;
    for (const auto& i : inputs) {
        a.push_back(dynamic_cast<const NpyMatrixInput*>(i.get()));
        if (!a.back())
            throw InputError(i->path, "not a .npy matrix loaded by tilesparse");
    }
    if (a[1]->cols != a[0]->cols)
        throw InputError(a[1]->path, "K must be tokens x " + std::to_string(a[0]->cols) +
                                         " (the d of Q), got " + std::to_string(a[1]->rows) + " x " +
                                         std::to_string(a[1]->cols));
    if (a[2]->rows != a[1]->rows)
        throw InputError(a[2]->path, "V must have " + std::to_string(a[1]->rows) +
                                         " rows (the tokens of K), got " + std::to_string(a[2]->rows) +
                                         " x " + std::to_string(a[2]->cols));
    const Mat Q = toMat(*a[0]);
    in.K = toMat(*a[1]);
    in.V = toMat(*a[2]);
    in.calibQ = {Q};
    in.evalQ = {Q};
    in.heads = int(Q.rows());
    in.mtpTokens = 1;
    doc.notes.push_back(
        "Q, K, V from files: one decode step, rows = heads, T_q = 1; the autotuner calibrates on "
        "the same step (no earlier steps are available). Workload parameters are ignored.");
    return in;
}

/// Stage 1b: the synthetic MLA workload (seed stream "workload").
StudyInput generateInputs(const ParamSet& p, uint64_t seed) {
    StudyInput in;
    WorkloadSpec ws;
    ws.heads = int(p.getInt(P::kHeads));
    ws.mtpTokens = int(p.getInt(P::kMtpTokens));
    ws.context = int(p.getInt(P::kContext));
    ws.dk = int(p.getInt(P::kDK));
    ws.dv = int(p.getInt(P::kDV));
    ws.topics = int(p.getInt(P::kTopics));
    ws.topicsPerHead = int(p.getInt(P::kTopicsPerHead));
    ws.specialisation = p.getDouble(P::kSpecialisation);
    ws.sharpness = p.getDouble(P::kSharpness);
    ws.keyNoise = p.getDouble(P::kKeyNoise);
    ws.queryNoise = p.getDouble(P::kQueryNoise);
    ws.meanRunLength = p.getDouble(P::kRunLength);
    ws.needles = int(p.getInt(P::kNeedles));
    ws.retrievalFraction = p.getDouble(P::kRetrievalFraction);
    ws.recentTokens = int(p.getInt(P::kRecentBlocks) * p.getInt(P::kBlockKeys));
    const int calib = int(p.getInt(P::kCalibSteps)), eval = int(p.getInt(P::kEvalSteps));
    ws.steps = calib + eval;
    Workload w = generateWorkload(ws, Rng(seed).fork("workload"));
    in.K = std::move(w.K);
    in.V = std::move(w.V);
    in.calibQ.assign(w.Q.begin(), w.Q.begin() + calib);
    in.evalQ.assign(w.Q.begin() + calib, w.Q.end());
    in.heads = w.heads;
    in.mtpTokens = w.mtpTokens;
    in.retrievalHead = w.retrievalHead;
    in.needleKey = w.needleKey;
    return in;
}

StudySettings readStudySettings(const ParamSet& p) {
    StudySettings st;
    st.groupRows = int(p.getInt(P::kGroupRows));
    st.blockKeys = int(p.getInt(P::kBlockKeys));
    st.recentBlocks = int(p.getInt(P::kRecentBlocks));
    st.estimator = parseEstimator(p.getString(P::kEstimator));
    st.indexerRank = int(p.getInt(P::kIndexerRank));
    st.questTemperature = p.getDouble(P::kQuestTemperature);
    st.displayBudget = p.getDouble(P::kDisplayBudget);
    const int nB = int(p.getInt(P::kBudgetPoints));
    const double bMin = p.getDouble(P::kBudgetMin);
    for (int i = 0; i < nB; ++i)
        st.budgets.push_back(bMin * std::pow(1.0 / bMin, double(i) / double(nB - 1)));
    return st;
}

/// Stage 3: dense output and the display-budget views.
void packStudyViews(const StudyResult& r, const StudySettings& st, ResultDocument& doc) {
    doc.vectors[V::kOutputFull] = matrixOf(r.denseOutput).data;
    doc.vectors[V::kBudgets] = st.budgets;
    doc.matrices[X::kAttentionMass] = toMatrix(r.tileMass, "g", "b");
    doc.matrices[X::kImportance] = toMatrix(r.importance, "g", "b");
    for (const auto& [m, mask] : r.displayMasks)
        doc.matrices[X::kSelectedPrefix + m] = toMatrix(maskToMat(mask), "g", "b");
    for (const auto& [m, hm] : r.headMass)
        doc.vectors[V::kHeadMassPrefix + m] = hm;
}

/// The roofline cost model of one run: hardware, kernel shape and the estimator's indexing cost.
struct CostSetup {
    Hardware hw;
    double elemBytes = 2;
    CostShape shape;
    double idxF = 0, idxB = 0;
    CostPoint dense;
};

CostSetup costSetup(const ParamSet& p, const StudyInput& in, const StudySettings& st, const TileGrid& grid,
                    bool mla) {
    CostSetup cs;
    cs.hw.peakFlops = p.getDouble(P::kPeakTflops) * 1e12;
    cs.hw.bandwidth = p.getDouble(P::kBandwidthTbs) * 1e12;
    cs.hw.launchSeconds = p.getDouble(P::kLaunchUs) * 1e-6;
    const double e = p.getDouble(P::kElemBytes);
    cs.elemBytes = e;
    const std::string preset = p.getString(P::kCostPreset);
    if (preset == "workload") {
        cs.shape.name = "workload";
        cs.shape.rows = grid.rows;
        cs.shape.dk = int(in.K.cols());
        cs.shape.dv = int(in.V.cols());
        cs.shape.sharedKV = mla;
        cs.shape.elemBytes = e;
    } else {
        cs.shape = presetShape(preset, in.mtpTokens, e);
    }
    if (st.estimator == Estimator::Indexer) {
        cs.idxF = 2.0 * grid.keys * st.indexerRank * cs.shape.rows;
        cs.idxB = double(grid.keys) * st.indexerRank * e;
    } else if (st.estimator == Estimator::Quest) {
        cs.idxF = 4.0 * cs.shape.rows * grid.blocks() * cs.shape.dk;
        cs.idxB = 2.0 * grid.blocks() * cs.shape.dk * e;
    }
    cs.dense = modelCost(cs.shape, cs.hw, grid.keys, 1.0, 1.0);
    return cs;
}

/// Stage 4: dense cost, roofline and dense time line.
void packDenseCost(const CostSetup& cs, const StudyInput& in, const StudySettings& st, const TileGrid& grid,
                   ResultDocument& doc) {
    const Hardware& hw = cs.hw;
    const double e = cs.elemBytes;
    auto& mt = doc.metrics;
    mt[M::kRidge] = hw.ridge();
    mt[M::kAiDense] = denseIntensity(cs.shape);
    mt[M::kAiDenseMlaMtp2] = denseIntensity(presetShape("mla_mtp2", in.mtpTokens, e));
    mt[M::kAiDenseMla] = denseIntensity(presetShape("mla", in.mtpTokens, e));
    mt[M::kAiDenseGqa] = denseIntensity(presetShape("gqa", in.mtpTokens, e));
    mt[M::kTimeDenseUs] = cs.dense.seconds * 1e6;
    mt[M::kFlopsDense] = cs.dense.flops;
    mt[M::kBytesDense] = cs.dense.bytes;
    Series rd = emptySeries("arithmetic intensity (FLOP/byte)", "attainable (TFLOP/s)");
    for (const char* ps : {"gqa", "mla", "mla_mtp2"}) {
        const CostPoint c = modelCost(presetShape(ps, in.mtpTokens, e), hw, grid.keys, 1.0, 1.0);
        addPoint(rd, c.intensity, c.attainable / 1e12);
    }
    doc.series[S::kRooflineDense] = rd;
    Series bound = emptySeries("arithmetic intensity (FLOP/byte)", "attainable (TFLOP/s)");
    for (int i = 0; i <= 40; ++i) {
        const double ai = std::pow(10.0, -1.0 + 5.0 * i / 40.0);
        addPoint(bound, ai, std::min(hw.peakFlops, ai * hw.bandwidth) / 1e12);
    }
    doc.series[S::kRooflineBound] = bound;
    Series td = emptySeries("compute budget (fraction of head x key-block tiles)", "modelled time (us)");
    for (double b : st.budgets)
        addPoint(td, b, cs.dense.seconds * 1e6);
    doc.series[S::kTimeDense] = td;
}

const std::string kBudgetLabel = "compute budget (fraction of head x key-block tiles)";

/// Stage 5: each method's error, mass, agreement and modelled cost over the budgets. Returns the
/// smallest budget from which qk2d stays compute-bound (NaN if none).
double packMethodCurves(const StudyResult& r, const CostSetup& cs, ResultDocument& doc) {
    double crossover = kNaN;
    auto& mt = doc.metrics;
    for (const auto& m : methodKeys()) {
        const MethodCurve& c = r.curves.at(m);
        doc.series[S::kErrorPrefix + m] =
            seriesOf(c.tileFraction, c.error, kBudgetLabel, "relative output error");
        doc.series[S::kMassPrefix + m] =
            seriesOf(c.tileFraction, c.mass, kBudgetLabel, "retained attention mass");
        doc.series[S::kTop1Prefix + m] =
            seriesOf(c.tileFraction, c.top1, kBudgetLabel, "top-1 agreement with dense");
        doc.series[S::kBlocksPrefix + m] =
            seriesOf(c.tileFraction, c.blockFraction, kBudgetLabel, "key blocks fetched (fraction)");
        Series time = seriesOf(c.tileFraction, {}, kBudgetLabel, "modelled time (us)");
        Series ai = seriesOf(c.tileFraction, {}, kBudgetLabel, "arithmetic intensity (FLOP/byte)");
        Series roof = emptySeries("arithmetic intensity (FLOP/byte)", "attainable (TFLOP/s)");
        std::vector<bool> cb;
        for (size_t i = 0; i < c.tileFraction.size(); ++i) {
            const CostPoint cp = modelCost(cs.shape, cs.hw, r.grid.keys, c.tileFraction[i],
                                           c.blockFraction[i], cs.idxF, cs.idxB);
            time.y.push_back(cp.seconds * 1e6);
            ai.y.push_back(cp.intensity);
            addPoint(roof, cp.intensity, cp.attainable / 1e12);
            cb.push_back(cp.computeBound);
        }
        if (m == "qk2d") {
            for (size_t i = cb.size(); i-- > 0;) {
                if (!cb[i])
                    break;
                crossover = c.tileFraction[i];
            }
        }
        doc.series[S::kTimePrefix + m] = time;
        doc.series[S::kAiPrefix + m] = ai;
        doc.series[S::kRooflinePrefix + m] = roof;
        const size_t di = size_t(r.displayIndex);
        mt[M::kErrorPrefix + m] = c.error[di];
        mt[M::kMassPrefix + m] = c.mass[di];
        mt[M::kTop1Prefix + m] = c.top1[di];
        mt[M::kBlocksPrefix + m] = c.blockFraction[di];
        mt[M::kTimePrefix + m + "_us"] = time.y[di];
        mt[M::kAiPrefix + m] = ai.y[di];
        if (r.needleHit.count(m))
            mt[M::kNeedleHitPrefix + m] = r.needleHit.at(m);
        double need = kNaN; // illustrate only: smallest budget reaching 99 % top-1 agreement
        for (size_t i = 0; i < c.top1.size(); ++i)
            if (c.top1[i] >= 0.99) {
                need = c.tileFraction[i];
                break;
            }
        mt[M::kBudget99Top1Prefix + m] = need;
    }
    mt[M::kCrossoverBudgetQk2d] = crossover;
    if (r.needleHit.count("dense"))
        mt[M::kNeedleHitDense] = r.needleHit.at("dense");
    return crossover;
}

/// Column key of a tier configuration in the autotuner grid.
std::string tierColumn(const TierConfig& t) {
    return t.levels == 2 ? "m2=" + std::to_string(t.m2)
                         : "m2=" + std::to_string(t.m2) + ",m3=" + std::to_string(t.m3);
}

/// Stage 6: the autotuner's choices, its objective over the grid and the grid geometry.
void packAutotuner(const StudyResult& r, ResultDocument& doc) {
    auto& mt = doc.metrics;
    Series k1 = emptySeries(kBudgetLabel, "chosen tier-1 share k1/C"),
           obj = emptySeries(kBudgetLabel, "calibration objective");
    for (size_t i = 0; i < r.chosen.size(); ++i) {
        addPoint(k1, r.curves.at("tiered").tileFraction[i],
                 r.chosen[i].levels == 1 ? 1.0 : r.chosen[i].k1Fraction);
        addPoint(obj, k1.x.back(), r.chosenObjective[i]);
    }
    doc.series[S::kAutotuneK1Fraction] = k1;
    doc.series[S::kAutotuneObjective] = obj;
    const TierConfig& best = r.chosen[size_t(r.displayIndex)];
    mt[M::kAutotuneLevels] = best.levels;
    mt[M::kAutotuneK1Fraction] = best.levels == 1 ? 1.0 : best.k1Fraction;
    mt[M::kAutotuneM2] = best.m2;
    mt[M::kAutotuneM3] = best.m3;
    mt[M::kAutotuneObjective] = r.chosenObjective[size_t(r.displayIndex)];
    mt[M::kAutotuneConfigs] = double(r.tunerGrid.size());
    std::vector<std::string> cols;
    for (const auto& t : r.tunerGrid)
        if (t.levels > 1) {
            const std::string key = tierColumn(t);
            if (std::find(cols.begin(), cols.end(), key) == cols.end())
                cols.push_back(key);
        }
    std::vector<std::string> rowLabels;
    for (int i = 1; i <= 9; ++i)
        rowLabels.push_back("k1/C=" + std::to_string(i / 10) + "." + std::to_string(i % 10));
    Matrix g = filledMatrix(9, int64_t(cols.size()), kNaN, std::move(rowLabels), cols);
    for (size_t i = 0; i < r.tunerGrid.size(); ++i) {
        const auto& t = r.tunerGrid[i];
        if (t.levels == 1 || r.tunerObjectives.empty())
            continue;
        const std::string key = tierColumn(t);
        const int row = int(std::lround(t.k1Fraction * 10)) - 1;
        const int col = int(std::find(cols.begin(), cols.end(), key) - cols.begin());
        g.data[size_t(row * g.cols + col)] = r.tunerObjectives[i];
    }
    doc.matrices[X::kAutotuneGrid] = std::move(g);
    if (!r.tunerObjectives.empty())
        mt[M::kAutotuneObjectiveOneTier] = r.tunerObjectives[0];
    const TileGrid& grid = r.grid;
    mt[M::kRows] = grid.rows;
    mt[M::kKeys] = grid.keys;
    mt[M::kGroups] = grid.groups();
    mt[M::kBlocks] = grid.blocks();
    mt[M::kTiles] = grid.tiles();
    mt[M::kDisplayBudget] = r.curves.at("k_only").tileFraction[size_t(r.displayIndex)];
    doc.notes.push_back("Autotuner at the shown budget: " + best.label() + ".");
}

/// Stage 7: with the CUDA backend, the kernel recomputes the shown budget's selections on the first
/// held-out step; otherwise a note says why the CPU ran.
void runBackendCheck(bool gpu, const StudyInput& in, const StudyResult& r, const Poll& poll, RunContext& ctx,
                     ResultDocument& doc) {
    auto& mt = doc.metrics;
    if (gpu) {
        ctx.throwIfCancelled();
        const Mat& Q0 = in.evalQ.front();
        double maxDiff = 0;
        for (const auto& [m, mask] : r.displayMasks) {
            const Mat Og = sparseAttentionCuda(Q0, in.K, in.V, r.grid, mask);
            const Mat Oc = sparseAttention(Q0, in.K, in.V, r.grid, mask, poll);
            maxDiff = std::max(maxDiff, (Og - Oc).cwiseAbs().maxCoeff());
            mt[M::kCudaErrorPrefix + m] = relativeError(r.denseOutput, Og);
        }
        mt[M::kCudaMaxAbsDiff] = maxDiff;
        mt[M::kBackendCuda] = 1;
        doc.notes.push_back(
            "Backend: CUDA (" + pl::cuda::deviceName() +
            "): the gathered tile attention of each method's selection at the shown budget ran "
            "on the GPU kernel (float32 in, float64 accumulation); max |CUDA - CPU| = " +
            std::to_string(maxDiff) + ". The budget sweep is the CPU reference (float64).");
    } else {
        mt[M::kBackendCuda] = 0;
        doc.notes.push_back(std::string("Backend: CPU (Eigen, float64)") +
                            (ctx.backend() == Backend::Cpu ? " as requested."
                             : pl::cuda::built()           ? "; no CUDA device present."
                                                           : "; this build has no CUDA kernels."));
    }
}

/// Stage 8: the claims.
void checkClaims(const StudyResult& r, const CostSetup& cs, const StudyInput& in, bool fromFiles,
                 int claimSeeds, double studyShare, double crossover, const Poll& poll, RunContext& ctx,
                 ResultDocument& doc) {
    ctx.throwIfCancelled();
    doc.claims.push_back(oracleClaim(r));
    doc.claims.push_back(autotunerClaim(r));
    if (fromFiles)
        doc.claims.back().detail +=
            " File input: the calibration step is the held-out step, so this check is "
            "in-sample here.";
    if (claimSeeds > 0) {
        ctx.progress(studyShare, "claims");
        for (auto& c : headSparsityClaims(claimSeeds, poll, ctx.threads()))
            doc.claims.push_back(std::move(c));
    } else {
        doc.notes.push_back("Head-sparsity claims disabled (claim_seeds = 0).");
    }
    doc.claims.push_back(intensityClaim(cs.hw, cs.elemBytes, in.mtpTokens, crossover));
}

} // namespace

ResultDocument TileSparseEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    if (!inputs.empty() && inputs.size() != 3)
        throw UsageError("tilesparse takes no input files or three .npy files in the order Q, K, V");
    // Resolved first so that --backend cuda without a kernel build or device fails before any work.
    const bool gpu = pl::cuda::useCuda(ctx.backend());
    ResultDocument doc;
    const Poll poll = [&ctx] { ctx.throwIfCancelled(); };
    const bool fromFiles = !inputs.empty();
    const StudyInput in = fromFiles ? loadInputs(inputs, doc) : generateInputs(p, ctx.seed());
    ctx.throwIfCancelled();

    const StudySettings st = readStudySettings(p);
    const int claimSeeds = int(p.getInt(P::kClaimSeeds));
    const double studyShare = claimSeeds > 0 ? 0.6 : 1.0;
    const StudyResult r = runStudy(in, st, Rng(ctx.seed()).fork("study"), poll,
                                   [&](double f) { ctx.progress(studyShare * f, "budget sweep"); });
    packStudyViews(r, st, doc);
    const CostSetup cs = costSetup(p, in, st, r.grid, !fromFiles);
    packDenseCost(cs, in, st, r.grid, doc);
    const double crossover = packMethodCurves(r, cs, doc);
    packAutotuner(r, doc);
    runBackendCheck(gpu, in, r, poll, ctx, doc);
    checkClaims(r, cs, in, fromFiles, claimSeeds, studyShare, crossover, poll, ctx, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::tilesparse
