// TorusRun stages 7-9: the timed scaling study, the TG-HMM and AR-TG transfer entropy.
#include "TorusGraphRun.h"

#include "TorusGraphKeys.h"
#include "TorusResultHelpers.h"

#include "core/Errors.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace pl::torusgraph {

namespace {
namespace P = torusgraph::keys::param;
namespace M = torusgraph::keys::metric;
namespace S = torusgraph::keys::series;
namespace X = torusgraph::keys::matrix;
namespace L = torusgraph::keys::label;
namespace G = torusgraph::keys::graph;
namespace A = torusgraph::keys::attr;
namespace C = torusgraph::keys::claim;
} // namespace

using namespace detail;

// ---------------------------------------------------------------- scaling (timed)

void TorusRun::timeClosedForm(Rng& sr, Series& build, Series& solve) {
    const int maxCf = int(m_p.getInt(P::kScalingMaxDCf));
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
            m_poll();
            auto t0 = std::chrono::steady_clock::now();
            const GammaH g = accumulateGammaH(ts, Vec(), m_poll);
            tb = std::min(tb, seconds(t0));
            t0 = std::chrono::steady_clock::now();
            const Vec e = solveClosedForm(g, 1e-3);
            tsol = std::min(tsol, seconds(t0));
            if (!e.allFinite())
                throw EngineError("scaling: non-finite closed-form solution");
        }
        addPoint(build, dd, tb);
        addPoint(solve, dd, tsol);
    }
}

void TorusRun::timeSsmIterations(Rng& sr, Series& iter) {
    const int maxSsm = int(m_p.getInt(P::kScalingMaxDSsm));
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
            m_poll();
            const auto t0 = std::chrono::steady_clock::now();
            stochasticScoreMatching(ts, o, r, m_poll);
            best = std::min(best, seconds(t0) / o.iterations);
        }
        addPoint(iter, dd, best);
    }
}

void TorusRun::runScalingStudy() {
    if (m_p.getString(P::kScaling) != "timed")
        return;
    ResultDocument& doc = m_doc;
    auto& mt = doc.metrics;
    m_ctx.progress(0.45, "scaling study");
    Rng sr = m_root.fork("scaling");
    Series build = emptySeries("d (nodes)", "time (s)"), solve = build, iter = build;
    timeClosedForm(sr, build, solve);
    timeSsmIterations(sr, iter);
    doc.series[S::kScalingCfBuild] = build;
    doc.series[S::kScalingCfSolve] = solve;
    doc.series[S::kScalingSsmIteration] = iter;
    Series mem = emptySeries("d (nodes)", "closed-form Γ memory (bytes)");
    for (int dd = 4; dd <= 2048; dd *= 2)
        addPoint(mem, dd, 8.0 * 4.0 * double(dd) * dd * dd * dd);
    doc.series[S::kMemoryClosedForm] = mem;
    const double ssmSlope = logSlope(iter.x, iter.y, 64);
    const double solveSlope = logSlope(solve.x, solve.y, 12);
    const double buildSlope = logSlope(build.x, build.y, 12);
    mt[M::kSlopeSsmIteration] = ssmSlope;
    mt[M::kSlopeCfSolve] = solveSlope;
    mt[M::kSlopeCfBuild] = buildSlope;
    doc.claims.push_back(claimOf(
        C::kSsmIterationQuadratic, "The per-iteration cost of stochastic SM grows about as d^2.",
        std::isfinite(ssmSlope) && ssmSlope >= 1.5 && ssmSlope <= 2.5, ssmSlope, 2.0,
        "Log–log slope of measured wall time per SSM iteration (b = 64) over d = 64 … " +
            std::to_string(m_p.getInt(P::kScalingMaxDSsm)) + "; holds when the slope lies in [1.5, 2.5]."));
    doc.claims.push_back(
        claimOf(C::kClosedFormSolveGrowsFaster,
                "The closed-form solve grows much faster with d than an SSM iteration (O(d^6) vs O(d^2)).",
                std::isfinite(solveSlope) && std::isfinite(ssmSlope) && solveSlope >= 4.0 &&
                    solveSlope > ssmSlope + 1.5,
                solveSlope, 4.0,
                "Log–log slope of the measured Cholesky solve time over d = 12 … " +
                    std::to_string(m_p.getInt(P::kScalingMaxDCf)) +
                    " (asymptotically 6; small sizes pull it down); Γ build slope " + fmt(buildSlope) +
                    " (n fixed, asymptotically 3). Holds when ≥ 4 and above the SSM slope + 1.5."));
}

