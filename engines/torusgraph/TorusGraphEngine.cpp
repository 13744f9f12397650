#include "TorusGraphEngine.h"

#include "ArTorus.h"
#include "PhaseSignal.h"
#include "ScoreMatching.h"
#include "TorusHmm.h"
#include "TorusResultHelpers.h"
#include "TorusSampler.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/PathUtil.h"
#include "core/Rng.h"
#include "cuda/CudaDevice.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

namespace pl::torusgraph {

using namespace detail;

bool TorusGraphEngine::hasCudaPath() const {
    return pl::cuda::built();
}

std::shared_ptr<const LoadedInput> TorusGraphEngine::load(const std::string& path) const {
    const std::string ext = lowerExtension(path);
    auto in = std::make_shared<MatrixInput>();
    in->path = path;
    if (ext == "csv") {
        CsvTable t = CsvReader::readFile(path);
        in->kind = "csv";
        in->rows = t.values.rows();
        in->cols = t.values.cols();
        in->names = t.header;
        in->data.resize(size_t(in->rows * in->cols));
        for (int64_t r = 0; r < in->rows; ++r)
            for (int64_t c = 0; c < in->cols; ++c)
                in->data[size_t(r * in->cols + c)] = t.values(r, c);
    } else if (ext == "npy") {
        NpyArray a = NpyReader::readFile(path);
        in->kind = "npy";
        if (a.shape.size() != 2)
            throw InputError(path, "expected a 2-d array (samples x channels), got " +
                                       std::to_string(a.shape.size()) + " dimension(s)" +
                                       (a.shape.size() == 1 ? " (one channel)" : ""));
        in->rows = a.shape[0];
        in->cols = a.shape[1];
        in->data = std::move(a.data);
        for (size_t i = 0; i < in->data.size(); ++i)
            if (!std::isfinite(in->data[i]))
                throw InputError(path, "non-finite value at row " +
                                           std::to_string(int64_t(i) / in->cols + 1) + ", column " +
                                           std::to_string(int64_t(i) % in->cols + 1));
    } else {
        throw InputError(path, "unsupported file type '." + ext + "' (expected .csv or .npy)");
    }
    if (in->rows < 1)
        throw InputError(path, "no data rows");
    if (in->cols < 2)
        throw InputError(path, "only one channel (column); a torus graph needs at least 2");
    in->summary = std::to_string(in->rows) + " x " + std::to_string(in->cols) + " " + in->kind + " matrix";
    return in;
}

ResultDocument TorusGraphEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const Poll poll = [&ctx] { ctx.throwIfCancelled(); };
    const bool useGpu = pl::cuda::useCuda(ctx.backend());
    auto& mt = doc.metrics;
    const Rng root(ctx.seed());

