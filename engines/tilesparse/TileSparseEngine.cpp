#include "TileSparseEngine.h"

#include "MlaWorkload.h"
#include "TileCostModel.h"
#include "TileSparseClaims.h"
#include "TileSparseStudy.h"

#include "TileAttentionCuda.h"

#include "core/Errors.h"
#include "core/NpyReader.h"
#include "cuda/CudaDevice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace pl::tilesparse {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Mat toMat(const NpyMatrixInput& in) {
    Mat m(in.rows, in.cols);
    for (int64_t r = 0; r < in.rows; ++r)
        for (int64_t c = 0; c < in.cols; ++c)
            m(r, c) = in.data[size_t(r * in.cols + c)];
    return m;
}

Matrix toMatrix(const Mat& m, const std::string& rowPrefix, const std::string& colPrefix) {
    Matrix out;
    out.rows = m.rows();
    out.cols = m.cols();
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            out.data.push_back(m(r, c));
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        out.rowLabels.push_back(rowPrefix + std::to_string(r));
    for (Eigen::Index c = 0; c < m.cols(); ++c)
        out.colLabels.push_back(colPrefix + std::to_string(c));
    return out;
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
    add(ParamSpec::integer("heads", "Query heads H", 8, 128, 32, "Query heads sharing the latent keys."), W);
    add(ParamSpec::integer("mtp_tokens", "MTP tokens T_q", 1, 4, 2,
                           "Query tokens per decode step (multi-token prediction)."),
        W);
    add(ParamSpec::integer("context", "Context N", 512, 65536, 4096, "Tokens in the shared KV cache.",
                           "tokens"),
        W);
    add(ParamSpec::integer("d_k", "Key dim d_k", 16, 576, 64, "Latent key dimension."), W);
    add(ParamSpec::integer("d_v", "Value dim d_v", 16, 512, 64,
                           "Value dimension (V = first d_v latent coordinates)."),
        W);
    add(ParamSpec::integer("topics", "Topics", 4, 64, 16, "Topics the keys are drawn from."), W);
    add(ParamSpec::integer("topics_per_head", "Topics per head", 1, 8, 2, "Preferred topics of each head."),
        W);
    add(ParamSpec::real(
            "specialisation", "Head specialisation s", 0, 1, 0.7,
            "0: every head attends to every topic alike (no head sparsity); 1: only its preferred topics."),
        W);
    add(ParamSpec::real("sharpness", "Sharpness", 0.5, 12, 6, "Logit of a key on a preferred topic.",
                        "logit"),
        W);
    add(ParamSpec::real("key_noise", "Key noise", 0, 2, 0.5,
                        "Norm of the key noise relative to its topic direction."),
        W);
    add(ParamSpec::real("query_noise", "Query noise", 0, 2, 0.3,
                        "Per-step query noise relative to the topic part."),
        W);
    add(ParamSpec::real("run_length", "Mean topic run", 4, 1024, 64, "Mean length of a contiguous topic run.",
                        "tokens", true),
        W);
    add(ParamSpec::integer("needles", "Needles", 0, 16, 4, "Planted keys attended only by retrieval heads."),
        W);
    add(ParamSpec::real("retrieval_fraction", "Retrieval heads", 0, 0.5, 0.125,
                        "Fraction of heads that retrieve a needle."),
        W);
    add(ParamSpec::integer("calib_steps", "Calibration steps", 1, 8, 2,
                           "Earlier decode steps the autotuner scores on."),
        W);
    add(ParamSpec::integer("eval_steps", "Held-out steps", 1, 8, 2,
                           "Decode steps the methods are measured on."),
        W);
    const char* T = "Tiles and selection";
    add(ParamSpec::integer("group_rows", "Rows per head group G_h", 1, 64, 4, "Query rows per compute tile."),
        T);
    add(ParamSpec::integer("block_keys", "Keys per block B_k", 1, 256, 16, "Keys per block.", "tokens"), T);
    add(ParamSpec::integer("recent_blocks", "Recent blocks", 0, 8, 1,
                           "Last blocks always computed (plus the sink block 0)."),
        T);
    add(ParamSpec::choice("estimator", "Importance estimator", {"oracle", "indexer", "quest"}, "indexer",
                          "oracle: exact tile mass; indexer: low-rank logits (random projection); quest: key "
                          "min/max bound."),
        T);
    add(ParamSpec::integer("indexer_rank", "Indexer rank r", 4, 64, 16,
                           "Projection dimension of the indexer."),
        T);
    add(ParamSpec::real("quest_temperature", "Quest temperature", 0.1, 10, 1,
                        "Softmax temperature of the Quest bound.", "", true),
        T);
    add(ParamSpec::integer("budget_points", "Budget points", 3, 20, 10,
                           "Compute budgets in the sweep (log-spaced up to 100 %)."),
        T);
    add(ParamSpec::real("budget_min", "Smallest budget", 0.005, 0.5, 0.01,
                        "Smallest fraction of the tiles in the sweep.", "", true),
        T);
    add(ParamSpec::real("display_budget", "Shown budget", 0.005, 1, 0.05,
                        "Budget of the tile heatmaps and the autotuner grid (nearest swept budget).", "",
                        true),
        T);
    const char* C = "Cost model";
    add(ParamSpec::choice("cost_preset", "Cost preset", {"mla_mtp2", "mla", "gqa", "workload"}, "mla_mtp2",
                          "Shape used for FLOPs/bytes: DeepSeek-V3-like MLA with 2 MTP tokens, MLA, GQA-8B, "
                          "or the workload's own."),
        C);
    add(ParamSpec::real("peak_tflops", "Peak compute", 1, 5000, 989, "P_peak of the roofline.", "TFLOP/s",
                        true),
        C);
    add(ParamSpec::real("bandwidth_tbs", "Memory bandwidth", 0.1, 20, 3.35, "BW of the roofline.", "TB/s",
                        true),
        C);
    add(ParamSpec::real("elem_bytes", "Bytes per element e", 1, 4, 2, "KV cache element size.", "bytes"), C);
    add(ParamSpec::real("launch_us", "Launch overhead", 0, 100, 0,
                        "Fixed time added to every modelled kernel.", "us"),
        C);
    add(ParamSpec::integer("claim_seeds", "Claim seeds", 0, 5, 5,
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

ResultDocument TileSparseEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    if (!inputs.empty() && inputs.size() != 3)
        throw UsageError("tilesparse takes no input files or three .npy files in the order Q, K, V");
    // Resolved first so that --backend cuda without a kernel build or device fails before any work.
    const bool gpu = pl::cuda::useCuda(ctx.backend());
    ResultDocument doc;
    const Poll poll = [&ctx] { ctx.throwIfCancelled(); };
    StudyInput in;
    bool mla = true;
    if (!inputs.empty()) {
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
        mla = false;
        doc.notes.push_back(
            "Q, K, V from files: one decode step, rows = heads, T_q = 1; the autotuner calibrates on "
            "the same step (no earlier steps are available). Workload parameters are ignored.");
    } else {
        WorkloadSpec ws;
        ws.heads = int(p.getInt("heads"));
        ws.mtpTokens = int(p.getInt("mtp_tokens"));
        ws.context = int(p.getInt("context"));
        ws.dk = int(p.getInt("d_k"));
        ws.dv = int(p.getInt("d_v"));
        ws.topics = int(p.getInt("topics"));
        ws.topicsPerHead = int(p.getInt("topics_per_head"));
        ws.specialisation = p.getDouble("specialisation");
        ws.sharpness = p.getDouble("sharpness");
        ws.keyNoise = p.getDouble("key_noise");
        ws.queryNoise = p.getDouble("query_noise");
        ws.meanRunLength = p.getDouble("run_length");
        ws.needles = int(p.getInt("needles"));
        ws.retrievalFraction = p.getDouble("retrieval_fraction");
        ws.recentTokens = int(p.getInt("recent_blocks") * p.getInt("block_keys"));
        const int calib = int(p.getInt("calib_steps")), eval = int(p.getInt("eval_steps"));
        ws.steps = calib + eval;
        Workload w = generateWorkload(ws, Rng(ctx.seed()).fork("workload"));
        in.K = std::move(w.K);
        in.V = std::move(w.V);
        in.calibQ.assign(w.Q.begin(), w.Q.begin() + calib);
        in.evalQ.assign(w.Q.begin() + calib, w.Q.end());
        in.heads = w.heads;
        in.mtpTokens = w.mtpTokens;
        in.retrievalHead = w.retrievalHead;
        in.needleKey = w.needleKey;
    }
    ctx.throwIfCancelled();

    StudySettings st;
    st.groupRows = int(p.getInt("group_rows"));
    st.blockKeys = int(p.getInt("block_keys"));
    st.recentBlocks = int(p.getInt("recent_blocks"));
    st.estimator = parseEstimator(p.getString("estimator"));
    st.indexerRank = int(p.getInt("indexer_rank"));
    st.questTemperature = p.getDouble("quest_temperature");
    st.displayBudget = p.getDouble("display_budget");
    const int nB = int(p.getInt("budget_points"));
    const double bMin = p.getDouble("budget_min");
    for (int i = 0; i < nB; ++i)
        st.budgets.push_back(bMin * std::pow(1.0 / bMin, double(i) / double(nB - 1)));
    const int claimSeeds = int(p.getInt("claim_seeds"));
    const double studyShare = claimSeeds > 0 ? 0.6 : 1.0;
    const StudyResult r = runStudy(in, st, Rng(ctx.seed()).fork("study"), poll,
                                   [&](double f) { ctx.progress(studyShare * f, "budget sweep"); });
    const TileGrid& grid = r.grid;

    // Dense output and the display-budget views.
    doc.vectors["output_full"] = std::vector<double>(size_t(r.denseOutput.size()));
    for (Eigen::Index i = 0; i < r.denseOutput.rows(); ++i)
        for (Eigen::Index j = 0; j < r.denseOutput.cols(); ++j)
            doc.vectors["output_full"][size_t(i * r.denseOutput.cols() + j)] = r.denseOutput(i, j);
    doc.vectors["budgets"] = st.budgets;
    doc.matrices["attention_mass"] = toMatrix(r.tileMass, "g", "b");
    doc.matrices["importance"] = toMatrix(r.importance, "g", "b");
    for (const auto& [m, mask] : r.displayMasks)
        doc.matrices["selected_" + m] = toMatrix(maskToMat(mask), "g", "b");
    for (const auto& [m, hm] : r.headMass)
        doc.vectors["head_mass_" + m] = hm;

    // Cost model.
    Hardware hw;
    hw.peakFlops = p.getDouble("peak_tflops") * 1e12;
    hw.bandwidth = p.getDouble("bandwidth_tbs") * 1e12;
    hw.launchSeconds = p.getDouble("launch_us") * 1e-6;
    const double e = p.getDouble("elem_bytes");
    const std::string preset = p.getString("cost_preset");
    CostShape shape;
    if (preset == "workload") {
        shape.name = "workload";
        shape.rows = grid.rows;
        shape.dk = int(in.K.cols());
        shape.dv = int(in.V.cols());
        shape.sharedKV = mla;
        shape.elemBytes = e;
    } else {
        shape = presetShape(preset, in.mtpTokens, e);
    }
    double idxF = 0, idxB = 0;
    if (st.estimator == Estimator::Indexer) {
        idxF = 2.0 * grid.keys * st.indexerRank * shape.rows;
        idxB = double(grid.keys) * st.indexerRank * e;
    } else if (st.estimator == Estimator::Quest) {
        idxF = 4.0 * shape.rows * grid.blocks() * shape.dk;
        idxB = 2.0 * grid.blocks() * shape.dk * e;
    }
    const CostPoint dense = modelCost(shape, hw, grid.keys, 1.0, 1.0);
    auto& mt = doc.metrics;
    mt["ridge"] = hw.ridge();
    mt["ai_dense"] = denseIntensity(shape);
    mt["ai_dense_mla_mtp2"] = denseIntensity(presetShape("mla_mtp2", in.mtpTokens, e));
    mt["ai_dense_mla"] = denseIntensity(presetShape("mla", in.mtpTokens, e));
    mt["ai_dense_gqa"] = denseIntensity(presetShape("gqa", in.mtpTokens, e));
    mt["time_dense_us"] = dense.seconds * 1e6;
    mt["flops_dense"] = dense.flops;
    mt["bytes_dense"] = dense.bytes;
    Series rd{{}, {}, "arithmetic intensity (FLOP/byte)", "attainable (TFLOP/s)"};
    for (const char* ps : {"gqa", "mla", "mla_mtp2"}) {
        const CostPoint c = modelCost(presetShape(ps, in.mtpTokens, e), hw, grid.keys, 1.0, 1.0);
        rd.x.push_back(c.intensity);
        rd.y.push_back(c.attainable / 1e12);
    }
    doc.series["roofline_dense"] = rd;
    Series bound{{}, {}, "arithmetic intensity (FLOP/byte)", "attainable (TFLOP/s)"};
    for (int i = 0; i <= 40; ++i) {
        const double ai = std::pow(10.0, -1.0 + 5.0 * i / 40.0);
        bound.x.push_back(ai);
        bound.y.push_back(std::min(hw.peakFlops, ai * hw.bandwidth) / 1e12);
    }
    doc.series["roofline_bound"] = bound;
    Series td{{}, {}, "compute budget (fraction of head x key-block tiles)", "modelled time (us)"};
    for (double b : st.budgets) {
        td.x.push_back(b);
        td.y.push_back(dense.seconds * 1e6);
    }
    doc.series["time_dense"] = td;

    double crossover = kNaN;
    const std::string budgetLabel = "compute budget (fraction of head x key-block tiles)";
    for (const auto& m : methodKeys()) {
        const MethodCurve& c = r.curves.at(m);
        Series err{c.tileFraction, c.error, budgetLabel, "relative output error"};
        doc.series["error_" + m] = err;
        doc.series["mass_" + m] = {c.tileFraction, c.mass, budgetLabel, "retained attention mass"};
        doc.series["top1_" + m] = {c.tileFraction, c.top1, budgetLabel, "top-1 agreement with dense"};
        doc.series["blocks_" + m] = {c.tileFraction, c.blockFraction, budgetLabel,
                                     "key blocks fetched (fraction)"};
        Series time{c.tileFraction, {}, budgetLabel, "modelled time (us)"};
        Series ai{c.tileFraction, {}, budgetLabel, "arithmetic intensity (FLOP/byte)"};
        Series roof{{}, {}, "arithmetic intensity (FLOP/byte)", "attainable (TFLOP/s)"};
        std::vector<bool> cb;
        for (size_t i = 0; i < c.tileFraction.size(); ++i) {
            const CostPoint cp =
                modelCost(shape, hw, grid.keys, c.tileFraction[i], c.blockFraction[i], idxF, idxB);
            time.y.push_back(cp.seconds * 1e6);
            ai.y.push_back(cp.intensity);
            roof.x.push_back(cp.intensity);
            roof.y.push_back(cp.attainable / 1e12);
            cb.push_back(cp.computeBound);
        }
        if (m == "qk2d") {
            for (size_t i = cb.size(); i-- > 0;) {
                if (!cb[i])
                    break;
                crossover = c.tileFraction[i];
            }
        }
        doc.series["time_" + m] = time;
        doc.series["ai_" + m] = ai;
        doc.series["roofline_" + m] = roof;
        const size_t di = size_t(r.displayIndex);
        mt["error_" + m] = c.error[di];
        mt["mass_" + m] = c.mass[di];
        mt["top1_" + m] = c.top1[di];
        mt["blocks_" + m] = c.blockFraction[di];
        mt["time_" + m + "_us"] = time.y[di];
        mt["ai_" + m] = ai.y[di];
        if (r.needleHit.count(m))
            mt["needle_hit_" + m] = r.needleHit.at(m);
        double need = kNaN; // illustrate only: smallest budget reaching 99 % top-1 agreement
        for (size_t i = 0; i < c.top1.size(); ++i)
            if (c.top1[i] >= 0.99) {
                need = c.tileFraction[i];
                break;
            }
        mt["budget_99_top1_" + m] = need;
    }
    mt["crossover_budget_qk2d"] = crossover;
    if (r.needleHit.count("dense"))
        mt["needle_hit_dense"] = r.needleHit.at("dense");

    // Autotuner.
    Series k1{{}, {}, budgetLabel, "chosen tier-1 share k1/C"},
        obj{{}, {}, budgetLabel, "calibration objective"};
    for (size_t i = 0; i < r.chosen.size(); ++i) {
        k1.x.push_back(r.curves.at("tiered").tileFraction[i]);
        k1.y.push_back(r.chosen[i].levels == 1 ? 1.0 : r.chosen[i].k1Fraction);
        obj.x.push_back(k1.x.back());
        obj.y.push_back(r.chosenObjective[i]);
    }
    doc.series["autotune_k1_fraction"] = k1;
    doc.series["autotune_objective"] = obj;
    const TierConfig& best = r.chosen[size_t(r.displayIndex)];
    mt["autotune_levels"] = best.levels;
    mt["autotune_k1_fraction"] = best.levels == 1 ? 1.0 : best.k1Fraction;
    mt["autotune_m2"] = best.m2;
    mt["autotune_m3"] = best.m3;
    mt["autotune_objective"] = r.chosenObjective[size_t(r.displayIndex)];
    mt["autotune_configs"] = double(r.tunerGrid.size());
    {
        std::vector<std::string> cols;
        for (const auto& t : r.tunerGrid)
            if (t.levels > 1) {
                const std::string key = t.levels == 2
                                            ? "m2=" + std::to_string(t.m2)
                                            : "m2=" + std::to_string(t.m2) + ",m3=" + std::to_string(t.m3);
                if (std::find(cols.begin(), cols.end(), key) == cols.end())
                    cols.push_back(key);
            }
        Matrix g;
        g.rows = 9;
        g.cols = int64_t(cols.size());
        g.data.assign(size_t(g.rows * g.cols), kNaN);
        for (int i = 1; i <= 9; ++i)
            g.rowLabels.push_back("k1/C=" + std::to_string(i / 10) + "." + std::to_string(i % 10));
        g.colLabels = cols;
        for (size_t i = 0; i < r.tunerGrid.size(); ++i) {
            const auto& t = r.tunerGrid[i];
            if (t.levels == 1 || r.tunerObjectives.empty())
                continue;
            const std::string key = t.levels == 2
                                        ? "m2=" + std::to_string(t.m2)
                                        : "m2=" + std::to_string(t.m2) + ",m3=" + std::to_string(t.m3);
            const int row = int(std::lround(t.k1Fraction * 10)) - 1;
            const int col = int(std::find(cols.begin(), cols.end(), key) - cols.begin());
            g.data[size_t(row * g.cols + col)] = r.tunerObjectives[i];
        }
        doc.matrices["autotune_grid"] = std::move(g);
        if (!r.tunerObjectives.empty())
            mt["autotune_objective_one_tier"] = r.tunerObjectives[0];
    }
    mt["rows"] = grid.rows;
    mt["keys"] = grid.keys;
    mt["groups"] = grid.groups();
    mt["blocks"] = grid.blocks();
    mt["tiles"] = grid.tiles();
    mt["display_budget"] = r.curves.at("k_only").tileFraction[size_t(r.displayIndex)];
    doc.notes.push_back("Autotuner at the shown budget: " + best.label() + ".");

    // Backend: the CUDA kernel recomputes the shown budget's selections on the first held-out step.
    if (gpu) {
        ctx.throwIfCancelled();
        const Mat& Q0 = in.evalQ.front();
        double maxDiff = 0;
        for (const auto& [m, mask] : r.displayMasks) {
            const Mat Og = sparseAttentionCuda(Q0, in.K, in.V, grid, mask);
            const Mat Oc = sparseAttention(Q0, in.K, in.V, grid, mask, poll);
            maxDiff = std::max(maxDiff, (Og - Oc).cwiseAbs().maxCoeff());
            mt["cuda_error_" + m] = relativeError(r.denseOutput, Og);
        }
        mt["cuda_max_abs_diff"] = maxDiff;
        mt["backend_cuda"] = 1;
        doc.notes.push_back(
            "Backend: CUDA (" + pl::cuda::deviceName() +
            "): the gathered tile attention of each method's selection at the shown budget ran "
            "on the GPU kernel (float32 in, float64 accumulation); max |CUDA - CPU| = " +
            std::to_string(maxDiff) + ". The budget sweep is the CPU reference (float64).");
    } else {
        mt["backend_cuda"] = 0;
        doc.notes.push_back(std::string("Backend: CPU (Eigen, float64)") +
                            (ctx.backend() == Backend::Cpu ? " as requested."
                             : pl::cuda::built()           ? "; no CUDA device present."
                                                           : "; this build has no CUDA kernels."));
    }

    // Claims.
    ctx.throwIfCancelled();
    doc.claims.push_back(oracleClaim(r));
    doc.claims.push_back(autotunerClaim(r));
    if (!inputs.empty())
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
    doc.claims.push_back(intensityClaim(hw, e, in.mtpTokens, crossover));
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::tilesparse