// ---------------------------------------------------------------- TG-HMM

void TorusRun::runHmm() {
    const ParamSet& p = m_p;
    const int K = int(p.getInt(P::kHmmStates));
    if (K < 2)
        return;
    m_ctx.progress(0.6, "TG-HMM");
    RowMat hx;
    std::vector<int64_t> truth;
    std::vector<Vec> trueEta;
    int hd = 0;
    if (m_synthetic) {
        hd = int(p.getInt(P::kHmmD));
        Rng hr = m_root.fork("hmm-planted");
        for (int k = 0; k < K; ++k) {
            SparseTgSpec sp;
            sp.d = hd;
            sp.edgeProb = 0.35;
            sp.couplingMin = 0.8;
            sp.couplingMax = 1.5;
            Rng kr = hr.fork("state" + std::to_string(k));
            trueEta.push_back(randomSparseTg(sp, kr).eta);
        }
        Rng sw = m_root.fork("hmm-sample");
        SwitchingData sd =
            sampleSwitching(trueEta, hd, p.getInt(P::kHmmT), p.getDouble(P::kHmmDwell), 3, sw, m_poll);
        hx = std::move(sd.x);
        truth = std::move(sd.states);
    } else {
        hx = m_x;
        hd = m_d;
        if (hd > 16)
            m_doc.notes.push_back("TG-HMM on the input with d > 16 may be slow.");
    }
    HmmOptions ho;
    ho.states = K;
    ho.emIterations = int(p.getInt(P::kHmmEmIterations));
    ho.mStepIterations = int(p.getInt(P::kHmmMstepIterations));
    ho.lambda = std::max(1e-3, m_lambda);
    Rng hr = m_root.fork("hmm-fit");
    if (hx.rows() < int64_t(K) * ho.window) {
        m_doc.notes.push_back("TG-HMM skipped: too few samples for " + std::to_string(K) + " states.");
        return;
    }
    const HmmResult hm = fitTorusHmm(hx, ho, hr, m_poll);
    packHmm(hm, truth, trueEta, K, hd, hx.rows());
}

void TorusRun::packHmm(const HmmResult& hm, const std::vector<int64_t>& truth,
                       const std::vector<Vec>& trueEta, int K, int hd, int64_t T) {
    ResultDocument& doc = m_doc;
    auto& mt = doc.metrics;
    std::vector<int> map(static_cast<size_t>(K));
    for (int k = 0; k < K; ++k)
        map[size_t(k)] = k;
    doc.labels[L::kState] = hm.states;
    if (!truth.empty()) {
        const double acc = matchedAccuracy(truth, hm.states, K, &map);
        doc.labels[L::kStateTrue] = truth;
        mt[M::kHmmAccuracy] = acc;
        doc.claims.push_back(claimOf(
            C::kHmmRecoversStates,
            "The TG-HMM recovers the planted coupling states (>= 90 % after matching).", acc >= 0.9, acc, 0.9,
            "Viterbi path vs the planted states of a " + std::to_string(K) +
                "-state switching torus graph, d = " + std::to_string(hd) + ", T = " + std::to_string(T) +
                ", mean dwell " + fmt(m_p.getDouble(P::kHmmDwell)) +
                ", best relabelling; pseudo-likelihood emissions."));
        for (int k = 0; k < K; ++k)
            doc.matrices[X::kHmmCouplingTruePrefix + std::to_string(k + 1)] =
                nodeMatrix(couplingStrength(trueEta[size_t(k)], hd), {});
    }
    // Relabel the fitted states in the order of the truth when known (map: fitted → true).
    std::vector<int64_t> relabelled(hm.states.size());
    for (size_t t = 0; t < hm.states.size(); ++t)
        relabelled[t] = map[size_t(hm.states[t])];
    doc.labels[L::kState] = relabelled;
    for (int k = 0; k < K; ++k) {
        doc.matrices[X::kHmmCouplingPrefix + std::to_string(map[size_t(k)] + 1)] =
            nodeMatrix(couplingStrength(hm.eta[size_t(k)], hd),
                       m_names.size() == size_t(hd) ? m_names : std::vector<std::string>{});
        Series post = emptySeries("time (samples)", "posterior probability");
        const int64_t stride = std::max<int64_t>(1, hm.posterior.rows() / 2000);
        for (int64_t t = 0; t < hm.posterior.rows(); t += stride)
            addPoint(post, double(t), hm.posterior(t, k));
        doc.series[S::kHmmPosteriorPrefix + std::to_string(map[size_t(k)] + 1)] = post;
    }
    Mat trans(K, K);
    for (int a = 0; a < K; ++a)
        for (int b = 0; b < K; ++b)
            trans(map[size_t(a)], map[size_t(b)]) = hm.transition(a, b);
    doc.matrices[X::kHmmTransition] = toMatrix(trans, "state ");
    Series ll = seriesOf({}, hm.logLikelihood, "EM round", "pseudo-log-likelihood");
    for (size_t r = 0; r < hm.logLikelihood.size(); ++r)
        ll.x.push_back(double(r + 1));
    doc.series[S::kHmmLoglik] = ll;
    mt[M::kHmmStates] = K;
    mt[M::kHmmD] = hd;
}