    // ---------------------------------------------------------------- data
    const MatrixInput* dataIn = nullptr;
    const MatrixInput* coordIn = nullptr;
    for (const auto& i : inputs) {
        const auto* m = dynamic_cast<const MatrixInput*>(i.get());
        if (!m)
            throw InputError(i->path, "not a matrix loaded by torus-graph");
        if (!dataIn)
            dataIn = m;
        else if (!coordIn)
            coordIn = m;
    }
    RowMat x;
    PlantedTg planted;
    bool synthetic = dataIn == nullptr;
    std::vector<std::string> names;
    const double lambda = p.getDouble("lambda");
    if (synthetic) {
        SparseTgSpec spec;
        spec.d = int(p.getInt("d"));
        spec.graph = graphKindFromString(p.getString("graph"));
        spec.edgeProb = p.getDouble("edge_prob");
        spec.couplingMin = std::min(p.getDouble("coupling_min"), p.getDouble("coupling_max"));
        spec.couplingMax = std::max(p.getDouble("coupling_min"), p.getDouble("coupling_max"));
        spec.differenceOnly = p.getBool("difference_only");
        Rng gr = root.fork("planted");
        planted = randomSparseTg(spec, gr);
        GibbsOptions go;
        go.samples = p.getInt("n");
        go.burnIn = int(p.getInt("burn_in"));
        go.thin = int(p.getInt("thin"));
        Rng sr = root.fork("gibbs");
        ctx.progress(0.02, "Gibbs sampling");
        x = gibbsSample(planted.eta, spec.d, go, sr, poll);
        mt["edges_planted"] = planted.adjacency.sum() / 2;
    } else {
        RowMat raw = Eigen::Map<const RowMat>(dataIn->data.data(), dataIn->rows, dataIn->cols);
        names = dataIn->names;
        if (p.getString("input_kind") == "signal") {
            x = bandPhases(raw, p.getDouble("sampling_rate"), p.getDouble("band_low"),
                           p.getDouble("band_high"));
            doc.notes.push_back("Phases from signals: band " + fmt(p.getDouble("band_low")) + "–" +
                                fmt(p.getDouble("band_high")) + " Hz at " +
                                fmt(p.getDouble("sampling_rate")) + " Hz, analytic signal by FFT.");
        } else {
            int64_t outside = 0;
            for (Eigen::Index i = 0; i < raw.size(); ++i)
                if (std::abs(raw.data()[i]) > kTau + 1e-9)
                    ++outside;
            if (outside > 0)
                doc.notes.push_back("warning: " + std::to_string(outside) +
                                    " values outside [−2π, 2π] were wrapped (are these radians?).");
            x = raw.unaryExpr([](double v) { return wrapAngle(v); });
        }
        const int64_t P = 2 * x.cols() * x.cols();
        if (x.rows() < P)
            throw InputError(dataIn->path,
                             std::to_string(x.rows()) + " samples for " + std::to_string(x.cols()) +
                                 " channels: fewer samples than the 2d² = " + std::to_string(P) +
                                 " parameters of the torus graph");
        if (x.cols() > 64)
            throw InputError(dataIn->path,
                             std::to_string(x.cols()) +
                                 " channels: this panel fits at most 64 (2d² = 8192 parameters)");
        if (x.rows() < 20 * x.cols())
            doc.notes.push_back(
                "warning: n < 20 d; the closed form is poorly conditioned (consider lambda > 0).");
        for (Eigen::Index c = 0; c < x.cols(); ++c)
            if ((x.col(c).array() == x(0, c)).all())
                doc.notes.push_back("warning: channel " + std::to_string(c + 1) + " is constant.");
    }
    const int d = int(x.cols());
    const int64_t n = x.rows();
    const TorusLayout L(d);
    Mat coords;
    if (coordIn) {
        if (coordIn->rows != d || coordIn->cols < 2 || coordIn->cols > 3)
            throw InputError(coordIn->path, "electrode coordinates must have one row per channel (" +
                                                std::to_string(d) + ") and 2 or 3 columns (x, y[, z]); got " +
                                                std::to_string(coordIn->rows) + " x " +
                                                std::to_string(coordIn->cols));
        coords.resize(d, 2);
        for (int j = 0; j < d; ++j) {
            coords(j, 0) = coordIn->data[size_t(j * coordIn->cols)];
            coords(j, 1) = coordIn->data[size_t(j * coordIn->cols + 1)];
        }
    }
    if (names.size() != size_t(d))
        names.clear();
    mt["d"] = d;
    mt["ar_lag"] = double(p.getInt("ar_lag"));
    mt["n"] = double(n);
    mt["parameters"] = double(L.dim());
    const TrigTables tables = TrigTables::of(x);
    ctx.throwIfCancelled();

    // ---------------------------------------------------------------- closed form
    ctx.progress(0.1, "closed-form score matching");
    const GammaH gh = accumulateGammaH(tables, Vec(), poll, useGpu);
    mt["cuda"] = useGpu ? 1 : 0;
    const Vec etaCf = solveClosedForm(gh, lambda);
    mt["loss_closed_form"] = scoreMatchingLoss(gh, etaCf, lambda);
    mt["memory_closed_form_bytes"] = double(L.dim()) * double(L.dim()) * 8.0;

