#include "SpecExitRuns.h"

#include "SpecExitKeys.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "tinylm/MlpLm.h"
#include "tinylm/ReasoningTraces.h"
#include "tinylm/SpeculativeSampling.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

namespace pl::tinylm {

namespace P = specexit::keys::param;
namespace K = specexit::keys;
namespace T = traces;

namespace {

constexpr ExitMethod kAll[] = {ExitMethod::Ar, ExitMethod::Sd, ExitMethod::Probe, ExitMethod::SdProbe,
                               ExitMethod::SpecExit};

struct MethodStats {
    double length = 0, accuracy = 0, cost = 0, wallMs = 0, oracleLength = 0;
    int known = 0;
    int64_t accepted = 0, proposed = 0;
    std::vector<int64_t> accept;
    DecodeRun first;
};

ExitConfig baseConfig(const SpecSetup& u, const ParamSet& p) {
    ExitConfig c;
    c.gamma = int(p.getInt(P::kGamma));
    c.temperature = p.getDouble(P::kTemperature);
    c.theta = p.getDouble(P::kThetaExit);
    c.ewma = p.getDouble(P::kEwma);
    c.kappa = p.getDouble(P::kKappa);
    c.costDraft = p.getDouble(P::kCostDraft);
    c.maxLen = int(p.getInt(P::kGenLen));
    c.stopAtEos = c.forceAtCap = u.builtin;
    c.boundary = u.builtin ? T::kSemi : -1;
    c.answer = u.builtin ? T::kA : -1;
    c.eos = u.builtin ? T::kEos : -1;
    return c;
}

/// The length an oracle exit would give: stop at the boundary after the n-th `S` step.
double oracleLength(const DecodeRun& r, int numbers) {
    int steps = 0;
    for (size_t i = 0; i < r.tokens.size(); ++i) {
        if (r.tokens[i] == T::kS)
            ++steps;
        else if (steps == numbers && r.tokens[i] == T::kSemi)
            return double(std::min(r.tokens.size(), i + 4)); // `; A ans <eos>`
    }
    return double(r.tokens.size());
}

MethodStats evalMethod(const SpecSetup& u, ExitMethod m, const ExitConfig& c, const Rng& base,
                       RunContext& ctx) {
    MethodStats s;
    int correct = 0;
    for (size_t i = 0; i < u.problems.size(); ++i) {
        Rng rng = base.fork(std::to_string(i));
        const auto t0 = std::chrono::steady_clock::now();
        DecodeRun r = decodeWithExit(u.target, &u.draft, u.problems[i].prompt, m, c, rng);
        s.wallMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        s.length += double(r.tokens.size());
        s.cost += r.cost;
        s.oracleLength += oracleLength(r, u.numbers);
        if (u.problems[i].truth >= 0) {
            ++s.known;
            correct += T::answerOf(r.tokens) == u.problems[i].truth;
        }
        for (int a : r.acceptLens) {
            s.accept.push_back(a);
            s.accepted += a;
            s.proposed += c.gamma;
        }
        if (i == 0)
            s.first = std::move(r);
        ctx.throwIfCancelled();
    }
    const double n = double(u.problems.size());
    s.length /= n;
    s.cost /= n;
    s.oracleLength /= n;
    s.accuracy = s.known ? double(correct) / double(s.known) : 0.0;
    return s;
}

/// Linear interpolation of y(x) at \a at over points sorted by x (clamped to the ends).
double interpAt(std::vector<std::pair<double, double>> pts, double at) {
    std::sort(pts.begin(), pts.end());
    if (at <= pts.front().first)
        return pts.front().second;
    for (size_t i = 1; i < pts.size(); ++i)
        if (at <= pts[i].first) {
            const auto [x0, y0] = pts[i - 1];
            const auto [x1, y1] = pts[i];
            return x1 > x0 ? y0 + (y1 - y0) * (at - x0) / (x1 - x0) : y1;
        }
    return pts.back().second;
}

void enumerateLaw(const MlpLmModel& t, std::vector<int>& seq, size_t promptLen, int depth, double prob,
                  double temp, std::map<std::vector<int>, double>& law) {
    if (depth == 0) {
        law[std::vector<int>(seq.begin() + long(promptLen), seq.end())] = prob;
        return;
    }
    const Eigen::VectorXd p =
        tempered(mlpForward(t, {mlpContext(t, seq, int(seq.size()))}).logits.row(0).transpose(), temp);
    for (Eigen::Index x = 0; x < p.size(); ++x)
        if (prob * p[x] > 1e-12) {
            seq.push_back(int(x));
            enumerateLaw(t, seq, promptLen, depth - 1, prob * p[x], temp, law);
            seq.pop_back();
        }
}

struct LawTest {
    double p = 1, pAr = 1;
    int cells = 0;
};

/// Chi-square of sampled first-k-token sequences against the exact law (cells of expectation < 5 pooled).
double chiSquareP(const std::map<std::vector<int>, double>& law, const std::vector<int64_t>& samples, int k,
                  int runs, int* cellsOut) {
    std::map<std::vector<int>, double> obs;
    for (int r = 0; r < runs; ++r)
        obs[std::vector<int>(samples.begin() + long(r) * k, samples.begin() + long(r + 1) * k)] += 1;
    double chi2 = 0, eRest = runs, oRest = runs;
    int cells = 0;
    for (const auto& [seq, pr] : law) {
        const double e = pr * runs;
        if (e < 5)
            continue;
        const auto it = obs.find(seq);
        const double o = it == obs.end() ? 0.0 : it->second;
        chi2 += (o - e) * (o - e) / e;
        eRest -= e;
        oRest -= o;
        ++cells;
    }
    if (eRest > 1e-9) {
        chi2 += (oRest - eRest) * (oRest - eRest) / eRest;
        ++cells;
    }
    *cellsOut = cells;
    return cells > 1 ? chiSquareTail(chi2, cells - 1) : 1.0;
}

LawTest lawTest(const SpecSetup& u, const ParamSet& p, const ExitConfig& base, const Rng& root,
                ResultDocument& doc) {
    const int runs = int(p.getInt(P::kSampleRuns)), k = int(p.getInt(P::kSampleTokens));
    ExitConfig c = base;
    c.temperature = base.temperature > 0 ? base.temperature : 1.0;
    c.maxLen = k;
    c.stopAtEos = c.forceAtCap = false;
    std::vector<int64_t> ar, sd;
    Rng ra = root.fork("ar-samples"), rs = root.fork("sd-samples");
    for (int r = 0; r < runs; ++r) {
        for (int t : decodeWithExit(u.target, &u.draft, u.lawPrompt, ExitMethod::Ar, c, ra).tokens)
            ar.push_back(t);
        for (int t : decodeWithExit(u.target, &u.draft, u.lawPrompt, ExitMethod::Sd, c, rs).tokens)
            sd.push_back(t);
    }
    std::map<std::vector<int>, double> law;
    std::vector<int> seq = u.lawPrompt;
    enumerateLaw(u.target, seq, seq.size(), k, 1.0, c.temperature, law);
    LawTest lt;
    int cellsAr = 0;
    lt.p = chiSquareP(law, sd, k, runs, &lt.cells);
    lt.pAr = chiSquareP(law, ar, k, runs, &cellsAr);
    doc.labels[K::label::kArSamples] = ar;
    doc.labels[K::label::kSdSamples] = sd;
    doc.metrics[K::metric::kChi2PValue] = lt.p;
    doc.metrics[K::metric::kChi2PValueAr] = lt.pAr;
    doc.metrics[K::metric::kChi2Cells] = lt.cells;
    return lt;
}

/// Greedy AR and SD with exit off, exactly gen_len tokens per prompt; true when identical.
bool greedyCheck(const SpecSetup& u, const ExitConfig& base, const Rng& root, RunContext& ctx,
                 ResultDocument& doc) {
    ExitConfig c = base;
    c.temperature = 0;
    c.stopAtEos = c.forceAtCap = false;
    std::vector<int64_t> ar, sd;
    Rng rng = root.fork("greedy");
    for (const SpecProblem& pr : u.problems) {
        for (int t : decodeWithExit(u.target, &u.draft, pr.prompt, ExitMethod::Ar, c, rng).tokens)
            ar.push_back(t);
        for (int t : decodeWithExit(u.target, &u.draft, pr.prompt, ExitMethod::Sd, c, rng).tokens)
            sd.push_back(t);
        ctx.throwIfCancelled();
    }
    const bool same = ar == sd;
    doc.labels[K::label::kTokensGreedyAr] = std::move(ar);
    doc.labels[K::label::kTokensGreedySd] = std::move(sd);
    doc.metrics[K::metric::kGreedyIdentical] = same ? 1.0 : 0.0;
    return same;
}

/// Teacher-forced draft signals along the first problem's SD output, and the SpecExit stream.
void packSignals(const SpecSetup& u, const ExitConfig& c, const MethodStats& sd, const MethodStats* spec,
                 ResultDocument& doc) {
    std::vector<int> seq = u.problems.front().prompt;
    const size_t pl = seq.size();
    seq.insert(seq.end(), sd.first.tokens.begin(), sd.first.tokens.end());
    const SignalTrace s = signalsAlong(u.target, u.draft, seq);
    Series conf = emptySeries("generated tokens (0 = end of the prompt)", "confidence");
    Series prog = emptySeries("generated tokens (0 = end of the prompt)", "progress");
    Series rem = emptySeries("generated tokens (0 = end of the prompt)", "remaining length (tokens)");
    Series ew = emptySeries("generated tokens (0 = end of the prompt)", "EWMA of the confidence");
    std::vector<double> bounds;
    double smooth = 0;
    int steps = 0;
    for (size_t j = pl - 1; j < seq.size(); ++j) {
        const double g = double(j + 1 - pl);
        addPoint(conf, g, s.conf[j]);
        addPoint(prog, g, s.prog[j]);
        addPoint(rem, g, s.rem[j]);
        smooth = j == pl - 1 ? s.conf[j] : c.ewma * s.conf[j] + (1 - c.ewma) * smooth;
        addPoint(ew, g, smooth);
        if (j >= pl && seq[j] == T::kS)
            ++steps;
        if (j >= pl && seq[j] == T::kSemi) {
            bounds.push_back(g);
            if (steps == u.numbers && !doc.metrics.count(K::metric::kStreamDetermined))
                doc.metrics[K::metric::kStreamDetermined] = g;
        }
    }
    doc.series[K::series::kConf] = conf;
    doc.series[K::series::kProg] = prog;
    doc.series[K::series::kRem] = rem;
    doc.series[K::series::kEwma] = ew;
    doc.vectors[K::vector::kBoundaries] = bounds;
    const DecodeRun& st = spec ? spec->first : sd.first;
    doc.labels[K::label::kStreamTokens] = std::vector<int64_t>(st.tokens.begin(), st.tokens.end());
    doc.labels[K::label::kStreamSource] = std::vector<int64_t>(st.source.begin(), st.source.end());
    doc.labels[K::label::kStreamRejected] = std::vector<int64_t>(st.rejected.begin(), st.rejected.end());
    doc.metrics[K::metric::kStreamExitAt] = st.exitAt;
}

void packMethods(const std::vector<MethodStats>& ms, const std::vector<int>& run, bool builtin,
                 size_t problems, ResultDocument& doc) {
    std::string walls = "wall time per problem (ms, this machine):";
    for (int m : run) {
        const std::string name = K::kMethods[m];
        doc.metrics[K::metric::kMeanLengthPrefix + name] = ms[size_t(m)].length;
        doc.metrics[K::metric::kLatencyPrefix + name] = ms[size_t(m)].cost;
        if (builtin)
            doc.metrics[K::metric::kAccuracyPrefix + name] = ms[size_t(m)].accuracy;
        walls += " " + name + " " +
                 formatSignificant(ms[size_t(m)].wallMs / double(std::max<size_t>(1, problems)), 3);
    }
    doc.notes.push_back(walls);
    const MethodStats& sd = ms[1];
    doc.metrics[K::metric::kAcceptanceRate] = double(sd.accepted) / double(std::max<int64_t>(1, sd.proposed));
    doc.labels[K::label::kAcceptLens] = sd.accept;
    std::vector<double> x, y;
    for (int a = 0; a <= int(sd.proposed ? sd.proposed / std::max<size_t>(1, sd.accept.size()) : 0); ++a) {
        x.push_back(a);
        y.push_back(double(std::count(sd.accept.begin(), sd.accept.end(), a)));
    }
    doc.series[K::series::kAcceptHist] = seriesOf(x, y, "drafts accepted per verification", "verifications");
}

} // namespace

void runSpecExit(const SpecSetup& u, const ParamSet& p, const Rng& root, RunContext& ctx,
                 ResultDocument& doc) {
    const ExitConfig c = baseConfig(u, p);
    const bool exitOn = u.builtin && p.getString(P::kExit) == "on";
    std::vector<int> run = {0, 1};
    if (exitOn)
        run = {0, 1, 2, 3, 4};
    std::vector<MethodStats> ms(5);
    for (int m : run) {
        ms[size_t(m)] = evalMethod(u, kAll[m], c, root.fork("decode").fork(K::kMethods[m]), ctx);
        ctx.progress(0.6 + 0.05 * double(m + 1), std::string("decoding: ") + K::kMethods[m]);
    }
    packMethods(ms, run, u.builtin, u.problems.size(), doc);
    doc.metrics[K::metric::kTargetLoss] = u.targetLoss;
    doc.metrics[K::metric::kDraftLoss] = u.draftLoss;
    const bool same = greedyCheck(u, c, root, ctx, doc);
    const int runs = int(p.getInt(P::kSampleRuns));
    LawTest lt;
    if (runs > 0)
        lt = lawTest(u, p, c, root, doc);
    if (u.builtin)
        packSignals(u, c, ms[1], exitOn ? &ms[4] : nullptr, doc);
    if (runs > 0)
        doc.claims.push_back(claimOf(
            K::claim::kLaw,
            "With exit off, speculative decoding leaves the target's output distribution unchanged "
            "(chi-square of the first tokens against the enumerated target law, p > 0.01).",
            lt.p > 0.01, lt.p, 0.01,
            "p = " + formatSignificant(lt.p, 3) + " (SD), " + formatSignificant(lt.pAr, 3) + " (AR) over " +
                std::to_string(lt.cells) + " cells, " + std::to_string(runs) + " runs"));
    doc.claims.push_back(
        claimOf(K::claim::kGreedy,
                "Greedy speculative decoding equals greedy autoregressive decoding token for token.", same,
                same ? 1.0 : 0.0, 1.0,
                std::to_string(u.problems.size()) + " prompts x " + std::to_string(c.maxLen) + " tokens"));
    if (!exitOn)
        return;
    const double red = 1 - ms[4].length / std::max(ms[1].length, 1e-12);
    const double drop = ms[1].accuracy - ms[4].accuracy;
    doc.metrics[K::metric::kLengthReductionVsSd] = red;
    doc.metrics[K::metric::kAccuracyDropVsSd] = drop;
    doc.metrics[K::metric::kLengthReductionOracle] = 1 - ms[1].oracleLength / std::max(ms[1].length, 1e-12);
    doc.claims.push_back(claimOf(
        K::claim::kShorter,
        "SpecExit generates at least 25% fewer tokens than SD with at most 2 points of accuracy loss.",
        red >= 0.25 && drop <= 0.02, red, 0.25,
        "length " + formatFixed(ms[4].length, 1) + " vs SD " + formatFixed(ms[1].length, 1) + " (-" +
            formatFixed(100 * red, 1) + " %, oracle exit -" +
            formatFixed(100 * doc.metrics[K::metric::kLengthReductionOracle], 1) + " %); accuracy " +
            formatFixed(100 * ms[4].accuracy, 1) + " % vs " + formatFixed(100 * ms[1].accuracy, 1) + " %"));
    // The theta_exit sweep: accuracy and latency against the length reduction for the exit methods.
    const double thetas[] = {0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99};
    doc.vectors[K::vector::kSweepTheta] = std::vector<double>(std::begin(thetas), std::end(thetas));
    std::map<int, std::vector<std::pair<double, double>>> lat;
    if (p.getBool(P::kSweep))
        for (int m : {2, 3, 4}) {
            Series acc = emptySeries("length reduction vs SD", "accuracy");
            Series la = emptySeries("length reduction vs SD", "modelled latency (target calls)");
            for (double th : thetas) {
                ExitConfig ct = c;
                ct.theta = th;
                const MethodStats s =
                    evalMethod(u, kAll[m], ct, root.fork("sweep").fork(K::kMethods[m]), ctx);
                const double r = 1 - s.length / std::max(ms[1].length, 1e-12);
                addPoint(acc, r, s.accuracy);
                addPoint(la, r, s.cost);
                lat[m].push_back({r, s.cost});
            }
            doc.series[K::series::kParetoPrefix + std::string(K::kMethods[m])] = acc;
            doc.series[K::series::kLatencyPrefix + std::string(K::kMethods[m])] = la;
            ctx.progress(0.85 + 0.04 * double(m - 1), "theta sweep");
        }
    lat[2].push_back({1 - ms[2].length / std::max(ms[1].length, 1e-12), ms[2].cost});
    lat[3].push_back({1 - ms[3].length / std::max(ms[1].length, 1e-12), ms[3].cost});
    const double probeLat = std::min(interpAt(lat[2], red), interpAt(lat[3], red));
    doc.metrics[K::metric::kProbeLatencyAtReduction] = probeLat;
    doc.claims.push_back(claimOf(
        K::claim::kLatency,
        "At equal length reduction, SpecExit's modelled latency is below the probe-based exits'.",
        ms[4].cost < probeLat, ms[4].cost, probeLat,
        "latency " + formatFixed(ms[4].cost, 2) + " vs probe " + formatFixed(probeLat, 2) +
            " (interpolated over the theta sweep at -" + formatFixed(100 * red, 1) + " %; cost model kappa " +
            formatSignificant(c.kappa, 3) + ", cost_draft " + formatSignificant(c.costDraft, 3) + ")"));
    const double sp = ms[0].cost / std::max(ms[4].cost, 1e-12);
    doc.metrics[K::metric::kSpeedupSpecExitVsAr] = sp;
    doc.claims.push_back(
        claimOf(K::claim::kSpeedup,
                "Illustrative (cost model, not a GPU): SpecExit's modelled end-to-end speed-up over "
                "autoregressive decoding exceeds 1 (the paper's 2.5x depends on its cost model).",
                sp > 1, sp, 1.0, "modelled speed-up " + formatFixed(sp, 2) + "x"));
}

} // namespace pl::tinylm