// ---------------------------------------------------------------- AR-TG

namespace {

/// The unidirectional 1 → 2 AR torus pair of the claims, of training length T.
ArSimSpec plantedPair(int64_t T, int lag, double coupling) {
    ArSimSpec as;
    as.d = 2;
    as.T = T + T / 4 + lag;
    as.lag = lag;
    as.drives = {{0, 1, coupling}};
    return as;
}

} // namespace

void TorusRun::runArTg() {
    const ParamSet& p = m_p;
    m_ctx.progress(0.8, "AR-TG transfer entropy");
    RowMat ax;
    const int lag = int(p.getInt(P::kArLag));
    const bool arSynthetic = m_synthetic;
    if (m_synthetic) {
        ArSimSpec as;
        as.d = int(p.getInt(P::kArD));
        const int64_t T = p.getInt(P::kArT);
        as.T = T + T / 4 + lag;
        as.lag = lag;
        as.drives = {{0, 1, p.getDouble(P::kArCoupling)}};
        Rng ar = m_root.fork("ar-sim");
        ax = simulateArTorus(as, ar);
    } else if (m_d <= 8) {
        ax = m_x;
    }
    if (ax.rows() > 0)
        packTransferEntropy(ax, arSynthetic, lag);
    else
        m_doc.notes.push_back("AR-TG skipped: the input has more than 8 channels.");
}

void TorusRun::packTransferEntropy(const RowMat& ax, bool arSynthetic, int lag) {
    ResultDocument& doc = m_doc;
    TransferEntropyOptions to;
    to.lag = lag;
    to.shifts = int(m_p.getInt(P::kArShifts));
    to.trainFraction = 0.8;
    Rng tr = m_root.fork("te");
    const TransferEntropyResult te = transferEntropy(ax, to, tr, m_poll);
    const int ad = int(ax.cols());
    const std::vector<std::string> anames = arSynthetic ? std::vector<std::string>{} : m_names;
    doc.matrices[X::kTransferEntropy] = nodeMatrix(te.te, anames);
    doc.matrices[X::kTeNull95] = nodeMatrix(te.null95, anames);
    doc.matrices[X::kTePValue] = nodeMatrix(te.pValue, anames);
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
            e.attrs[A::kSignificant] = sig ? 1 : 0;
            e.attrs[A::kPValue] = te.pValue(i, j);
            g.edges.push_back(e);
        }
    doc.graphs[G::kTransferEntropy] = g;
    if (!arSynthetic)
        return;
    auto& mt = doc.metrics;
    mt[M::kTeForward] = te.te(0, 1);
    mt[M::kTeBackward] = te.te(1, 0);
    mt[M::kTeNull95Forward] = te.null95(0, 1);
    mt[M::kTeNull95Backward] = te.null95(1, 0);
    checkArDirection(te, to, lag);
    packTeVsT(to, lag);
}