    // ---------------------------------------------------------------- stochastic SM
    ctx.progress(0.25, "stochastic score matching");
    SsmOptions so;
    so.iterations = int(p.getInt("ssm_iterations"));
    so.batch = int(p.getInt("batch"));
    so.learningRate = p.getDouble("learning_rate");
    so.finalLrRatio = p.getDouble("lr_final_ratio");
    so.tailFraction = p.getDouble("tail_average");
    so.tolerance = p.getDouble("ssm_tolerance");
    so.lambda = lambda;
    so.recordEvery = std::max(1, so.iterations / 200);
    so.reference = &etaCf;
    Rng ssmRng = root.fork("ssm");
    const SsmResult ssm = stochasticScoreMatching(tables, so, ssmRng, poll);
    const double ssmErr = (ssm.eta - etaCf).norm() / std::max(1e-300, etaCf.norm());
    mt["ssm_relative_error"] = ssmErr;
    mt["ssm_iterations_run"] = ssm.iterationsRun;
    mt["ssm_stopped_early"] = ssm.stoppedEarly ? 1 : 0;
    mt["loss_stochastic"] = scoreMatchingLoss(gh, ssm.eta, lambda);
    doc.series["ssm_loss"] = {ssm.recordIter, ssm.recordLoss, "iteration", "minibatch loss (EMA)"};
    doc.series["ssm_param_error"] = {ssm.recordIter, ssm.recordError, "iteration",
                                     "‖η_SSM − η_CF‖ / ‖η_CF‖ (current iterate)"};

    const bool useSsm = p.getString("method") == "stochastic";
    const Vec& eta = useSsm ? ssm.eta : etaCf;