void TorusRun::checkArDirection(const TransferEntropyResult& te, const TransferEntropyOptions& to, int lag) {
    const ParamSet& p = m_p;
    const double fwd = te.te(0, 1), bwd = te.te(1, 0);
    const double nf = te.null95(0, 1), nb = te.null95(1, 0);
    // Claim: unidirectional pair 1→2 over several seeds (the spec's ≥ 8/10 rule as ≥ 80 %).
    const int claimSeeds = int(p.getInt(P::kArClaimSeeds));
    Claim c;
    c.id = C::kArTgDirection;
    c.statement = "AR-TG transfer entropy finds the planted direction: TE 1→2 significant against the "
                  "circular-shift null (p <= 0.05), TE 2→1 not, in >= 80 % of seeds.";
    c.threshold = 0.8;
    if (claimSeeds > 0 && to.shifts > 0) {
        int ok = 0;
        Rng cr = m_root.fork("te-claim");
        for (int sd = 0; sd < claimSeeds; ++sd) {
            Rng rr = cr.fork("seed" + std::to_string(sd));
            const RowMat cx =
                simulateArTorus(plantedPair(p.getInt(P::kArT), lag, p.getDouble(P::kArCoupling)), rr);
            const TransferEntropyResult ct = transferEntropy(cx, to, rr, m_poll);
            ok += (ct.pValue(0, 1) <= 0.05 && !(ct.pValue(1, 0) <= 0.05)) ? 1 : 0;
        }
        c.observed = double(ok) / claimSeeds;
        c.holds = c.observed >= 0.8;
        c.detail = std::to_string(ok) + " of " + std::to_string(claimSeeds) +
                   " seeds of a unidirectional pair (T = " + std::to_string(p.getInt(P::kArT)) + ", lag " +
                   std::to_string(lag) + ", drive " + fmt(p.getDouble(P::kArCoupling)) + ", " +
                   std::to_string(to.shifts) +
                   " circular shifts, permutation p <= 0.05, held-out last 20 %). This run's "
                   "network: TE "
                   "1→2 = " +
                   fmt(fwd) + " nats (p " + fmt(te.pValue(0, 1)) + "), TE 2→1 = " + fmt(bwd) + " (p " +
                   fmt(te.pValue(1, 0)) + ").";
    } else {
        const bool fSig = std::isfinite(te.pValue(0, 1)) ? te.pValue(0, 1) <= 0.05 : fwd > 0;
        const bool bSig = std::isfinite(te.pValue(1, 0)) ? te.pValue(1, 0) <= 0.05 : bwd > fwd;
        c.observed = (fSig && !bSig) ? 1.0 : 0.0;
        c.holds = fSig && !bSig;
        c.detail = "Single run (ar_claim_seeds = 0 or no shift null): TE 1→2 = " + fmt(fwd) +
                   " nats (null 95 % " + fmt(nf) + "), TE 2→1 = " + fmt(bwd) + " (null 95 % " + fmt(nb) +
                   ").";
    }
    m_doc.claims.push_back(c);
}

void TorusRun::packTeVsT(const TransferEntropyOptions& to, int lag) {
    // TE vs T (shape of the convergence plot): the planted pair at growing lengths.
    Series tf = emptySeries("training length T", "transfer entropy (nats/sample)"), tb = tf;
    Rng cr = m_root.fork("te-vs-T");
    for (int64_t T = 128; T <= 8192; T *= 2) {
        m_poll();
        Rng rr = cr.fork(std::to_string(T));
        const RowMat cx = simulateArTorus(plantedPair(T, lag, m_p.getDouble(P::kArCoupling)), rr);
        addPoint(tf, double(T), transferEntropyPair(cx, 0, 1, to));
        addPoint(tb, double(T), transferEntropyPair(cx, 1, 0, to));
    }
    m_doc.series[S::kTeVsTForward] = tf;
    m_doc.series[S::kTeVsTBackward] = tb;
}

} // namespace pl::torusgraph