    // ---------------------------------------------------------------- edge tests
    ctx.progress(0.35, "edge tests");
    const double alpha = p.getDouble("alpha");
    EdgeTests tests;
    const bool doTests = L.dim() <= 2048;
    if (doTests) {
        tests = waldEdgeTests(tables, gh, eta, lambda, poll);
    } else {
        tests.statistic = Mat::Constant(d, d, kNaN);
        tests.pValue = Mat::Constant(d, d, kNaN);
        doc.notes.push_back("Wald edge tests skipped for d > 32 (the sandwich covariance needs a P × P "
                            "product per sample block); edges are drawn without significance.");
    }
    const Mat strength = couplingStrength(eta, d);
    const Mat strengthCf = couplingStrength(etaCf, d), strengthSsm = couplingStrength(ssm.eta, d);
    const Mat plv = phaseLockingValue(tables);
    doc.matrices["coupling_strength"] = nodeMatrix(strength, names);
    doc.matrices["coupling_strength_cf"] = nodeMatrix(strengthCf, names);
    doc.matrices["coupling_strength_ssm"] = nodeMatrix(strengthSsm, names);
    doc.matrices["plv"] = nodeMatrix(plv, names);
    doc.matrices["wald_statistic"] = nodeMatrix(tests.statistic, names);
    doc.matrices["p_value"] = nodeMatrix(tests.pValue, names);
    {
        Matrix phi = toMatrix(pairParameters(eta, d), "");
        phi.colLabels = {"cos(xj-xk)", "sin(xj-xk)", "cos(xj+xk)", "sin(xj+xk)"};
        phi.rowLabels.clear();
        for (int q = 0; q < L.pairs(); ++q) {
            int j = 0, k = 0;
            L.pairNodes(q, &j, &k);
            phi.rowLabels.push_back(std::to_string(j + 1) + "-" + std::to_string(k + 1));
        }
        doc.matrices["phi"] = std::move(phi);
    }
    doc.vectors["eta_single"] = toStd(eta.head(2 * d));
    doc.vectors["eta_closed_form"] = toStd(etaCf);
    doc.vectors["eta_stochastic"] = toStd(ssm.eta);
    int significant = 0;
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k)
            significant += doTests && tests.pValue(j, k) < alpha ? 1 : 0;
    mt["edges_significant"] = doTests ? significant : kNaN;
    doc.graphs["coupling"] =
        couplingGraph(strength, tests.pValue, alpha, coordIn ? &coords : nullptr, names, doTests);
    if (coordIn)
        doc.vectors["node_x"] = toStd(coords.col(0)), doc.vectors["node_y"] = toStd(coords.col(1));

    // Torus view of one pair.
    {
        int pi = std::min(d, int(p.getInt("pair_i"))) - 1;
        int pj = std::min(d, int(p.getInt("pair_j"))) - 1;
        if (pi < 0 || pj < 0) { // auto: the most strongly coupled pair
            Eigen::Index r = 0, c = 1;
            strength.maxCoeff(&r, &c);
            pi = int(std::min(r, c));
            pj = int(std::max(r, c));
            if (pi == pj)
                pj = (pi + 1) % d;
        }
        if (pj == pi)
            pj = (pi + 1) % d;
        const int G = 64;
        doc.matrices["torus_density"] = toMatrix(pairDensity(eta, x, pi, pj, G), "g");
        const int64_t shown = std::min<int64_t>(n, 1500);
        std::vector<double> xi(static_cast<size_t>(shown)), xj(static_cast<size_t>(shown));
        for (int64_t t = 0; t < shown; ++t) {
            xi[size_t(t)] = x(t, pi);
            xj[size_t(t)] = x(t, pj);
        }
        doc.vectors["torus_x_i"] = xi;
        doc.vectors["torus_x_j"] = xj;
        mt["torus_pair_i"] = pi + 1;
        mt["torus_pair_j"] = pj + 1;
        mt["torus_pair_strength"] = strength(pi, pj);
    }

    // ---------------------------------------------------------------- edge recovery (synthetic)
    if (synthetic) {
        doc.matrices["coupling_true"] = nodeMatrix(couplingStrength(planted.eta, d), names);
        doc.matrices["adjacency_true"] = nodeMatrix(planted.adjacency, names);
        doc.vectors["eta_true"] = toStd(planted.eta);
        Series rocCf, rocSsm, rocPlv;
        const Mat& waldScore = doTests ? tests.statistic : strengthCf;
        const double aucCf = rocAuc(waldScore, planted.adjacency, &rocCf);
        const double aucSsm = rocAuc(strengthSsm, planted.adjacency, &rocSsm);
        const double aucPlv = rocAuc(plv, planted.adjacency, &rocPlv);
        doc.series["roc_closed_form"] = rocCf;
        doc.series["roc_stochastic"] = rocSsm;
        doc.series["roc_plv"] = rocPlv;
        mt["auc_closed_form"] = aucCf;
        mt["auc_stochastic"] = aucSsm;
        mt["auc_plv"] = aucPlv;
        mt["eta_error_closed_form"] = (etaCf - planted.eta).norm() / std::max(1e-300, planted.eta.norm());
        Claim c;
        c.id = "edge-recovery-auc";
        c.statement =
            "On data sampled from a known sparse torus graph the edges are recovered (AUC >= 0.95).";
        c.observed = aucCf;
        c.threshold = 0.95;
        c.holds = std::isfinite(aucCf) && aucCf >= 0.95;
        c.detail = "AUC of the " + std::string(doTests ? "Wald statistic" : "closed-form coupling strength") +
                   " against the planted graph (" + std::to_string(int(planted.adjacency.sum() / 2)) +
                   " of " + std::to_string(L.pairs()) + " pairs), d = " + std::to_string(d) +
                   ", n = " + std::to_string(n) + "; SSM strength AUC " + fmt(aucSsm) + ", PLV AUC " +
                   fmt(aucPlv) + ".";
        if (!std::isfinite(aucCf))
            c.detail = "The planted graph has no edges or is complete: AUC undefined.";
        doc.claims.push_back(c);
        if (std::isfinite(aucCf) && std::isfinite(aucPlv)) {
            Claim c2;
            c2.id = "conditional-beats-pairwise";
            c2.statement =
                "Torus-graph (conditional) coupling recovers the graph better than pairwise phase locking "
                "(PLV), which also responds to indirect paths.";
            c2.observed = aucCf - aucPlv;
            c2.threshold = 0;
            c2.holds = aucCf > aucPlv || (aucCf >= 1.0 && aucPlv >= 1.0);
            c2.detail = "AUC(Wald) − AUC(PLV) = " + fmt(aucCf) + " − " + fmt(aucPlv) + " on the planted " +
                        p.getString("graph") + " graph (the paper's point is sharpest on a chain).";
            doc.claims.push_back(c2);
        }
    } else {
        doc.notes.push_back("User data: no ground truth, so edge-recovery AUC is not evaluated.");
    }
    {
        Claim c;
        c.id = "ssm-matches-closed-form";
        c.statement = "Stochastic score matching reaches the closed-form estimate within 5 %.";
        c.observed = ssmErr;
        c.threshold = 0.05;
        c.holds = ssmErr < 0.05;
        c.detail = "‖η_SSM − η_CF‖/‖η_CF‖ after " + std::to_string(ssm.iterationsRun) +
                   " Adam steps (b = " + std::to_string(so.batch) + ", step " + fmt(so.learningRate) +
                   " decaying ×" + fmt(so.finalLrRatio) + ", last " + fmt(100 * so.tailFraction) +
                   " % averaged), λ = " + fmt(lambda) + ".";
        doc.claims.push_back(c);
    }

    // ---------------------------------------------------------------- scaling (timed)
    if (p.getString("scaling") == "timed") {
        ctx.progress(0.45, "scaling study");
        Rng sr = root.fork("scaling");
        Series build{{}, {}, "d (nodes)", "time (s)"}, solve = build, iter = build;
        const int maxCf = int(p.getInt("scaling_max_d_cf"));
        for (int dd : {4, 6, 8, 12, 16, 20, 24, 32, 40, 48}) {
            if (dd > maxCf)
                break;
            const int64_t ns = 256;
            RowMat xs(ns, dd);
            for (Eigen::Index i = 0; i < xs.size(); ++i)
                xs.data()[i] = sr.uniform(0, kTau);
            const TrigTables ts = TrigTables::of(xs);
            double tb = 1e300, tsol = 1e300;
            for (int rep = 0; rep < 2; ++rep) {
                poll();
                auto t0 = std::chrono::steady_clock::now();
                const GammaH g = accumulateGammaH(ts, Vec(), poll);
                tb = std::min(tb, seconds(t0));
                t0 = std::chrono::steady_clock::now();
                const Vec e = solveClosedForm(g, 1e-3);
                tsol = std::min(tsol, seconds(t0));
                if (!e.allFinite())
                    throw EngineError("scaling: non-finite closed-form solution");
            }
            build.x.push_back(dd);
            build.y.push_back(tb);
            solve.x.push_back(dd);
            solve.y.push_back(tsol);
        }
        const int maxSsm = int(p.getInt("scaling_max_d_ssm"));
        for (int dd = 16; dd <= maxSsm; dd *= 2) {
            const int64_t ns = 512;
            RowMat xs(ns, dd);
            for (Eigen::Index i = 0; i < xs.size(); ++i)
                xs.data()[i] = sr.uniform(0, kTau);
            const TrigTables ts = TrigTables::of(xs);
            SsmOptions o;
            o.iterations = dd >= 512 ? 2 : dd >= 128 ? 4 : 10;
            o.batch = 64;
            o.recordEvery = 0;
            o.tailFraction = 0;
            double best = 1e300;
            for (int rep = 0; rep < 3; ++rep) {
                Rng r = sr.fork("ssm" + std::to_string(dd));
                poll();
                const auto t0 = std::chrono::steady_clock::now();
                stochasticScoreMatching(ts, o, r, poll);
                best = std::min(best, seconds(t0) / o.iterations);
            }
            iter.x.push_back(dd);
            iter.y.push_back(best);
        }
        doc.series["scaling_cf_build"] = build;
        doc.series["scaling_cf_solve"] = solve;
        doc.series["scaling_ssm_iteration"] = iter;
        Series mem{{}, {}, "d (nodes)", "closed-form Γ memory (bytes)"};
        for (int dd = 4; dd <= 2048; dd *= 2) {
            mem.x.push_back(dd);
            mem.y.push_back(8.0 * 4.0 * double(dd) * dd * dd * dd);
        }
        doc.series["memory_closed_form"] = mem;
        const double ssmSlope = logSlope(iter.x, iter.y, 64);
        const double solveSlope = logSlope(solve.x, solve.y, 12);
        const double buildSlope = logSlope(build.x, build.y, 12);
        mt["slope_ssm_iteration"] = ssmSlope;
        mt["slope_cf_solve"] = solveSlope;
        mt["slope_cf_build"] = buildSlope;
        Claim c;
        c.id = "ssm-iteration-quadratic";
        c.statement = "The per-iteration cost of stochastic SM grows about as d^2.";
        c.observed = ssmSlope;
        c.threshold = 2.0;
        c.holds = std::isfinite(ssmSlope) && ssmSlope >= 1.5 && ssmSlope <= 2.5;
        c.detail = "Log–log slope of measured wall time per SSM iteration (b = 64) over d = 64 … " +
                   std::to_string(maxSsm) + "; holds when the slope lies in [1.5, 2.5].";
        doc.claims.push_back(c);
        Claim c2;
        c2.id = "closed-form-solve-grows-faster";
        c2.statement =
            "The closed-form solve grows much faster with d than an SSM iteration (O(d^6) vs O(d^2)).";
        c2.observed = solveSlope;
        c2.threshold = 4.0;
        c2.holds = std::isfinite(solveSlope) && std::isfinite(ssmSlope) && solveSlope >= 4.0 &&
                   solveSlope > ssmSlope + 1.5;
        c2.detail = "Log–log slope of the measured Cholesky solve time over d = 12 … " +
                    std::to_string(maxCf) + " (asymptotically 6; small sizes pull it down); Γ build slope " +
                    fmt(buildSlope) +
                    " (n fixed, asymptotically 3). Holds when ≥ 4 and above the SSM slope + 1.5.";
        doc.claims.push_back(c2);
    }

    // ---------------------------------------------------------------- TG-HMM
    const int K = int(p.getInt("hmm_states"));
    if (K >= 2) {
        ctx.progress(0.6, "TG-HMM");
        RowMat hx;
        std::vector<int64_t> truth;
        std::vector<Vec> trueEta;
        int hd = 0;
        if (synthetic) {
            hd = int(p.getInt("hmm_d"));
            Rng hr = root.fork("hmm-planted");
            for (int k = 0; k < K; ++k) {
                SparseTgSpec sp;
                sp.d = hd;
                sp.edgeProb = 0.35;
                sp.couplingMin = 0.8;
                sp.couplingMax = 1.5;
                Rng kr = hr.fork("state" + std::to_string(k));
                trueEta.push_back(randomSparseTg(sp, kr).eta);
            }
            Rng sw = root.fork("hmm-sample");
            SwitchingData sd =
                sampleSwitching(trueEta, hd, p.getInt("hmm_T"), p.getDouble("hmm_dwell"), 3, sw, poll);
            hx = std::move(sd.x);
            truth = std::move(sd.states);
        } else {
            hx = x;
            hd = d;
            if (hd > 16)
                doc.notes.push_back("TG-HMM on the input with d > 16 may be slow.");
        }
        HmmOptions ho;
        ho.states = K;
        ho.emIterations = int(p.getInt("hmm_em_iterations"));
        ho.mStepIterations = int(p.getInt("hmm_mstep_iterations"));
        ho.lambda = std::max(1e-3, lambda);
        Rng hr = root.fork("hmm-fit");
        if (hx.rows() < int64_t(K) * ho.window) {
            doc.notes.push_back("TG-HMM skipped: too few samples for " + std::to_string(K) + " states.");
        } else {
            const HmmResult hm = fitTorusHmm(hx, ho, hr, poll);
            std::vector<int> map(static_cast<size_t>(K));
            for (int k = 0; k < K; ++k)
                map[size_t(k)] = k;
            doc.labels["state"] = hm.states;
            if (!truth.empty()) {
                const double acc = matchedAccuracy(truth, hm.states, K, &map);
                doc.labels["state_true"] = truth;
                mt["hmm_accuracy"] = acc;
                Claim c;
                c.id = "hmm-recovers-states";
                c.statement = "The TG-HMM recovers the planted coupling states (>= 90 % after matching).";
                c.observed = acc;
                c.threshold = 0.9;
                c.holds = acc >= 0.9;
                c.detail = "Viterbi path vs the planted states of a " + std::to_string(K) +
                           "-state switching torus graph, d = " + std::to_string(hd) +
                           ", T = " + std::to_string(hx.rows()) + ", mean dwell " +
                           fmt(p.getDouble("hmm_dwell")) + ", best relabelling; pseudo-likelihood emissions.";
                doc.claims.push_back(c);
                for (int k = 0; k < K; ++k)
                    doc.matrices["hmm_coupling_true_" + std::to_string(k + 1)] =
                        nodeMatrix(couplingStrength(trueEta[size_t(k)], hd), {});
            }
            // Relabel the fitted states in the order of the truth when known (map: fitted → true).
            std::vector<int64_t> relabelled(hm.states.size());
            for (size_t t = 0; t < hm.states.size(); ++t)
                relabelled[t] = map[size_t(hm.states[t])];
            doc.labels["state"] = relabelled;
            for (int k = 0; k < K; ++k) {
                doc.matrices["hmm_coupling_" + std::to_string(map[size_t(k)] + 1)] =
                    nodeMatrix(couplingStrength(hm.eta[size_t(k)], hd),
                               names.size() == size_t(hd) ? names : std::vector<std::string>{});
                Series post{{}, {}, "time (samples)", "posterior probability"};
                const int64_t stride = std::max<int64_t>(1, hm.posterior.rows() / 2000);
                for (int64_t t = 0; t < hm.posterior.rows(); t += stride) {
                    post.x.push_back(double(t));
                    post.y.push_back(hm.posterior(t, k));
                }
                doc.series["hmm_posterior_" + std::to_string(map[size_t(k)] + 1)] = post;
            }
            Mat trans(K, K);
            for (int a = 0; a < K; ++a)
                for (int b = 0; b < K; ++b)
                    trans(map[size_t(a)], map[size_t(b)]) = hm.transition(a, b);
            doc.matrices["hmm_transition"] = toMatrix(trans, "state ");
            doc.series["hmm_loglik"] = {{}, hm.logLikelihood, "EM round", "pseudo-log-likelihood"};
            for (size_t r = 0; r < hm.logLikelihood.size(); ++r)
                doc.series["hmm_loglik"].x.push_back(double(r + 1));
            mt["hmm_states"] = K;
            mt["hmm_d"] = hd;
        }
    }

    // ---------------------------------------------------------------- AR-TG
    ctx.progress(0.8, "AR-TG transfer entropy");
    {
        RowMat ax;
        const int lag = int(p.getInt("ar_lag"));
        bool arSynthetic = synthetic;
        if (synthetic) {
            ArSimSpec as;
            as.d = int(p.getInt("ar_d"));
            const int64_t T = p.getInt("ar_T");
            as.T = T + T / 4 + lag;
            as.lag = lag;
            as.drives = {{0, 1, p.getDouble("ar_coupling")}};
            Rng ar = root.fork("ar-sim");
            ax = simulateArTorus(as, ar);
        } else if (d <= 8) {
            ax = x;
        }
        if (ax.rows() > 0) {
            TransferEntropyOptions to;
            to.lag = lag;
            to.shifts = int(p.getInt("ar_shifts"));
            to.trainFraction = 0.8;
            Rng tr = root.fork("te");
            const TransferEntropyResult te = transferEntropy(ax, to, tr, poll);
            const int ad = int(ax.cols());
            const std::vector<std::string> anames = arSynthetic ? std::vector<std::string>{} : names;
            doc.matrices["transfer_entropy"] = nodeMatrix(te.te, anames);
            doc.matrices["te_null95"] = nodeMatrix(te.null95, anames);
            doc.matrices["te_p_value"] = nodeMatrix(te.pValue, anames);
            Graph g;
            g.directed = true;
            for (int j = 0; j < ad; ++j) {
                GraphNode nd;
                nd.id = j;
                nd.label = anames.size() == size_t(ad) ? anames[size_t(j)] : "ch" + std::to_string(j + 1);
                g.nodes.push_back(nd);
            }
            for (int i = 0; i < ad; ++i)
                for (int j = 0; j < ad; ++j) {
                    if (i == j || !(te.te(i, j) > 0))
                        continue;
                    GraphEdge e;
                    e.source = i;
                    e.target = j;
                    e.weight = te.te(i, j);
                    // Permutation test: p = (1 + #null ≥ TE)/(1 + shifts) ≤ 0.05 (exact level).
                    const bool sig = std::isfinite(te.pValue(i, j)) && te.pValue(i, j) <= 0.05;
                    e.attrs["significant"] = sig ? 1 : 0;
                    e.attrs["p_value"] = te.pValue(i, j);
                    g.edges.push_back(e);
                }
            doc.graphs["transfer_entropy"] = g;
            if (arSynthetic) {
                const double fwd = te.te(0, 1), bwd = te.te(1, 0);
                const double nf = te.null95(0, 1), nb = te.null95(1, 0);
                mt["te_forward"] = fwd;
                mt["te_backward"] = bwd;
                mt["te_null95_forward"] = nf;
                mt["te_null95_backward"] = nb;
                // Claim: unidirectional pair 1→2 over several seeds (the spec's ≥ 8/10 rule as ≥ 80 %).
                const int claimSeeds = int(p.getInt("ar_claim_seeds"));
                Claim c;
                c.id = "ar-tg-direction";
                c.statement =
                    "AR-TG transfer entropy finds the planted direction: TE 1→2 significant against the "
                    "circular-shift null (p <= 0.05), TE 2→1 not, in >= 80 % of seeds.";
                c.threshold = 0.8;
                if (claimSeeds > 0 && to.shifts > 0) {
                    int ok = 0;
                    Rng cr = root.fork("te-claim");
                    for (int sd = 0; sd < claimSeeds; ++sd) {
                        ArSimSpec as;
                        as.d = 2;
                        const int64_t T = p.getInt("ar_T");
                        as.T = T + T / 4 + lag;
                        as.lag = lag;
                        as.drives = {{0, 1, p.getDouble("ar_coupling")}};
                        Rng rr = cr.fork("seed" + std::to_string(sd));
                        const RowMat cx = simulateArTorus(as, rr);
                        const TransferEntropyResult ct = transferEntropy(cx, to, rr, poll);
                        ok += (ct.pValue(0, 1) <= 0.05 && !(ct.pValue(1, 0) <= 0.05)) ? 1 : 0;
                    }
                    c.observed = double(ok) / claimSeeds;
                    c.holds = c.observed >= 0.8;
                    c.detail = std::to_string(ok) + " of " + std::to_string(claimSeeds) +
                               " seeds of a unidirectional pair (T = " + std::to_string(p.getInt("ar_T")) +
                               ", lag " + std::to_string(lag) + ", drive " + fmt(p.getDouble("ar_coupling")) +
                               ", " + std::to_string(to.shifts) +
                               " circular shifts, permutation p <= 0.05, held-out last 20 %). This run's "
                               "network: TE "
                               "1→2 = " +
                               fmt(fwd) + " nats (p " + fmt(te.pValue(0, 1)) + "), TE 2→1 = " + fmt(bwd) +
                               " (p " + fmt(te.pValue(1, 0)) + ").";
                } else {
                    const bool fSig = std::isfinite(te.pValue(0, 1)) ? te.pValue(0, 1) <= 0.05 : fwd > 0;
                    const bool bSig = std::isfinite(te.pValue(1, 0)) ? te.pValue(1, 0) <= 0.05 : bwd > fwd;
                    c.observed = (fSig && !bSig) ? 1.0 : 0.0;
                    c.holds = fSig && !bSig;
                    c.detail = "Single run (ar_claim_seeds = 0 or no shift null): TE 1→2 = " + fmt(fwd) +
                               " nats (null 95 % " + fmt(nf) + "), TE 2→1 = " + fmt(bwd) + " (null 95 % " +
                               fmt(nb) + ").";
                }
                doc.claims.push_back(c);
                // TE vs T (shape of the convergence plot): the planted pair at growing lengths.
                Series tf{{}, {}, "training length T", "transfer entropy (nats/sample)"}, tb = tf;
                Rng cr = root.fork("te-vs-T");
                for (int64_t T = 128; T <= 8192; T *= 2) {
                    poll();
                    ArSimSpec as;
                    as.d = 2;
                    as.T = T + T / 4 + lag;
                    as.lag = lag;
                    as.drives = {{0, 1, p.getDouble("ar_coupling")}};
                    Rng rr = cr.fork(std::to_string(T));
                    const RowMat cx = simulateArTorus(as, rr);
                    tf.x.push_back(double(T));
                    tf.y.push_back(transferEntropyPair(cx, 0, 1, to));
                    tb.x.push_back(double(T));
                    tb.y.push_back(transferEntropyPair(cx, 1, 0, to));
                }
                doc.series["te_vs_T_forward"] = tf;
                doc.series["te_vs_T_backward"] = tb;
            }
        } else {
            doc.notes.push_back("AR-TG skipped: the input has more than 8 channels.");
        }
    }
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::torusgraph
